package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// systemRulesDir holds rules every user on the machine gets.
const systemRulesDir = "/etc/airlock/rules"

// ruleFiles lists the rules files in load order: system, user, configured
// paths, then the trusted project's.
func (a *app) ruleFiles() ([]string, error) {
	dirs := []string{systemRulesDir, filepath.Join(a.dirs.Config, "rules")}
	dirs = append(dirs, a.cfg.Rules.Paths...)
	if a.cfg.ProjectRoot != "" {
		dirs = append(dirs, filepath.Join(a.cfg.ProjectRoot, ".airlock", "rules"))
	}
	return rules.Files(dirs...)
}

func (a *app) loadRules() (*rules.Set, error) {
	if a.rules != nil {
		return a.rules, nil
	}
	files, err := a.ruleFiles()
	if err != nil {
		return nil, err
	}
	s, err := rules.LoadCached(files, filepath.Join(a.dirs.Runtime, "rules-cache.json"))
	if err != nil {
		return nil, err
	}
	a.rules = s
	return s, nil
}

// parseOptions are the parser's view of this machine.
func (a *app) parseOptions() shellparse.Options {
	return shellparse.Options{Home: a.dirs.Home, Cwd: a.cwd}
}

// lineFor parses what `check` and `rules check` are given: one argument is
// a shell command line; several are taken both as an argv and as the
// words of a line, and every segment of either counts, so splitting a
// line into arguments (`ls '&&' rm x`) hides nothing.
func (a *app) lineFor(args []string) *shellparse.Line {
	if len(args) == 1 {
		return shellparse.Parse(args[0], a.parseOptions())
	}
	l := shellparse.ParseArgv(args, a.parseOptions())
	joined := shellparse.Parse(strings.Join(args, " "), a.parseOptions())
	seen := map[string]bool{}
	for _, s := range l.Segments {
		seen[segmentKey(s)] = true
	}
	for _, s := range joined.Segments {
		if !seen[segmentKey(s)] {
			seen[segmentKey(s)] = true
			l.Segments = append(l.Segments, s)
		}
	}
	return l
}

func segmentKey(s shellparse.Segment) string {
	return shellparse.Join(s.Argv) + "\x00" + strings.Join(s.Wrappers, "\x00") + "\x00" + string(s.Context) + "\x00" + s.Opaque
}

// decideInput is what a decision needs beyond the line.
type decideInput struct {
	escalate   string
	remembered bool
	noOneToAsk bool
	native     bool
}

// decide runs the rules over every segment and applies the policy.
func (a *app) decide(line *shellparse.Line, in decideInput) (policy.Decision, error) {
	set, err := a.loadRules()
	if err != nil {
		return policy.Decision{}, err
	}
	pin := policy.Input{
		Approval:         policy.Approval(a.cfg.Approval.Policy),
		AllowUnsandboxed: a.cfg.Approval.AllowUnsandboxed,
		Escalate:         in.escalate,
		Remembered:       in.remembered,
		NoOneToAsk:       in.noOneToAsk,
		Native:           in.native,
	}
	for _, k := range a.cfg.Approval.Reject {
		pin.Reject = append(pin.Reject, policy.PromptKind(k))
	}
	for _, s := range line.Segments {
		pin.Segments = append(pin.Segments, policy.Evaluated{Segment: s, Rules: set.Evaluate(s)})
	}
	return policy.Decide(pin), nil
}

// checkJSON is the machine-readable answer of `airlock check`.
type checkJSON struct {
	policy.Decision
	Command    string      `json:"command"`
	Policy     string      `json:"policy"`
	Assessment *assessJSON `json:"assessment,omitempty"`
}

func runCheck(ctx context.Context, args []string, stdio Stdio, e env) int {
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	asJSON := fs.Bool("json", false, "print one JSON object")
	noAssess := fs.Bool("no-assess", false, "skip the risk assessment")
	approval := fs.StringP("ask-for-approval", "a", "", "untrusted | on-failure | on-request | never")
	if err := fs.Parse(args); err != nil {
		return exitCode(stdio.Err, usagef("check: %v", err))
	}
	if fs.NArg() == 0 {
		return exitCode(stdio.Err, usagef("check: no command given (usage: airlock check [--json] -- CMD...)"))
	}
	layer, names := map[string]any{}, map[string]string{}
	if fs.Changed("ask-for-approval") {
		layer["approval.policy"], names["approval.policy"] = *approval, "--ask-for-approval"
	}
	a, err := newApp(e, layer, names)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	defer a.close()
	line := a.lineFor(fs.Args())
	d, err := a.decide(line, decideInput{})
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	out := checkJSON{Decision: d, Command: line.Source, Policy: a.cfg.Approval.Policy}
	if d.Verdict != rules.Allow && !*noAssess {
		out.Assessment = a.assessLine(ctx, line.Source)
	}
	if *asJSON {
		b, _ := json.Marshal(out)
		fmt.Fprintln(stdio.Out, string(b))
		return ExitOK
	}
	printDecision(stdio.Out, d)
	if v := out.Assessment; v != nil {
		fmt.Fprintf(stdio.Out, "risk: %s — %s", strings.ToUpper(v.RiskLevel), v.Description)
		if len(v.RiskCategories) > 0 {
			fmt.Fprintf(stdio.Out, " [%s]", strings.Join(v.RiskCategories, ", "))
		}
		fmt.Fprintln(stdio.Out)
	}
	return ExitOK
}

func printDecision(w io.Writer, d policy.Decision) {
	where := "in the sandbox"
	if !d.Sandboxed {
		where = "outside the sandbox"
	}
	fmt.Fprintf(w, "decision: %s (%s, %s)\nreason: %s\n", d.Verdict, d.Action, where, d.Reason)
	for _, s := range d.Segments {
		via := ""
		if len(s.Wrappers) > 0 {
			via = "  via " + strings.Join(s.Wrappers, ", ")
		}
		fmt.Fprintf(w, "  %-9s %s%s\n            %s\n", s.Decision, shellparse.Join(s.Argv), via, s.Reason)
	}
}

// assessLine asks the assessor (with the built-in fallback) about a line;
// nil when no assessment could be had, which is logged.
func (a *app) assessLine(ctx context.Context, line string) *assessJSON {
	v, err := a.assessRequest(ctx, line, nil, "")
	if err != nil {
		a.log.Slog.Warn("assessment failed", "error", err)
		return nil
	}
	return v
}

// assessRequest asks the configured assessor, falling back to the
// built-in rules, within the assessor deadline.
func (a *app) assessRequest(ctx context.Context, line string, argv []string, failure string) (*assessJSON, error) {
	as := &fallbackAssessor{a: a, name: a.cfg.Assessor.Backend}
	v, err := as.assess(ctx, &assessor.Request{Argv: argv, CommandLine: line, Cwd: a.cwd, Platform: runtime.GOOS, FailureMessage: failure,
		Sandbox: assessor.SandboxSummary{Mode: a.cfg.Sandbox.Mode, Network: a.cfg.Sandbox.Network, WritableRoots: []string{a.cwd}}})
	if err != nil {
		return nil, err
	}
	return verdictJSON(line, v), nil
}

func verdictJSON(line string, v *assessor.Verdict) *assessJSON {
	out := &assessJSON{Command: line, Description: v.Description, RiskLevel: v.Level.String(), RiskCategories: []string{}, Source: v.Source}
	for _, c := range v.Categories {
		out.RiskCategories = append(out.RiskCategories, string(c))
	}
	for _, ev := range v.Evidence {
		out.Evidence = append(out.Evidence, fmt.Sprintf("%s: %s (%s)", ev.Segment, ev.Rule, ev.Level))
	}
	return out
}

func runRules(ctx context.Context, args []string, stdio Stdio, e env) int {
	if len(args) == 0 {
		return exitCode(stdio.Err, usagef("rules: usage: airlock rules check|list|add ..."))
	}
	switch args[0] {
	case "check":
		return runRulesCheck(args[1:], stdio, e)
	case "list":
		return exitCode(stdio.Err, runRulesList(args[1:], stdio, e))
	case "add":
		return exitCode(stdio.Err, runRulesAdd(args[1:], stdio, e))
	}
	return exitCode(stdio.Err, usagef("rules: unknown subcommand %q (want check, list or add)", args[0]))
}

// rulesCheckJSON is the answer of `airlock rules check --json`: the rules
// alone, without policy or assessment.
type rulesCheckJSON struct {
	Command  string             `json:"command"`
	Decision string             `json:"decision"`
	Reason   string             `json:"reason"`
	Segments []rulesSegmentJSON `json:"segments"`
}

type rulesSegmentJSON struct {
	Argv     []string          `json:"argv"`
	Wrappers []string          `json:"wrappers,omitempty"`
	Rule     *policy.RuleRef   `json:"rule"`
	Matched  []*policy.RuleRef `json:"matched"`
	Decision string            `json:"decision"`
	Opaque   string            `json:"opaque,omitempty"`
}

func ruleRef(r *rules.Rule) *policy.RuleRef {
	return &policy.RuleRef{Pattern: r.String(), Decision: r.Decision.String(), Justification: r.Justification, Source: r.Source}
}

func runRulesCheck(args []string, stdio Stdio, e env) int {
	fs := pflag.NewFlagSet("rules check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.Parse(args); err != nil {
		return exitCode(stdio.Err, usagef("rules check: %v", err))
	}
	if fs.NArg() == 0 {
		return exitCode(stdio.Err, usagef("rules check: no command given (usage: airlock rules check [--json] -- CMD...)"))
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	defer a.close()
	set, err := a.loadRules()
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	line := a.lineFor(fs.Args())
	out := rulesCheckJSON{Command: line.Source, Decision: "none", Reason: "no rule matched", Segments: []rulesSegmentJSON{}}
	var strictest rules.Decision
	for _, s := range line.Segments {
		res := set.Evaluate(s)
		sj := rulesSegmentJSON{Argv: s.Argv, Wrappers: s.Wrappers, Decision: res.Decision.String(), Opaque: s.Opaque, Matched: []*policy.RuleRef{}}
		if res.Rule != nil {
			sj.Rule = ruleRef(res.Rule)
		}
		for _, m := range res.Matches {
			sj.Matched = append(sj.Matched, ruleRef(m.Rule))
		}
		if res.Decision > strictest {
			strictest = res.Decision
			out.Decision = res.Decision.String()
			out.Reason = "rule " + res.Rule.String() + " (" + res.Rule.Source + ") on " + shellparse.Join(s.Argv)
			if res.Rule.Justification != "" {
				out.Reason += ": " + res.Rule.Justification
			}
		}
		out.Segments = append(out.Segments, sj)
	}
	if *asJSON {
		b, _ := json.Marshal(out)
		fmt.Fprintln(stdio.Out, string(b))
		return ExitOK
	}
	fmt.Fprintf(stdio.Out, "decision: %s\nreason: %s\n", out.Decision, out.Reason)
	for _, s := range out.Segments {
		rule := "no rule"
		if s.Rule != nil {
			rule = s.Rule.Pattern + " (" + s.Rule.Source + ")"
		}
		if s.Opaque != "" {
			rule += "; opaque: " + s.Opaque
		}
		fmt.Fprintf(stdio.Out, "  %-9s %s\n            %s\n", s.Decision, shellparse.Join(s.Argv), rule)
	}
	return ExitOK
}

func runRulesList(args []string, stdio Stdio, e env) error {
	if len(args) > 0 {
		return usagef("rules list: takes no arguments")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	set, err := a.loadRules()
	if err != nil {
		return err
	}
	if len(set.Files) == 0 {
		fmt.Fprintf(stdio.Out, "no rules files (add one with 'airlock rules add', or put *.rules in %s)\n", filepath.Join(a.dirs.Config, "rules"))
		return nil
	}
	for _, r := range set.Rules {
		just := ""
		if r.Justification != "" {
			just = "  # " + r.Justification
		}
		fmt.Fprintf(stdio.Out, "%-9s %s  (%s)%s\n", r.Decision, r.String(), r.Source, just)
	}
	return nil
}

func runRulesAdd(args []string, stdio Stdio, e env) error {
	fs := pflag.NewFlagSet("rules add", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	project := fs.Bool("project", false, "add to the project's .airlock/rules/ instead of your own rules")
	decision := fs.String("decision", "allow", "allow | prompt | forbidden")
	justification := fs.String("justification", "", "why the rule exists")
	if err := fs.Parse(args); err != nil {
		return usagef("rules add: %v", err)
	}
	if fs.NArg() == 0 {
		return usagef("rules add: no prefix given (usage: airlock rules add [--project] [--decision D] -- PREFIX...)")
	}
	d, err := rules.ParseDecision(*decision)
	if err != nil {
		return usagef("rules add: %v", err)
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	path, err := a.rulesFileFor(*project)
	if err != nil {
		return err
	}
	r := &rules.Rule{Decision: d, Justification: *justification}
	for _, tok := range fs.Args() {
		r.Pattern = append(r.Pattern, []string{tok})
	}
	wrote, err := rules.Append(path, r, "added with 'airlock rules add'")
	if err != nil {
		return err
	}
	if !wrote {
		fmt.Fprintf(stdio.Out, "already there: %s %s in %s\n", d, r, path)
		return nil
	}
	fmt.Fprintf(stdio.Out, "added: %s %s to %s\n", d, r, path)
	if *project && a.cfg.ProjectRoot == "" {
		fmt.Fprintf(stdio.Out, "note: project rules load only in trusted projects; add %s to trusted_projects in %s\n", filepath.Dir(filepath.Dir(filepath.Dir(path))), filepath.Join(a.dirs.Config, "config.toml"))
	}
	return nil
}

// projectRoot is the nearest directory at or above dir holding .airlock or
// .git, else dir.
func projectRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, marker := range []string{".airlock", ".git"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// rulesFileFor is the file new rules go to: the user's default.rules, or
// the project's when asked (the trusted project, else the git top level or
// the working directory).
func (a *app) rulesFileFor(project bool) (string, error) {
	if !project {
		return filepath.Join(a.dirs.Config, "rules", "default.rules"), nil
	}
	root := a.cfg.ProjectRoot
	if root == "" {
		root = projectRoot(a.cwd)
	}
	return filepath.Join(root, ".airlock", "rules", "default.rules"), nil
}

// lineForTest parses a line as the shell would, for tests.
func (a *app) lineForTest(line string) *shellparse.Line {
	return shellparse.Parse(line, a.parseOptions())
}
