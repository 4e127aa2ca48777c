package approval

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files")

func sample() Question {
	return Question{
		Command:     "sh -c 'echo x > ~/outside'",
		Why:         []string{"blocked: write /home/someone/with/a/rather/long/path/that/goes/on/and/on/outside, inferred from output"},
		Assessment:  Assessment{Level: "MEDIUM", Description: "Writes the text x to a file in your home directory, outside the workspace.", Categories: []string{"system_modification"}},
		Escalations: []string{"let it write in ~ (sandbox stays on)", "run it without the sandbox"},
		Prefix:      "echo …",
		Width:       80,
	}
}

func TestRenderGolden(t *testing.T) {
	q := sample()
	plain := Render(q)
	q.Color = true
	colored := Render(q)
	q = sample()
	q.Escalations, q.Prefix = nil, ""
	q.Assessment = Assessment{Note: "no assessment (assessor timed out)"}
	noAssess := Render(q)
	got := plain + "\n---\n" + colored + "\n---\n" + noAssess
	p := filepath.Join("testdata", "prompt.golden")
	if *update {
		os.WriteFile(p, []byte(got), 0o644)
	}
	want, err := os.ReadFile(p)
	if err != nil || string(want) != got {
		t.Fatalf("prompt differs from %s (go test -update):\n%s", p, got)
	}
	for _, l := range strings.Split(plain, "\r\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line wider than 80 columns (%d): %q", n, l)
		}
	}
	if strings.Contains(plain, "\x1b") {
		t.Error("colour without Color")
	}
}

func TestDecode(t *testing.T) {
	q := sample()
	tests := []struct {
		key    byte
		ok     bool
		choice Choice
		esc    int
	}{
		{'y', true, Once, 0}, {'a', true, Session, 0}, {'p', true, Always, 0},
		{'2', true, Once, 1}, {'3', false, 0, 0}, {'n', true, No, -1},
		{0x1b, true, No, -1}, {0x03, true, No, -1}, {'\r', true, No, -1}, {'x', false, 0, 0},
	}
	for _, tt := range tests {
		a, ok := Decode(tt.key, q)
		if ok != tt.ok || ok && (a.Choice != tt.choice || a.Escalation != tt.esc) {
			t.Errorf("key %q: got %+v %v", tt.key, a, ok)
		}
	}
	q.Prefix = ""
	if _, ok := Decode('p', q); ok {
		t.Error("p accepted though no prefix was offered")
	}
}

func TestStore(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "sessions"))
	argv := []string{"sh", "-c", "echo x > ~/outside"}
	if _, ok := s.Lookup("s1", argv, "/w"); ok {
		t.Fatal("empty store matched")
	}
	if err := s.Remember("s1", Entry{Argv: argv, Cwd: "/w", Grant: Grant{AddDirs: []string{"/h"}}}); err != nil {
		t.Fatal(err)
	}
	if g, ok := s.Lookup("s1", argv, "/w"); !ok || len(g.AddDirs) != 1 {
		t.Fatalf("got %+v %v", g, ok)
	}
	for _, miss := range []struct {
		session, cwd string
		argv         []string
	}{{"s2", "/w", argv}, {"s1", "/other", argv}, {"s1", "/w", []string{"sh", "-c", "echo y"}}} {
		if _, ok := s.Lookup(miss.session, miss.argv, miss.cwd); ok {
			t.Errorf("approval leaked to %+v", miss)
		}
	}
	s.Remember("s1", Entry{Prefix: []string{"git", "push"}, Grant: Grant{Network: true}})
	if g, ok := s.Lookup("s1", []string{"git", "push", "origin"}, "/anywhere"); !ok || !g.Network {
		t.Fatalf("prefix approval: %+v %v", g, ok)
	}
}
