// Package assessoreval measures a risk assessor against a labeled corpus
// in the format of airlock's risk_corpus.tsv: a header row, then
// tab-separated id, command, level, categories, source and note, never
// quoted. It computes the confusion matrix, strict and lenient level
// accuracy (lenient also accepts the note's alt=LEVEL), recall of high,
// the share of low rows rated high, per-category precision and recall on
// medium and high rows, and latency percentiles.
//
// It imports no gRPC, so the airlock host and any assessor's own tests
// can use it.
package assessoreval

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/sdk/assessor"
)

// Row is one labeled command line.
type Row struct {
	ID         string
	Command    string
	Level      assessor.Level
	Categories []assessor.Category
	// Alt is a second defensible level (from "alt=LEVEL" in the note), or
	// 0 when there is none.
	Alt  assessor.Level
	Note string
}

// ReadCorpus reads a corpus. Lines are split on tabs only; a malformed
// line is an error naming its line number.
func ReadCorpus(r io.Reader) ([]Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var rows []Row
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 && strings.HasPrefix(line, "id\t") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 3 {
			return nil, fmt.Errorf("corpus line %d: want at least id, command and level separated by tabs", n)
		}
		lvl, err := assessor.ParseLevel(cols[2])
		if err != nil {
			return nil, fmt.Errorf("corpus line %d: %v", n, err)
		}
		row := Row{ID: cols[0], Command: cols[1], Level: lvl}
		if len(cols) > 3 {
			for _, c := range strings.Split(cols[3], ",") {
				if c = strings.TrimSpace(c); c == "" {
					continue
				}
				cat, err := assessor.ParseCategory(c)
				if err != nil {
					return nil, fmt.Errorf("corpus line %d: %v", n, err)
				}
				row.Categories = append(row.Categories, cat)
			}
		}
		if len(cols) > 5 {
			row.Note = cols[5]
			if i := strings.Index(row.Note, "alt="); i >= 0 {
				word := strings.FieldsFunc(row.Note[i+4:], func(r rune) bool { return r < 'a' || r > 'z' })
				if len(word) > 0 {
					if alt, err := assessor.ParseLevel(word[0]); err == nil {
						row.Alt = alt
					}
				}
			}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// Result is one row's answer.
type Result struct {
	Row     Row
	Verdict *assessor.Verdict
	Err     error
	Latency time.Duration
}

// Report is an evaluation.
type Report struct {
	Results []Result
	// Confusion[expected][predicted], indexed Low=0, Medium=1, High=2.
	Confusion       [3][3]int
	Errors          int
	Strict          float64
	Lenient         float64
	HighRecall      float64
	LowRatedHigh    float64
	CategoryMicroF1 float64
	Categories      []CategoryScore
	Latency         Percentiles
}

// CategoryScore is one category's precision and recall on medium and
// high rows.
type CategoryScore struct {
	Category          assessor.Category
	TP, FP, FN        int
	Precision, Recall float64
}

// Percentiles of the per-command latency.
type Percentiles struct{ P50, P90, P99, Max time.Duration }

// Evaluate runs assess on every row and scores the answers. An error
// counts as a wrong answer.
func Evaluate(rows []Row, assess func(line string) (*assessor.Verdict, error)) *Report {
	rep := &Report{}
	for _, row := range rows {
		t0 := time.Now()
		v, err := assess(row.Command)
		rep.Results = append(rep.Results, Result{Row: row, Verdict: v, Err: err, Latency: time.Since(t0)})
	}
	rep.score()
	return rep
}

func idx(l assessor.Level) int { return int(l - assessor.Low) }

func (rep *Report) score() {
	var strict, lenient, highs, highHit, lows, lowHigh int
	counts := map[assessor.Category]*CategoryScore{}
	for _, c := range assessor.Categories {
		counts[c] = &CategoryScore{Category: c}
	}
	var lat []time.Duration
	for _, r := range rep.Results {
		lat = append(lat, r.Latency)
		exp := r.Row.Level
		if exp == assessor.High {
			highs++
		}
		if exp == assessor.Low {
			lows++
		}
		if r.Err != nil || r.Verdict == nil {
			rep.Errors++
			continue
		}
		got := r.Verdict.Level
		if got >= assessor.Low && got <= assessor.High {
			rep.Confusion[idx(exp)][idx(got)]++
		}
		if got == exp {
			strict++
		}
		if got == exp || (r.Row.Alt != 0 && got == r.Row.Alt) {
			lenient++
		}
		if exp == assessor.High && got == assessor.High {
			highHit++
		}
		if exp == assessor.Low && got == assessor.High {
			lowHigh++
		}
		if exp == assessor.Low {
			continue
		}
		for _, c := range assessor.Categories {
			want, have := slices.Contains(r.Row.Categories, c), slices.Contains(r.Verdict.Categories, c)
			switch {
			case want && have:
				counts[c].TP++
			case have:
				counts[c].FP++
			case want:
				counts[c].FN++
			}
		}
	}
	n := len(rep.Results)
	rep.Strict, rep.Lenient = ratio(strict, n), ratio(lenient, n)
	rep.HighRecall, rep.LowRatedHigh = ratio(highHit, highs), ratio(lowHigh, lows)
	var tp, fp, fn int
	for _, c := range assessor.Categories {
		s := counts[c]
		s.Precision, s.Recall = ratio(s.TP, s.TP+s.FP), ratio(s.TP, s.TP+s.FN)
		tp, fp, fn = tp+s.TP, fp+s.FP, fn+s.FN
		rep.Categories = append(rep.Categories, *s)
	}
	if d := 2*tp + fp + fn; d > 0 {
		rep.CategoryMicroF1 = float64(2*tp) / float64(d)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pick := func(q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(q*float64(len(lat))))]
	}
	if len(lat) > 0 {
		rep.Latency = Percentiles{P50: pick(0.50), P90: pick(0.90), P99: pick(0.99), Max: lat[len(lat)-1]}
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Print writes the report as a table.
func (rep *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "rows %d, errors %d\n\n", len(rep.Results), rep.Errors)
	fmt.Fprintf(w, "confusion (rows: labeled, columns: rated)\n%-8s %7s %7s %7s\n", "", "low", "medium", "high")
	for i, name := range []string{"low", "medium", "high"} {
		c := rep.Confusion[i]
		fmt.Fprintf(w, "%-8s %7d %7d %7d\n", name, c[0], c[1], c[2])
	}
	fmt.Fprintf(w, "\n%-34s %6.3f\n", "level accuracy (strict)", rep.Strict)
	fmt.Fprintf(w, "%-34s %6.3f\n", "level accuracy (lenient, alt=)", rep.Lenient)
	fmt.Fprintf(w, "%-34s %6.3f\n", "recall of high (strict)", rep.HighRecall)
	fmt.Fprintf(w, "%-34s %6.3f\n", "low rows rated high", rep.LowRatedHigh)
	fmt.Fprintf(w, "%-34s %6.3f\n", "categories micro-F1 (medium+high)", rep.CategoryMicroF1)
	fmt.Fprintf(w, "\n%-22s %9s %7s %5s %5s %5s\n", "category", "precision", "recall", "tp", "fp", "fn")
	for _, c := range rep.Categories {
		fmt.Fprintf(w, "%-22s %9.3f %7.3f %5d %5d %5d\n", c.Category, c.Precision, c.Recall, c.TP, c.FP, c.FN)
	}
	l := rep.Latency
	fmt.Fprintf(w, "\nlatency per command: p50 %v, p90 %v, p99 %v, max %v\n", l.P50, l.P90, l.P99, l.Max)
}

// Mismatches lists rows rated at a level neither the label nor its alt
// allows, for looking into.
func (rep *Report) Mismatches() []Result {
	var out []Result
	for _, r := range rep.Results {
		if r.Err != nil || r.Verdict == nil || r.Verdict.Level != r.Row.Level && r.Verdict.Level != r.Row.Alt {
			out = append(out, r)
		}
	}
	return out
}
