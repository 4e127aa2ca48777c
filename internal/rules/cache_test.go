package rules

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLoadCached(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.rules")
	cache := filepath.Join(dir, "run", "rules-cache.json")
	write := func(body string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(f, mtime, mtime)
	}
	t0 := time.Now().Add(-time.Hour)
	write(`prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt", justification = "remote", match = ["git push"])`, t0)
	first, err := LoadCached([]string{f}, cache)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	second, err := LoadCached([]string{f}, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Rules) != 1 || second.Rules[0].String() != first.Rules[0].String() || second.Rules[0].Decision != Prompt || second.Rules[0].Source != first.Rules[0].Source {
		t.Fatalf("cached rules differ: %+v vs %+v", second.Rules[0], first.Rules[0])
	}
	// A changed file is read again, and a broken one is an error even
	// though a cache exists.
	write(`prefix_rule(pattern = ["rm"], decision = "forbidden")`+"\n"+`prefix_rule(pattern = ["ls"])`, t0.Add(time.Minute))
	third, err := LoadCached([]string{f}, cache)
	if err != nil || len(third.Rules) != 2 || third.Rules[0].Decision != Forbidden {
		t.Fatalf("changed file not reloaded: %+v %v", third, err)
	}
	write(`prefix_rule(`, t0.Add(2*time.Minute))
	if _, err := LoadCached([]string{f}, cache); err == nil {
		t.Fatal("a broken file must be an error, cache or not")
	}
}
