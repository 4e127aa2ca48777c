package pluginhost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/plugintest"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// badPlugin installs the misbehaving plugin under the name that selects
// mode, in a fresh private directory.
func badPlugin(t *testing.T, mode string) Entry {
	t.Helper()
	src := filepath.Join(plugintest.Dir(t), "badplugin")
	dir := t.TempDir()
	dst := filepath.Join(dir, "airlock-sandbox-"+mode)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return Entry{Name: "sandbox-" + mode, Kind: handshake.KindSandbox, Path: dst, Source: SourceConfig}
}

func newHost(t *testing.T) *Host {
	h := New(Options{BrokerPath: filepath.Join(plugintest.Dir(t), BrokerName), StartTimeout: 2 * time.Second, CallTimeout: 1 * time.Second, SocketDir: filepath.Join(t.TempDir(), "sock"), UID: os.Getuid(), Env: []string{"PATH=/usr/bin:/bin"}})
	t.Cleanup(h.Close)
	return h
}

func prepareReq(t *testing.T) *sandbox.PrepareRequest {
	dir := t.TempDir()
	return &sandbox.PrepareRequest{
		Command: sandbox.Command{Argv: []string{"true"}, Cwd: dir, Env: []string{"PATH=/usr/bin:/bin"}},
		Policy:  sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, WritableRoots: []string{dir}, Network: sandbox.NetworkOff},
	}
}

func TestHost_startFailures(t *testing.T) {
	tests := []struct {
		mode string
		want string
	}{
		{"garbage", "this is not a go-plugin handshake line"},
		{"hang", "no handshake within"},
		{"crash", "plugin"},
		{"v9", "version"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			entry := badPlugin(t, tt.mode)
			start := time.Now()
			_, err := newHost(t).Sandbox(t.Context(), entry)
			if !errors.Is(err, ErrStart) {
				t.Fatalf("Sandbox(%s) error = %v, want ErrStart", tt.mode, err)
			}
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tt.want)) {
				t.Errorf("Sandbox(%s) error = %q, want it to mention %q", tt.mode, err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("start failure took %v, want it bounded by the 2s deadline", d)
			}
		})
	}
}

func TestHost_callFailures(t *testing.T) {
	tests := []struct {
		mode   string
		wantIs error
	}{
		{"die", sandbox.ErrPluginExited},
		{"stall", context.DeadlineExceeded},
		{"badspec", sandbox.ErrInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			entry := badPlugin(t, tt.mode)
			sb, err := newHost(t).Sandbox(t.Context(), entry)
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			start := time.Now()
			_, err = sb.Prepare(t.Context(), prepareReq(t))
			if !errors.Is(err, tt.wantIs) {
				t.Errorf("Prepare error = %v, want %v", err, tt.wantIs)
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Errorf("Prepare failure took %v, want it bounded by the 1s call deadline", d)
			}
		})
	}
}

func TestHost_passthroughWorks(t *testing.T) {
	sb, err := newHost(t).Sandbox(t.Context(), badPlugin(t, "passthrough"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sb.Prepare(t.Context(), prepareReq(t))
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(res.Spec.Argv[0]) {
		t.Errorf("spec argv %v", res.Spec.Argv)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "airlock-sandbox-x")
	if err := os.WriteFile(good, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("#!/bin/sh\n"))
	pin := hex.EncodeToString(sum[:])
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	writable := filepath.Join(dir, "writable")
	if err := os.WriteFile(writable, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(writable, 0o775); err != nil {
		t.Fatal(err)
	}
	noexec := filepath.Join(dir, "noexec")
	if err := os.WriteFile(noexec, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		e    Entry
		want string // "" means accepted
	}{
		{"good", Entry{Name: "x", Path: good}, ""},
		{"pinned", Entry{Name: "x", Path: good, SHA256: pin}, ""},
		{"wrong pin", Entry{Name: "x", Path: good, SHA256: strings.Repeat("0", 64)}, "pins"},
		{"symlink resolved", Entry{Name: "x", Path: link}, ""},
		{"group writable", Entry{Name: "x", Path: writable}, "writable by group or others"},
		{"not executable", Entry{Name: "x", Path: noexec}, "not executable"},
		{"missing", Entry{Name: "x", Path: filepath.Join(dir, "nope")}, "no such file"},
		{"directory", Entry{Name: "x", Path: dir}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Check(tt.e, os.Getuid())
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check = %v, want accepted", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestCheck_foreignOwner(t *testing.T) {
	plugintest.RequireRoot(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "airlock-sandbox-x")
	if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(Entry{Name: "x", Path: p}, 0); err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
		t.Errorf("Check accepted a binary owned by another user: %v", err)
	}
}

func TestDiscover_precedence(t *testing.T) {
	self, user := t.TempDir(), t.TempDir()
	for _, f := range []string{filepath.Join(self, "airlock-sandbox-linux"), filepath.Join(self, "airlock-assessor"), filepath.Join(self, "airlock-unrelated"), filepath.Join(self, "airlock-sandbox-linux-launcher"),
		filepath.Join(user, "airlock-assessor"), filepath.Join(user, "airlock-assessor-llm")} {
		if err := os.WriteFile(f, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := Discover(self, user, map[string]Configured{"sandbox-linux": {Kind: "sandbox", Path: "/opt/box"}})
	want := map[string]string{
		"assessor":      SourceUser + " " + filepath.Join(user, "airlock-assessor"),
		"assessor-llm":  SourceUser + " " + filepath.Join(user, "airlock-assessor-llm"),
		"sandbox-linux": SourceConfig + " /opt/box",
	}
	if len(got) != len(want) {
		t.Fatalf("Discover = %+v, want %d entries", got, len(want))
	}
	for _, e := range got {
		if want[e.Name] != e.Source+" "+e.Path {
			t.Errorf("entry %s = %s %s, want %s", e.Name, e.Source, e.Path, want[e.Name])
		}
	}
	if _, err := Find(got, handshake.KindSandbox, "assessor"); err == nil {
		t.Error("Find returned an assessor as a sandbox")
	}
	if _, err := Find(got, handshake.KindSandbox, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find(nope) = %v, want ErrNotFound", err)
	}
}
