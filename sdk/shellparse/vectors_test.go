package shellparse

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// lineClass is the class of a whole line: dangerous if any segment is,
// safe only if every segment is.
func lineClass(l *Line) Safety {
	out := Safe
	if len(l.Segments) == 0 {
		return Unknown
	}
	for _, s := range l.Segments {
		c, _ := Classify(s)
		switch {
		case c == Dangerous:
			return Dangerous
		case c == Unknown:
			out = Unknown
		}
	}
	return out
}

// TestCodexVectors runs Codex's own command-safety vectors. A "safe" row
// must be safe and a "dangerous" row dangerous. A "not_safe" row that
// airlock classifies otherwise is listed in
// testdata/codex_differences.golden, so every difference is deliberate
// and reviewed; docs/rules.md explains them.
func TestCodexVectors(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "codex_command_safety_vectors.tsv")
	f, err := os.Open(path)
	if err != nil {
		if os.Getenv("AIRLOCK_REQUIRE") != "" {
			t.Fatalf("vectors: %v", err)
		}
		t.Skipf("vectors not beside the checkout: %v", err)
	}
	defer f.Close()
	var diffs strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	rows := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 2 || cols[0] == "command" {
			continue
		}
		rows++
		cmd, want := cols[0], cols[1]
		got := lineClass(Parse(cmd, Options{Home: "/home/user"}))
		switch want {
		case "safe":
			if got != Safe {
				t.Errorf("%s: got %v, want safe", cmd, got)
			}
		case "dangerous":
			if got != Dangerous {
				t.Errorf("%s: got %v, want dangerous", cmd, got)
			}
		case "not_safe":
			if got != Unknown {
				fmt.Fprintf(&diffs, "%s\tnot_safe -> %v\n", cmd, got)
			}
		}
	}
	if rows < 100 {
		t.Fatalf("read only %d vectors", rows)
	}
	golden(t, "codex_differences.golden", diffs.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs; run go test -update and review the diff:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}
