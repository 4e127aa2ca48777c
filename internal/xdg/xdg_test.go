package xdg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	d, err := Resolve(map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "relative"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if d.Config != "/cfg/airlock" || d.State != "/home/u/.local/state/airlock" || d.Runtime != "/tmp/airlock-1000/airlock" {
		t.Errorf("Resolve = %+v", d)
	}
	if _, err := Resolve(map[string]string{}, 1); err == nil {
		t.Error("Resolve accepted a missing HOME")
	}
}

func TestEnsurePrivate(t *testing.T) {
	tmp := t.TempDir()
	d, err := Resolve(map[string]string{"HOME": "/h", "TMPDIR": tmp}, os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.EnsurePrivate(os.Getuid()); err != nil {
		t.Fatalf("fresh runtime directory refused: %v", err)
	}
	if fi, _ := os.Stat(d.Runtime); fi.Mode().Perm() != 0o700 {
		t.Errorf("runtime directory mode %v", fi.Mode().Perm())
	}
	// Someone opened the fallback directory up (or made it first).
	if err := os.Chmod(filepath.Dir(d.Runtime), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := d.EnsurePrivate(os.Getuid()); err == nil || !strings.Contains(err.Error(), "not a private directory") {
		t.Errorf("EnsurePrivate accepted a world-writable fallback directory: %v", err)
	}
	if err := d.EnsurePrivate(os.Getuid() + 1); err == nil {
		t.Errorf("EnsurePrivate accepted a directory owned by someone else")
	}
}
