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

func TestProtectedPaths_worktreeGitdir(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	ws := filepath.Join(base, "wt")
	real := filepath.Join(base, "repo", ".git", "worktrees", "wt")
	for _, d := range []string{ws, real, filepath.Join(ws, ".airlock")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: ../repo/.git/worktrees/wt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := protectedPaths([]string{ws}, []string{".git", ".airlock", ".missing"})
	want := []string{filepath.Join(ws, ".git"), real, filepath.Join(ws, ".airlock")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("protectedPaths = %v, want %v", got, want)
	}
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
		{"denied read", "cat: /home/u/.ssh/id_rsa: Permission denied\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialRead, Path: "/home/u/.ssh/id_rsa", Operation: "read"}}},
		{"dns", "curl: (6) Could not resolve host: example.com\n", 0,
			[]sandbox.Denial{{Kind: sandbox.DenialNetwork, Host: "example.com", Operation: "connect"}}},
		{"sigsys", "", 31, []sandbox.Denial{{Kind: sandbox.DenialSyscall}}},
		{"nothing", "make: *** [all] Error 2\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := guessDenials(&sandbox.ExplainRequest{Prepared: sandbox.PrepareRequest{Policy: pol}, ExitCode: 1, Signal: tt.signal, OutputTail: []byte(tt.tail)})
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

func TestProtectedPaths_addDirMakesWritable(t *testing.T) {
	ws := t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	git := filepath.Join(ws, ".git")
	if err := os.Mkdir(git, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := protectedPaths([]string{ws}, []string{".git"}); !reflect.DeepEqual(got, []string{git}) {
		t.Errorf("protectedPaths = %v, want [%s]", got, git)
	}
	if got := protectedPaths([]string{ws, git}, []string{".git"}); len(got) != 0 {
		t.Errorf("protectedPaths with --add-dir .git = %v, want nothing protected", got)
	}
}

func TestProtectedPaths_nestedRepositories(t *testing.T) {
	ws := t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	dirs := []string{".git", "vendor/lib/.git", "a/b/c/.git", "node_modules/x/.git", ".git/modules/sub"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := protectedPaths([]string{ws}, []string{".git"})
	want := map[string]bool{filepath.Join(ws, ".git"): true, filepath.Join(ws, "vendor/lib/.git"): true, filepath.Join(ws, "a/b/c/.git"): true}
	if len(got) != len(want) {
		t.Fatalf("protectedPaths = %v, want %v", got, want)
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("unexpected protected path %s", p)
		}
	}
}
