package linuxbox

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/airlock-dev/airlock/internal/plugintest"
	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/sandboxtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

func TestBackend_conformance(t *testing.T) {
	launcher := filepath.Join(plugintest.Dir(t), "airlock-sandbox-linux")
	ok, _ := plugintest.UserNS()
	if !ok {
		plugintest.RequireUserNS(t)
	}
	sandboxtest.Run(t, func(testing.TB) sandbox.Sandbox { return NewWithLauncher(launcher) },
		sandboxtest.Options{Enforce: ok})
}

func TestGuessDenials(t *testing.T) {
	pol := sandbox.Policy{Network: sandbox.NetworkOff, DenyRead: []string{"/home/u/.ssh"}}
	tests := []struct {
		name   string
		tail   string
		signal int
		want   []sandbox.Denial
	}{
		{"touch", "touch: cannot touch '/etc/x': Read-only file system\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/etc/x", Operation: "write"}}},
		{"dash redirect", "sh: 1: cannot create /home/u/out: Read-only file system\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/home/u/out", Operation: "write"}}},
		{"zsh redirect", "zsh:1: read-only file system: /home/u/out\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/home/u/out", Operation: "write"}}},
		{"relative path", "sh: 1: cannot create sub/.git/config: Read-only file system\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/work/sub/.git/config", Operation: "write"}}},
		{"quoted relative", "mkdir: cannot create directory 'out': Permission denied\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/work/out", Operation: "write"}}},
		{"denied read", "cat: /home/u/.ssh/id_rsa: Permission denied\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialRead, Path: "/home/u/.ssh/id_rsa", Operation: "read"}}},
		{"dns", "curl: (6) Could not resolve host: example.com\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialNetwork, Host: "example.com", Operation: "connect"}}},
		{"sigsys", "", 31, []sandbox.Denial{{Kind: sandbox.DenialSyscall}}},
		{"nothing", "make: *** [all] Error 2\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := guessDenials(&sandbox.ExplainRequest{Prepared: sandbox.PrepareRequest{Policy: pol, Command: sandbox.Command{Cwd: "/work"}}, ExitCode: 1, Signal: tt.signal, OutputTail: []byte(tt.tail)})
			for i := range got {
				if !got[i].Guessed {
					t.Errorf("denial %d not marked as guessed", i)
				}
				got[i].Guessed, got[i].Detail = false, ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("guessDenials(%q) = %+v, want %+v", tt.tail, got, tt.want)
			}
		})
	}
}

func TestExplain_trustsReport(t *testing.T) {
	report := []byte(`{"event":"mode","detail":"x"}` + "\n" + `{"event":"denied","kind":"write","path":"/etc/x"}` + "\n" + "garbage\n")
	res, err := New().Explain(t.Context(), &sandbox.ExplainRequest{ExitCode: 1, Report: report, OutputTail: []byte("touch: cannot touch '/other': Read-only file system")})
	if err != nil {
		t.Fatal(err)
	}
	want := []sandbox.Denial{{Kind: sandbox.DenialWrite, Path: "/etc/x", Operation: "write"}}
	if !reflect.DeepEqual(res.Denials, want) {
		t.Errorf("Explain = %+v, want %+v", res.Denials, want)
	}
}
