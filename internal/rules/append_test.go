package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestAppendConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules", "default.rules")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &Rule{Pattern: [][]string{{"tool"}, {fmt.Sprint(i % 10)}}, Decision: Allow}
			if _, err := Append(path, r, "added by a test"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s, err := Load([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rules) != 10 {
		t.Fatalf("got %d rules, want 10 (no loss, no duplicates)", len(s.Rules))
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestAppendKeepsBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.rules")
	if err := os.WriteFile(path, []byte("prefix_rule(\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(path, &Rule{Pattern: [][]string{{"ls"}}, Decision: Allow}, ""); err == nil {
		t.Fatal("appending to a broken file should fail")
	}
	if b, _ := os.ReadFile(path); string(b) != "prefix_rule(\n" {
		t.Fatalf("file changed: %q", b)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	r := &Rule{Pattern: [][]string{{"git"}, {"push", "fetch"}, {"it's \"q\"\n"}}, Decision: Prompt, Justification: "why\t"}
	s := &Set{Hosts: map[string][]string{}}
	if err := s.LoadSource("x", []byte(Format(r))); err != nil {
		t.Fatal(err)
	}
	got := s.Rules[0]
	if got.String() != r.String() || got.Decision != r.Decision || got.Justification != r.Justification {
		t.Fatalf("got %+v", got)
	}
}
