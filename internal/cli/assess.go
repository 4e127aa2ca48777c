package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/assessor/assessoreval"
	"github.com/airlock-dev/airlock/sdk/handshake"
)

// assessJSON is the machine-readable form of a verdict.
type assessJSON struct {
	Command        string   `json:"command"`
	Description    string   `json:"description"`
	RiskLevel      string   `json:"risk_level"`
	RiskCategories []string `json:"risk_categories"`
	Source         string   `json:"source"`
	Evidence       []string `json:"evidence,omitempty"`
}

func runAssess(ctx context.Context, args []string, stdio Stdio, e env) int {
	fs := pflag.NewFlagSet("assess", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	batch := fs.Bool("batch", false, "one command line per stdin line, one JSON object per line out")
	evalFile := fs.String("eval", "", "score the assessor on a labeled corpus (TSV: id, command, level, categories, source, note)")
	mismatches := fs.Bool("mismatches", false, "with --eval, also list rows rated outside their label")
	if err := fs.Parse(args); err != nil {
		return exitCode(stdio.Err, usagef("assess: %v", err))
	}
	if *evalFile != "" {
		return exitCode(stdio.Err, runEval(ctx, *evalFile, *mismatches, stdio, e))
	}
	if *batch == (fs.NArg() > 0) {
		return exitCode(stdio.Err, usagef("assess: give one command line, or --batch with lines on stdin"))
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	defer a.close()
	as := &fallbackAssessor{a: a, name: a.cfg.Assessor.Backend}
	one := func(line string) (*assessJSON, error) {
		v, err := as.assess(ctx, &assessor.Request{CommandLine: line, Cwd: a.cwd, Platform: runtime.GOOS,
			Sandbox: assessor.SandboxSummary{Mode: a.cfg.Sandbox.Mode, Network: a.cfg.Sandbox.Network, WritableRoots: []string{a.cwd}}})
		if err != nil {
			return nil, err
		}
		return verdictJSON(line, v), nil
	}
	if !*batch {
		v, err := one(strings.Join(fs.Args(), " "))
		if err != nil {
			return exitCode(stdio.Err, err)
		}
		if *asJSON {
			b, _ := json.Marshal(v)
			fmt.Fprintln(stdio.Out, string(b))
		} else {
			fmt.Fprintf(stdio.Out, "%s risk: %s\n", strings.ToUpper(v.RiskLevel), v.Description)
			if len(v.RiskCategories) > 0 {
				fmt.Fprintf(stdio.Out, "categories: %s\n", strings.Join(v.RiskCategories, ", "))
			}
		}
		return ExitOK
	}
	sc := bufio.NewScanner(stdio.In)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	w := bufio.NewWriter(stdio.Out)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for sc.Scan() {
		v, err := one(sc.Text())
		if err != nil {
			w.Flush()
			return exitCode(stdio.Err, err)
		}
		if err := enc.Encode(v); err != nil {
			return exitCode(stdio.Err, err)
		}
	}
	if err := sc.Err(); err != nil {
		return exitCode(stdio.Err, fmt.Errorf("assess: read stdin: %w", err))
	}
	return ExitOK
}

// builtinAssessor is the plugin name of airlock's own rules assessor.
const builtinAssessor = "assessor"

// fallbackAssessor asks the configured assessor and, when it cannot start,
// fails, times out or answers outside the contract, asks the built-in rules
// instead, recording why in the verdict's source and the log.
type fallbackAssessor struct {
	a        *app
	name     string
	primary  assessor.Assessor
	builtin  assessor.Assessor
	startErr error
	started  bool
	// rulesOnly starts the built-in assessor without its model, for the
	// fallback.
	rulesOnly bool
}

func (f *fallbackAssessor) start(ctx context.Context, name string) (assessor.Assessor, error) {
	entry, err := pluginhost.Find(f.a.entries, handshake.KindAssessor, name)
	if err != nil {
		return nil, err
	}
	if name == builtinAssessor && !f.rulesOnly {
		entry.Env = f.a.modelEnv()
	}
	return f.a.host.Assessor(ctx, entry)
}

// modelEnv is the built-in assessor's model configuration, as environment
// only it receives (the API key included, read from the variable the
// configuration names).
func (a *app) modelEnv() []string {
	m := a.cfg.Assessor.Model
	if m.BaseURL == "" || m.Name == "" {
		return nil
	}
	env := []string{
		"AIRLOCK_ASSESSOR_MODEL_BASE_URL=" + m.BaseURL,
		"AIRLOCK_ASSESSOR_MODEL=" + m.Name,
		"AIRLOCK_ASSESSOR_MODEL_API=" + m.API,
		"AIRLOCK_ASSESSOR_MODEL_TIMEOUT=" + a.cfg.Assessor.Timeout.String(),
		"AIRLOCK_ASSESSOR_MODEL_CACHE=" + filepath.Join(a.dirs.State, "assess-cache"),
	}
	if m.Stream {
		env = append(env, "AIRLOCK_ASSESSOR_MODEL_STREAM=true")
	}
	if k := a.env.m[m.APIKeyEnv]; k != "" {
		env = append(env, "AIRLOCK_ASSESSOR_MODEL_API_KEY="+k)
	}
	return env
}

func (f *fallbackAssessor) assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	if !f.started {
		f.started = true
		f.primary, f.startErr = f.start(ctx, f.name)
	}
	var reason error = f.startErr
	if f.primary != nil {
		cctx, cancel := context.WithTimeout(ctx, f.a.cfg.Assessor.Timeout)
		v, err := f.primary.Assess(cctx, req)
		cancel()
		if err == nil {
			return v, nil
		}
		reason = err
	}
	if f.name == builtinAssessor {
		return nil, reason
	}
	f.a.log.Slog.Warn("assessor failed; using the built-in rules", "plugin", f.name, "error", reason)
	if f.builtin == nil {
		f.rulesOnly = true
		b, err := f.start(ctx, builtinAssessor)
		if err != nil {
			return nil, fmt.Errorf("assessor %s failed (%v) and the built-in rules are unavailable: %w", f.name, reason, err)
		}
		f.builtin = b
	}
	cctx, cancel := context.WithTimeout(ctx, f.a.cfg.Assessor.Timeout)
	defer cancel()
	v, err := f.builtin.Assess(cctx, req)
	if err != nil {
		return nil, err
	}
	v.Source = fmt.Sprintf("%s (fallback: %s failed)", v.Source, f.name)
	return v, nil
}

// runEval scores the configured assessor on a labeled corpus and prints
// the table. Latency includes the plugin round trip.
func runEval(ctx context.Context, file string, mismatches bool, stdio Stdio, e env) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("assess --eval: %w; give the path of a labeled corpus TSV", err)
	}
	defer f.Close()
	rows, err := assessoreval.ReadCorpus(f)
	if err != nil {
		return fmt.Errorf("assess --eval: %s: %w", file, err)
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	as := &fallbackAssessor{a: a, name: a.cfg.Assessor.Backend}
	rep := assessoreval.Evaluate(rows, func(line string) (*assessor.Verdict, error) {
		return as.assess(ctx, &assessor.Request{CommandLine: line, Cwd: a.cwd, Platform: runtime.GOOS,
			Sandbox: assessor.SandboxSummary{Mode: a.cfg.Sandbox.Mode, Network: a.cfg.Sandbox.Network, WritableRoots: []string{a.cwd}}})
	})
	fmt.Fprintf(stdio.Out, "assessor %s on %s (latency includes the plugin round trip)\n", a.cfg.Assessor.Backend, file)
	rep.Print(stdio.Out)
	if mismatches {
		fmt.Fprintln(stdio.Out, "\nrows rated outside their label:")
		for _, m := range rep.Mismatches() {
			got := "error"
			if m.Verdict != nil {
				got = m.Verdict.Level.String()
			}
			fmt.Fprintf(stdio.Out, "%s\t%s\twant %s\tgot %s\n", m.Row.ID, m.Row.Command, m.Row.Level, got)
		}
	}
	return nil
}
