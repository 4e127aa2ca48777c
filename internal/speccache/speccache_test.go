package speccache

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func entry(plugin string) *Entry {
	return &Entry{
		Info: sandbox.Info{Name: "linux", Version: "1", Capabilities: []string{sandbox.CapNetworkOff}},
		Spec: sandbox.LaunchSpec{Argv: []string{plugin, "launch", "{}", "true"}, Cwd: "/w", Template: true, CommandIndex: 3,
			EnvOverrides: []string{"TMPDIR=/tmp"}, ExtraFiles: []sandbox.ExtraFile{sandbox.ExtraFileReportPipe}},
	}
}

func TestCache_roundTripAndMisses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "specs")
	c := New(dir, os.Getuid())
	k := Key{Plugin: "/bin/plugin", Identity: "1:2:3", Policy: sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, Network: sandbox.NetworkOff}, Cwd: "/w"}
	if _, ok := c.Load(k); ok {
		t.Fatal("hit on an empty cache")
	}
	if err := c.Store(k, entry("/bin/plugin")); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Load(k)
	if !ok || got.Info.Name != "linux" || got.Spec.CommandIndex != 3 {
		t.Fatalf("Load = %+v, %v", got, ok)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("cache directory mode %v, want 0700", fi.Mode().Perm())
	}
	for name, other := range map[string]Key{
		"binary changed": {Plugin: k.Plugin, Identity: "1:2:4", Policy: k.Policy, Cwd: k.Cwd},
		"policy changed": {Plugin: k.Plugin, Identity: k.Identity, Policy: sandbox.Policy{Mode: sandbox.ModeReadOnly, Network: sandbox.NetworkOff}, Cwd: k.Cwd},
		"cwd changed":    {Plugin: k.Plugin, Identity: k.Identity, Policy: k.Policy, Cwd: "/x"},
		"tty changed":    {Plugin: k.Plugin, Identity: k.Identity, Policy: k.Policy, Cwd: k.Cwd, TTY: true},
		"pin added":      {Plugin: k.Plugin, Identity: k.Identity, Policy: k.Policy, Cwd: k.Cwd, Pin: "ab"},
	} {
		if _, ok := c.Load(other); ok {
			t.Errorf("%s: still a hit", name)
		}
	}
}

func TestCache_rejectsUntrustworthyEntries(t *testing.T) {
	dir := t.TempDir()
	c := New(dir, os.Getuid())
	k := Key{Plugin: "/bin/plugin", Identity: "x", Cwd: "/w"}
	if err := c.Store(k, entry("/bin/other")); err == nil {
		t.Error("stored a spec that runs another program than the plugin")
	}
	notTemplate := entry("/bin/plugin")
	notTemplate.Spec.Template = false
	if err := c.Store(k, notTemplate); err == nil {
		t.Error("stored a spec that is not a template")
	}
	if err := c.Store(k, entry("/bin/plugin")); err != nil {
		t.Fatal(err)
	}
	id, _ := k.id()
	path := filepath.Join(dir, id+".json")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Load(k); ok {
		t.Error("loaded an entry readable by others")
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Load(k); ok {
		t.Error("loaded a corrupt entry")
	}
	if _, ok := New(dir, os.Getuid()+1).Load(k); ok {
		t.Error("loaded an entry owned by someone else")
	}
}

func TestIdentity_changesWithContent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(p, []byte("a"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := Identity(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("bb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if b, _ := Identity(p); a == b {
		t.Errorf("identity %q did not change with the content", a)
	}
}
