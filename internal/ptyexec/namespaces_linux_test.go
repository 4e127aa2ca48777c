package ptyexec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

func TestNamespaceAttr(t *testing.T) {
	for _, tc := range []struct {
		kinds, caps []string
		ok, none    bool
	}{
		{nil, nil, true, true},
		{[]string{"user", "mount", "pid", "ipc", "uts", "net"}, []string{"CAP_SYS_ADMIN", "CAP_SETPCAP"}, true, false},
		{[]string{"pid"}, nil, false, false},
		{[]string{"user", "bogus"}, nil, false, false},
		{[]string{"user"}, []string{"CAP_SYS_MODULE"}, false, false},
	} {
		a, err := namespaceAttr(tc.kinds, tc.caps)
		if (err == nil) != tc.ok || (err == nil && (a == nil) != tc.none) {
			t.Errorf("namespaceAttr(%v, %v) = %+v, %v", tc.kinds, tc.caps, a, err)
		}
	}
}

// A spec asking for namespaces starts as their first process, with the
// caller's own uid; where the kernel refuses them it starts without.
func TestRun_namespaces(t *testing.T) {
	plugintest.RequireUserNS(t)
	out := filepath.Join(t.TempDir(), "out")
	spec := sh("echo $$ $(id -u) > " + out)
	spec.Namespaces = []string{"user", "mount", "pid"}
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	if _, err := Run(t.Context(), spec, Stdio{In: devnull, Out: os.Stdout, Err: os.Stderr}, Options{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(b)), "1 "+strconv.Itoa(os.Getuid()); got != want {
		t.Errorf("pid and uid inside = %q, want %q", got, want)
	}
}

// A launcher's report that the sandbox is over ends the wait, even while
// the launcher itself is still on its way out.
func TestRun_pipesFinishedReport(t *testing.T) {
	finished := make(chan Result, 1)
	finished <- Result{ExitCode: 7}
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	start := time.Now()
	res, err := Run(t.Context(), sh("sleep 5"), Stdio{In: devnull, Out: devnull, Err: devnull}, Options{Finished: finished})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 7 {
		t.Errorf("exit = %d, want the reported 7", res.ExitCode)
	}
	if time.Since(start) > 3*time.Second {
		t.Error("Run waited for the process although it had reported")
	}
}
