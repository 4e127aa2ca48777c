package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoad_defaults(t *testing.T) {
	c, err := Load(Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox.Mode != "workspace-write" || c.Sandbox.Network != "off" || c.Approval.Policy != "on-failure" {
		t.Errorf("defaults = %+v", c.Sandbox)
	}
	if c.Assessor.Timeout != 5*time.Second {
		t.Errorf("assessor timeout = %v, want 5s", c.Assessor.Timeout)
	}
	if c.Sandbox.DenyRead[0] != "/home/u/.ssh" {
		t.Errorf("deny_read[0] = %q, want ~ expanded", c.Sandbox.DenyRead[0])
	}
	if c.Origin["sandbox.mode"] != "default" {
		t.Errorf("origin = %q, want default", c.Origin["sandbox.mode"])
	}
}

func TestLoad_layers(t *testing.T) {
	dir := t.TempDir()
	sys := write(t, filepath.Join(dir, "etc.toml"), "[sandbox]\nmode = \"read-only\"\nnetwork = \"on\"\n")
	user := write(t, filepath.Join(dir, "user.toml"), "# comment\n[sandbox]\nnetwork = \"off\"\n\n[assessor]\ntimeout = \"2s\"\n")
	c, err := Load(Options{
		SystemFile: sys, UserFile: user, Home: "/h",
		Env:   map[string]string{"AIRLOCK_APPROVAL__POLICY": "never", "AIRLOCK_LOG": "debug", "AIRLOCK_SANDBOX__ADD_DIRS": "/a,/b"},
		Flags: map[string]any{"sandbox.mode": "workspace-write"}, FlagNames: map[string]string{"sandbox.mode": "--sandbox"},
	})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ key, value, origin string }{
		{"sandbox.mode", c.Sandbox.Mode, "flag --sandbox"},
		{"sandbox.network", c.Sandbox.Network, user + ":3"},
		{"assessor.timeout", c.Assessor.Timeout.String(), user + ":6"},
		{"approval.policy", c.Approval.Policy, "env AIRLOCK_APPROVAL__POLICY"},
	}
	wantValues := map[string]string{"sandbox.mode": "workspace-write", "sandbox.network": "off", "assessor.timeout": "2s", "approval.policy": "never"}
	for _, ck := range checks {
		if ck.value != wantValues[ck.key] {
			t.Errorf("%s = %q, want %q", ck.key, ck.value, wantValues[ck.key])
		}
		if c.Origin[ck.key] != ck.origin {
			t.Errorf("origin of %s = %q, want %q", ck.key, c.Origin[ck.key], ck.origin)
		}
	}
	if strings.Join(c.Sandbox.AddDirs, ",") != "/a,/b" {
		t.Errorf("add_dirs = %v", c.Sandbox.AddDirs)
	}
}

func TestLoad_errors(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		want string // substring of the error, including file:line
	}{
		{"unknown key", "[sandbox]\nmode = \"read-only\"\nmoed = \"x\"\n", nil, "user.toml:3: unknown key sandbox.moed"},
		{"bad enum", "[sandbox]\n\nmode = \"lol\"\n", nil, "user.toml:3: sandbox.mode: \"lol\" is not one of"},
		{"bad type", "[sandbox]\nallow_degraded = \"yes\"\n", nil, "user.toml:2: sandbox.allow_degraded: want true or false"},
		{"bad duration", "assessor.timeout = \"soon\"\n", nil, "user.toml:1: assessor.timeout"},
		{"syntax", "[sandbox\nmode=1\n", nil, "user.toml:1:"},
		{"relative plugin path", "[plugins.x]\nkind = \"sandbox\"\npath = \"bin/x\"\n", nil, "user.toml:3: plugins.x.path"},
		{"bad sha", "[plugins.x]\nkind = \"sandbox\"\npath = \"/x\"\nsha256 = \"abc\"\n", nil, "user.toml:4: plugins.x.sha256"},
		{"plugin without path", "[plugins.x]\nkind = \"sandbox\"\n", nil, "plugins.x needs both kind and path"},
		{"bad protected name", "[sandbox]\nprotected_names = [\"a/b\"]\n", nil, "user.toml:2: sandbox.protected_names"},
		{"env unknown", "", map[string]string{"AIRLOCK_SANDBOX__NOPE": "1"}, "AIRLOCK_SANDBOX__NOPE sets unknown key sandbox.nope"},
		{"env bad value", "", map[string]string{"AIRLOCK_SANDBOX__NETWORK": "maybe"}, "AIRLOCK_SANDBOX__NETWORK"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := write(t, filepath.Join(t.TempDir(), "user.toml"), tt.file)
			_, err := Load(Options{UserFile: user, Home: "/h", Env: tt.env})
			if err == nil {
				t.Fatalf("Load succeeded, want an error containing %q", tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLoad_projectFile(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	proj := filepath.Join(dir, "proj")
	user := write(t, filepath.Join(dir, "user.toml"), "trusted_projects = [\""+proj+"\"]\n")
	write(t, filepath.Join(proj, ".airlock", "config.toml"), "[sandbox]\nnetwork = \"on\"\n")
	c, err := Load(Options{UserFile: user, Home: "/h", Cwd: filepath.Join(proj, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox.Network != "on" || c.ProjectRoot != proj {
		t.Errorf("trusted project config not applied: network=%s root=%q", c.Sandbox.Network, c.ProjectRoot)
	}
	// Untrusted: the same file is ignored.
	c, err = Load(Options{Home: "/h", Cwd: filepath.Join(proj, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox.Network != "off" {
		t.Errorf("untrusted project config applied")
	}
	for _, body := range []string{"[sandbox]\nmode = \"danger-full-access\"\n", "[plugins.evil]\nkind=\"sandbox\"\npath=\"/x\"\n", "[sandbox]\nbackend = \"other\"\n"} {
		write(t, filepath.Join(proj, ".airlock", "config.toml"), body)
		if _, err := Load(Options{UserFile: user, Home: "/h", Cwd: proj}); err == nil {
			t.Errorf("project file %q was accepted; security keys must come from the user", body)
		}
	}
}

func TestKeyLine(t *testing.T) {
	data := []byte("a = 1\n[sandbox]\n# x\nmode = \"r\"\n[plugins.\"foo\"]\npath = \"/x\"\n[log]\nlevel.x = 2\n")
	tests := map[string]int{"a": 1, "sandbox.mode": 4, "plugins.foo.path": 6, "log.level.x": 8, "nope": 0}
	for key, want := range tests {
		if got := keyLine(data, key); got != want {
			t.Errorf("keyLine(%q) = %d, want %d", key, got, want)
		}
	}
}

func FuzzLoadFile(f *testing.F) {
	f.Add("[sandbox]\nmode = \"read-only\"\n")
	f.Add("x = [1, 2\n")
	f.Add("[plugins.a]\nkind = \"sandbox\"\npath = \"/p\"\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body string) {
		p := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(Options{UserFile: p, Home: "/h"})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Load error %v does not wrap ErrInvalid", err)
			}
			return
		}
		switch c.Sandbox.Mode {
		case "read-only", "workspace-write", "danger-full-access":
		default:
			t.Fatalf("Load accepted sandbox.mode %q", c.Sandbox.Mode)
		}
	})
}
