package launcher

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestComplement(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"home/u/.ssh", "home/u/src", "home/v", "usr/bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"home/u/.netrc", "home/u/notes", "etc"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(root, p) }
	got := complement([]string{root}, []string{j("home/u/.ssh"), j("home/u/.netrc")})
	want := coverage{
		Dirs:  []string{j("home/u/src"), j("home/v"), j("usr")},
		Files: []string{j("etc"), j("home/u/notes")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("complement =\n%+v\nwant\n%+v", got, want)
	}
	if got := complement([]string{root}, nil); !reflect.DeepEqual(got.Dirs, []string{root}) {
		t.Errorf("complement with nothing denied = %+v, want the root itself", got)
	}
}

func FuzzDecodeConfig(f *testing.F) {
	f.Add(`{"cwd":"/","mode":"read-only","report_fd":-1}`)
	f.Add(`{}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeConfig(s)
		if err != nil {
			return
		}
		c.Argv = nil // travels outside the config
		enc, err := c.Encode()
		if err != nil {
			t.Fatalf("Encode of a decoded config: %v", err)
		}
		again, err := decodeConfig(enc)
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("config does not round-trip: %q -> %q", s, enc)
		}
	})
}

func FuzzParseReport(f *testing.F) {
	f.Add([]byte(`{"event":"exit","code":3}` + "\n"))
	f.Add([]byte("\n\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ev := range ParseReport(b) {
			if ev.Event == "" {
				t.Fatalf("ParseReport kept an event without a name")
			}
		}
	})
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
