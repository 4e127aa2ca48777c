package launcher

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSockaddrAddrPort(t *testing.T) {
	for _, tc := range []struct {
		hex, want string
		ok        bool
	}{
		{"0200005101020304" + "0000000000000000", "1.2.3.4:81", true},
		{"0a000035" + "00000000" + "20010db8000000000000000000000001" + "00000000", "[2001:db8::1]:53", true},
		{"0a000050" + "00000000" + "00000000000000000000ffff7f000001", "127.0.0.1:80", true},
		{"0100", "", false},             // too short
		{"01002f746d702f73", "", false}, // AF_UNIX
		{"0a00005000000000", "", false}, // truncated IPv6
		{"020000500a00", "", false},     // truncated IPv4
	} {
		b, err := hex.DecodeString(tc.hex)
		if err != nil {
			t.Fatal(err)
		}
		ap, ok := sockaddrAddrPort(b)
		if ok != tc.ok || (ok && ap.String() != tc.want) {
			t.Errorf("sockaddrAddrPort(%s) = %v, %v; want %s, %v", tc.hex, ap, ok, tc.want, tc.ok)
		}
	}
}

// protectedName compares the parent as the kernel resolves it, so a
// symbolic link or ".." that leads back into the root still counts.
func TestSupervisor_protectedName(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	for _, d := range []string{"sub", "a"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(root, filepath.Join(root, "self")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "a", "x")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/cwd", filepath.Join(root, "pc")); err != nil {
		t.Fatal(err)
	}
	s := newSupervisor(-1, &Config{WritableRoots: []string{root}, ProtectedNames: []string{".git", ".airlock"}}, nil, true)
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{root + "/.git", true},
		{root + "/.git/", true},
		{root + "/.airlock", true},
		{root + "/self/.git", true},
		{root + "/a/x/../.git", true},
		{root + "/sub/../.git", true},
		{root + "/sub/.git", false},
		{root + "/.gitignore", false},
		{other + "/.git", false},
		{root + "/missing/.git", false},
		{"/proc/self/cwd/.git", true},
		{root + "/pc/.git", true},
	} {
		if got := s.protectedName(tc.raw); got != tc.want {
			t.Errorf("protectedName(%s) = %v, want %v", strings.TrimPrefix(tc.raw, root), got, tc.want)
		}
	}
}

func TestQuarantine_movesAsideWhatAppeared(t *testing.T) {
	root := t.TempDir()
	appeared := filepath.Join(root, ".git")
	if err := os.Mkdir(appeared, 0o755); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	quarantine(&Config{Missing: []string{appeared, filepath.Join(root, ".airlock")}}, &reporter{f: w})
	w.Close()
	if _, err := os.Lstat(appeared); err == nil {
		t.Fatal(".git is still in place")
	}
	moved, _ := filepath.Glob(appeared + ".airlock-quarantine-*")
	if len(moved) != 1 {
		t.Fatalf("moved aside: %v, want one entry", moved)
	}
	buf := make([]byte, 4096)
	n, _ := r.Read(buf)
	evs := ParseReport(buf[:n])
	if len(evs) != 1 || evs[0].Event != "denied" || evs[0].Path != appeared || !strings.Contains(evs[0].Detail, moved[0]) {
		t.Errorf("report = %+v", evs)
	}
}

// A launcher that finds itself PID 1 in the machine's own user namespace
// must not mistake itself for the init stage.
func TestCheckOwnUserNS_refusesTheMachinesNamespace(t *testing.T) {
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		t.Skip(err)
	}
	if strings.Join(strings.Fields(string(b)), " ") != "0 0 4294967295" {
		t.Skip("the tests themselves run in a user namespace")
	}
	if err := checkOwnUserNS(); err == nil {
		t.Error("checkOwnUserNS accepted the machine's user namespace")
	}
}

func TestKernelAtLeast(t *testing.T) {
	if !kernelAtLeast(2, 6) {
		t.Error("the running kernel is older than 2.6")
	}
	if kernelAtLeast(999, 0) {
		t.Error("the running kernel is 999.0 or later")
	}
}
