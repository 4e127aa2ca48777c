package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

func load(t *testing.T) *Set {
	t.Helper()
	s, err := Load([]string{filepath.Join("testdata", "codex.rules")})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// decide returns the strictest rule decision over a line's segments.
func decide(s *Set, line string) Decision {
	var d Decision
	for _, seg := range shellparse.Parse(line, shellparse.Options{Home: "/home/u"}).Segments {
		if r := s.Evaluate(seg); r.Decision > d {
			d = r.Decision
		}
	}
	return d
}

func TestEvaluate(t *testing.T) {
	s := load(t)
	tests := []struct {
		line string
		want Decision
	}{
		{"git status", Allow},
		{"git push origin main", Prompt},
		{"git fetch", Prompt},
		{"git status && git push", Prompt},
		{"/usr/bin/git status", Allow},
		{"/tmp/evil/git status", 0}, // not a vouched-for git: no allow
		{"/tmp/evil/git push", Prompt},
		{"ls && rm -rf ~", Forbidden},
		{"ls; \\rm x", Forbidden},
		{"'r'm x", Forbidden},
		{"rm${IFS}-rf${IFS}/", Forbidden},
		{"sudo rm x", Forbidden},
		{"env A=1 nice rm x", Forbidden},
		{"echo $(rm x)", Forbidden},
		{"bash -c \"sh -c 'rm x'\"", Forbidden},
		{"find . -exec rm {} +", Forbidden},
		{"ls | xargs rm", Forbidden},
		{"echo 'rm -rf /'", 0},
		{"sudo ls", 0}, // allow on "ls" does not cover sudo
		{"gh pr list", Allow},
		{"gh pr merge", 0},
		{"cat x", Allow},
	}
	for _, tt := range tests {
		if got := decide(s, tt.line); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"prefix_rule(pattern = [\"git\"], decision = \"maybe\")", "x.rules:1: decision \"maybe\""},
		{"\n\nprefix_rule(pattern = [\"git\", \"push\"], match = [\"git status\"])", "x.rules:3: match example \"git status\" does not match"},
		{"prefix_rule(pattern = [\"git\"], not_match = [\"git status\"])", "not_match example"},
		{"prefix_rule(pattern = [])", "pattern must not be empty"},
		{"prefix_rule(pattern = [1])", "pattern element 0 is a int"},
		{"prefix_rule(\n", "x.rules:2:"},
		{"load(\"x.star\", \"y\")", "load() is not supported"},
		{"prefix_rule(pattern = [\"a\"], colour = \"red\")", "unexpected keyword argument \"colour\""},
		{"host_executable(name = \"git\", paths = [\"git\"])", "must be absolute"},
	}
	for _, tt := range tests {
		err := (&Set{Hosts: map[string][]string{}}).LoadSource("x.rules", []byte(tt.src))
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want an error containing %q", tt.src, err, tt.want)
		}
	}
}

func TestFilesOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.rules", "a.rules", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(filepath.Join(dir, "missing"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || filepath.Base(got[0]) != "a.rules" || filepath.Base(got[1]) != "b.rules" {
		t.Fatalf("got %v", got)
	}
}
