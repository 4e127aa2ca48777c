package rules

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/assessor/assessoreval"
)

var showMismatches = flag.Bool("mismatches", false, "print every row rated outside its label")

func corpus(t testing.TB) []assessoreval.Row {
	t.Helper()
	p := filepath.Join("..", "..", "..", "..", "..", "shared", "data", "risk_corpus.tsv")
	f, err := os.Open(p)
	if err != nil {
		if os.Getenv("AIRLOCK_REQUIRE") != "" {
			t.Fatalf("corpus: %v", err)
		}
		t.Skipf("corpus not beside the checkout: %v", err)
	}
	defer f.Close()
	rows, err := assessoreval.ReadCorpus(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func evaluate(t testing.TB) *assessoreval.Report {
	a := New()
	return assessoreval.Evaluate(corpus(t), func(line string) (*assessor.Verdict, error) {
		return a.Assess(context.Background(), &assessor.Request{CommandLine: line, Cwd: "/home/user/project"})
	})
}

// TestCorpusTargets holds the assessor to issue 5's targets on the shared
// corpus. The numbers are printed with -v; -mismatches lists the misses.
func TestCorpusTargets(t *testing.T) {
	rep := evaluate(t)
	var b strings.Builder
	rep.Print(&b)
	t.Log("\n" + b.String())
	if *showMismatches {
		for _, m := range rep.Mismatches() {
			got := "error"
			if m.Verdict != nil {
				got = fmt.Sprintf("%s %v", m.Verdict.Level, m.Verdict.Categories)
			}
			fmt.Printf("%s\t%s\twant %s %v\tgot %s\n", m.Row.ID, m.Row.Command, m.Row.Level, m.Row.Categories, got)
		}
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"recall of high >= 0.95", rep.HighRecall >= 0.95},
		{"low rated high <= 0.02", rep.LowRatedHigh <= 0.02},
		{"strict accuracy >= 0.85", rep.Strict >= 0.85},
		{"lenient accuracy >= 0.93", rep.Lenient >= 0.93},
		{"category micro-F1 >= 0.80", rep.CategoryMicroF1 >= 0.80},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("target missed: %s", c.name)
		}
	}
}

// BenchmarkAssessCorpus times one pass of the rules over every corpus
// row, in process; ns/op divided by the row count is the mean per command.
func BenchmarkAssessCorpus(b *testing.B) {
	rows := corpus(b)
	a := New()
	req := &assessor.Request{Cwd: "/home/user/project"}
	b.ResetTimer()
	for range b.N {
		for _, r := range rows {
			req.CommandLine = r.Command
			if _, err := a.Assess(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/command")
}
