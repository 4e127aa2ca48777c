package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/approval"
	"github.com/airlock-dev/airlock/internal/audit"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/internal/term"
	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// maxEscalations bounds the ask-and-rerun rounds of one command.
const maxEscalations = 3

// chamber is one command's way through airlock: rules and policy, a
// question when one is needed, the sandboxed attempt, the explained
// denial, an assessment and a question offering the smallest escalation
// first, the rerun, and the audit record.
func (a *app) chamber(ctx context.Context, f *execFlags, argv []string, stdio Stdio) (int, error) {
	started := time.Now()
	pol, err := a.policy(f)
	if err != nil {
		return 0, err
	}
	session := a.sessionID()
	store := approval.NewStore(filepath.Join(a.dirs.Runtime, "sessions"))
	grant, remembered := store.Lookup(session, argv, a.cwd)
	if f.preapproved != "" && a.redeem(f.preapproved, session) {
		remembered = true
	}
	line := shellparse.ParseArgv(argv, a.parseOptions())
	d, err := a.decide(line, decideInput{escalate: f.escalate, remembered: remembered, noOneToAsk: !a.canAsk(stdio), native: pol.Mode == sandbox.ModeDangerFullAccess})
	if err != nil {
		return 0, err
	}
	rec := a.auditRecord(started, session, argv, a.cfg.Approval.Policy, d)
	defer func() {
		if err := a.appendAudit(rec, started); err != nil {
			fmt.Fprintf(stdio.Err, "airlock: could not write the audit log: %v\n", err)
		}
	}()
	code, err := a.flow(ctx, flowState{f: f, display: f.line, argv: argv, line: line, d: d, pol: pol, grant: grant, session: session, store: store, rec: rec}, stdio)
	if err == nil {
		rec.Exit = &code
	}
	return code, err
}

// auditRecord starts the audit record of a decision.
func (a *app) auditRecord(started time.Time, session string, argv []string, policyName string, d policy.Decision) *audit.Record {
	rec := &audit.Record{
		Time: started, Session: session, Cwd: a.cwd, Argv: argv, Policy: policyName,
		Decision: d.Verdict.String(), Action: d.Action.String(), Reason: d.Reason,
	}
	for _, s := range d.Segments {
		as := audit.Segment{Argv: s.Argv, Decision: s.Decision.String(), Reason: s.Reason}
		if s.Rule != nil {
			as.Rule = s.Rule.Pattern + " (" + s.Rule.Source + ")"
		}
		rec.Segments = append(rec.Segments, as)
	}
	return rec
}

// appendAudit finishes a record and appends it to the audit log.
func (a *app) appendAudit(rec *audit.Record, started time.Time) error {
	rec.Duration = float64(time.Since(started).Microseconds()) / 1000
	l, err := audit.Open(a.dirs.State)
	if err != nil {
		return err
	}
	return l.Append(rec)
}

// flowState carries one command through the flow.
type flowState struct {
	f       *execFlags
	display string // the command as the prompt shows it; argv quoted if empty
	argv    []string
	line    *shellparse.Line
	d       policy.Decision
	pol     sandbox.Policy
	grant   approval.Grant
	session string
	store   *approval.Store
	rec     *audit.Record
}

func (a *app) flow(ctx context.Context, st flowState, stdio Stdio) (int, error) {
	d := st.d
	switch d.Action {
	case policy.Refuse:
		st.rec.Prompts = append(st.rec.Prompts, audit.Prompt{Kind: string(d.Kind), Reason: d.Reason, Answer: "refused without asking"})
		return a.refuse(stdio, "refused: "+d.Reason)
	case policy.Ask:
		var escalations []string
		if d.Kind == policy.KindSandbox {
			escalations = []string{"run without the sandbox"}
		}
		why := []string{d.Reason}
		ans, code, done := a.askUser(ctx, st, stdio, string(d.Kind), why, escalations, "")
		if done {
			return code, nil
		}
		if d.Kind == policy.KindSandbox {
			g := approval.Grant{Unsandboxed: true}
			st.grant = st.grant.Merge(g)
			a.remember(st, ans, g)
		} else {
			a.remember(st, ans, approval.Grant{})
		}
	}
	envList := a.env.list
	if d.HardenGit {
		envList = append(slices.Clone(envList), shellparse.HardenedGitEnv(a.env.m)...)
	}
	for round := 0; ; round++ {
		pol := applyGrant(st.pol, st.grant)
		if !d.Sandboxed || st.grant.Unsandboxed || pol.Mode == sandbox.ModeDangerFullAccess {
			st.rec.Sandboxed, st.rec.Grants = false, st.grant.Describe()
			return a.runDirect(ctx, st.argv, envList, stdio)
		}
		st.rec.Sandboxed, st.rec.Grants = true, st.grant.Describe()
		at, err := a.runSandboxed(ctx, pol, st.argv, envList, stdio)
		if errors.Is(err, errSetupFailed) {
			return ExitError, nil
		}
		if err != nil {
			return 0, err
		}
		if len(at.denials) == 0 {
			return at.res.ExitCode, nil
		}
		var blocked []string
		for _, dn := range at.denials {
			blocked = append(blocked, denialText(dn))
			st.rec.Denials = append(st.rec.Denials, denialText(dn))
		}
		for _, b := range blocked {
			fmt.Fprintf(stdio.Err, "airlock: the sandbox blocked %s\n", b)
		}
		approvalPolicy := policy.Approval(a.cfg.Approval.Policy)
		switch {
		case approvalPolicy == policy.OnRequest:
			// Escalation happens only when the caller asks for it.
			return at.res.ExitCode, nil
		case approvalPolicy == policy.Never:
			st.rec.Prompts = append(st.rec.Prompts, audit.Prompt{Kind: string(policy.KindSandbox), Reason: strings.Join(blocked, "; "), Answer: "refused without asking"})
			return a.refuse(stdio, "not escalating: the approval policy is never")
		case slices.Contains(a.cfg.Approval.Reject, string(policy.KindSandbox)):
			st.rec.Prompts = append(st.rec.Prompts, audit.Prompt{Kind: string(policy.KindSandbox), Reason: strings.Join(blocked, "; "), Answer: "refused without asking"})
			return a.refuse(stdio, "not escalating: the approval policy rejects sandbox prompts")
		case round >= maxEscalations:
			return a.refuse(stdio, fmt.Sprintf("still blocked after %d escalations; run it with -s danger-full-access if you trust it", round))
		}
		grants, labels := escalationsFor(at.denials, a.dirs.Home)
		why := make([]string, len(blocked))
		for i, b := range blocked {
			why[i] = "blocked: " + b
		}
		ans, code, done := a.askUser(ctx, st, stdio, string(policy.KindSandbox), why, labels, strings.Join(blocked, "; "))
		if done {
			return code, nil
		}
		g := grants[ans.Escalation]
		st.grant = st.grant.Merge(g)
		a.remember(st, ans, g)
	}
}

// askUser asks, or says why it cannot. When done is true the flow ends
// with code.
func (a *app) askUser(ctx context.Context, st flowState, stdio Stdio, kind string, why, escalations []string, failure string) (approval.Answer, int, bool) {
	prompt := audit.Prompt{Kind: kind, Reason: strings.Join(why, "; "), Offered: escalations}
	defer func() { st.rec.Prompts = append(st.rec.Prompts, prompt) }()
	tty, err := a.promptTTY(stdio)
	if err != nil {
		prompt.Answer = "no terminal"
		code, _ := a.refuse(stdio, "needs approval ("+strings.Join(why, "; ")+") but "+err.Error())
		return approval.Answer{}, code, true
	}
	defer tty.Close()
	a.displayed = true
	as := a.assessForPrompt(ctx, st, failure)
	st.rec.Assessment = as.record
	// "Always allow" cannot outvote a prompt rule (the strictest rule
	// wins), so it is not offered when a rule asked.
	prefix := prefixFor(st.line)
	if kind == string(policy.KindRule) {
		prefix = ""
	}
	q := approval.Question{
		Command:      cmp.Or(st.display, shellparse.Join(st.argv)),
		Why:          why,
		Assessment:   as.shown,
		Escalations:  escalations,
		Prefix:       prefix,
		ProjectRules: a.cfg.ProjectRoot != "",
		Timeout:      a.cfg.Approval.Timeout,
		Color:        a.env.m["NO_COLOR"] == "" && a.env.m["TERM"] != "dumb",
	}
	ans, err := approval.Ask(tty, q)
	if err != nil {
		prompt.Answer = "error: " + err.Error()
		code, _ := a.refuse(stdio, "could not ask: "+err.Error())
		return ans, code, true
	}
	prompt.Answer = ans.Choice.String()
	if ans.Choice == approval.No {
		prompt.Answer = "no (" + ans.How + ")"
		code, _ := a.refuse(stdio, "not approved")
		return ans, code, true
	}
	if ans.Escalation >= 0 {
		prompt.Answer += ": " + escalations[ans.Escalation]
	}
	if ans.Choice == approval.Always || ans.Choice == approval.AlwaysProject {
		prefix := prefixArgv(st.line)
		path, _ := a.rulesFileFor(ans.Choice == approval.AlwaysProject)
		r := &rules.Rule{Pattern: make([][]string, len(prefix)), Decision: rules.Allow}
		for i, t := range prefix {
			r.Pattern[i] = []string{t}
		}
		if _, err := rules.Append(path, r, "approved at a prompt on "+time.Now().Format("2006-01-02")+" for: "+shellparse.Join(st.argv)); err != nil {
			fmt.Fprintf(stdio.Err, "airlock: could not save the rule: %v\n", err)
		} else {
			fmt.Fprintf(stdio.Err, "airlock: added rule: allow %s (%s)\n", r, path)
		}
	}
	return ans, 0, false
}

// remember saves a "yes for this session" answer.
func (a *app) remember(st flowState, ans approval.Answer, g approval.Grant) {
	if ans.Choice != approval.Session {
		return
	}
	e := approval.Entry{Argv: st.argv, Cwd: a.cwd, Grant: g, Time: time.Now()}
	if err := st.store.Remember(st.session, e); err != nil {
		a.log.Slog.Warn("remember approval", "error", err)
	}
}

func (a *app) refuse(stdio Stdio, reason string) (int, error) {
	fmt.Fprintf(stdio.Err, "airlock: %s\n", reason)
	return ExitRefused, nil
}

// canAsk reports whether a question could be put to someone.
func (a *app) canAsk(stdio Stdio) bool {
	tty, err := a.promptTTY(stdio)
	if err != nil {
		return false
	}
	tty.Close()
	return true
}

// promptTTY opens the user's terminal, when there is one to ask on:
// standard input must be a terminal (agents, CI and pipes never get a
// question) and /dev/tty must open.
func (a *app) promptTTY(stdio Stdio) (*os.File, error) {
	if !term.IsTerminal(stdio.In) {
		return nil, errors.New("standard input is not a terminal, so there is no one to ask; allow it with a rule ('airlock rules add') or change the approval policy")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("there is no terminal to ask on (%v)", err)
	}
	return tty, nil
}

// promptAssessment is an assessment as shown and as recorded.
type promptAssessment struct {
	shown  approval.Assessment
	record *audit.Assessment
}

func (a *app) assessForPrompt(ctx context.Context, st flowState, failure string) promptAssessment {
	t0 := time.Now()
	v, err := a.assessRequest(ctx, st.line.Source, st.argv, failure)
	lat := float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return promptAssessment{
			shown:  approval.Assessment{Note: "no assessment (" + oneLine(err.Error()) + ")"},
			record: &audit.Assessment{Status: "failed: " + oneLine(err.Error()), LatencyMS: lat},
		}
	}
	return promptAssessment{
		shown:  approval.Assessment{Level: strings.ToUpper(v.RiskLevel), Description: v.Description, Categories: v.RiskCategories},
		record: &audit.Assessment{Description: v.Description, RiskLevel: v.RiskLevel, Categories: v.RiskCategories, Source: v.Source, Status: assessmentStatus(v.Source), LatencyMS: lat},
	}
}

var sourceStatus = regexp.MustCompile(`status (\w+)`)

// assessmentStatus reads the model call's status out of a verdict's source
// ("model:NAME (status success, 1.2s)", "rules (model NAME: status
// timeout, 5s)"); a plain rules verdict is a success of the rules.
func assessmentStatus(source string) string {
	if m := sourceStatus.FindStringSubmatch(source); m != nil {
		return m[1]
	}
	return "success"
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// applyGrant widens a policy by what was approved.
func applyGrant(p sandbox.Policy, g approval.Grant) sandbox.Policy {
	p.WritableRoots = slices.Clone(p.WritableRoots)
	for _, d := range g.AddDirs {
		if !slices.Contains(p.WritableRoots, d) {
			p.WritableRoots = append(p.WritableRoots, d)
		}
	}
	if g.Network {
		p.Network = sandbox.NetworkOn
	}
	if len(g.AddDirs) > 0 && p.Mode == sandbox.ModeReadOnly {
		p.Mode = sandbox.ModeWorkspaceWrite
	}
	return p
}

// escalationsFor turns denials into grants, smallest first: the blocked
// paths' directories writable, then the network, then no sandbox.
func escalationsFor(denials []sandbox.Denial, home string) ([]approval.Grant, []string) {
	var dirs []string
	network := false
	for _, d := range denials {
		switch d.Kind {
		case sandbox.DenialWrite:
			if d.Path == "" || !filepath.IsAbs(d.Path) {
				continue
			}
			if dir := existingDir(d.Path); dir != "" && !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		case sandbox.DenialNetwork:
			network = true
		}
	}
	var grants []approval.Grant
	var labels []string
	if len(dirs) > 0 {
		grants = append(grants, approval.Grant{AddDirs: dirs})
		shown := make([]string, len(dirs))
		for i, d := range dirs {
			shown[i] = tildePath(d, home)
		}
		labels = append(labels, "let it write in "+strings.Join(shown, ", ")+" (sandbox stays on)")
	}
	if network {
		grants = append(grants, approval.Grant{Network: true})
		labels = append(labels, "turn the network on for it (sandbox stays on)")
	}
	grants = append(grants, approval.Grant{Unsandboxed: true})
	labels = append(labels, "run it without the sandbox")
	return grants, labels
}

// existingDir is p when it is a directory, else its nearest existing
// parent directory.
func existingDir(p string) string {
	for d := filepath.Clean(p); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			if real, err := filepath.EvalSymlinks(d); err == nil {
				return real
			}
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

func tildePath(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}

// noPrefix lists commands "always allow" is never offered for: shells,
// interpreters, privilege and environment wrappers, and destructive tools,
// whose prefix would allow anything.
var noPrefix = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true,
	"python": true, "python2": true, "python3": true, "node": true, "nodejs": true, "deno": true, "bun": true,
	"perl": true, "ruby": true, "php": true, "lua": true, "Rscript": true, "osascript": true, "pwsh": true,
	"sudo": true, "doas": true, "su": true, "env": true, "eval": true, "exec": true, "xargs": true,
	"command": true, "builtin": true, "nohup": true, "timeout": true, "nice": true, "watch": true,
	"rm": true, "dd": true, "shred": true, "mkfs": true, "chmod": true, "chown": true, "mv": true,
	"truncate": true, "kill": true, "pkill": true, "killall": true, "find": true, "ssh": true,
}

// subcommandTools take their first word as part of the prefix.
var subcommandTools = map[string]bool{
	"git": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true, "go": true, "docker": true,
	"podman": true, "kubectl": true, "gh": true, "pip": true, "pip3": true, "apt": true, "apt-get": true,
	"brew": true, "terraform": true, "helm": true, "make": true, "uv": true, "poetry": true, "bundle": true,
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:+-]*$`)

// prefixArgv is the prefix "always allow" would cover, or nil when it is
// not offered: every segment must share it, and it must not be a command
// whose prefix allows anything.
func prefixArgv(line *shellparse.Line) []string {
	var prefix []string
	for _, s := range line.Segments {
		if s.Opaque != "" || s.Dynamic && len(s.Argv) < 2 || s.Privileged || noPrefix[s.Name] || strings.HasPrefix(s.Name, "mkfs") {
			return nil
		}
		if c, _ := shellparse.Classify(s); c == shellparse.Dangerous {
			return nil
		}
		p := []string{s.Argv[0]}
		if subcommandTools[s.Name] && len(s.Argv) > 1 && plainWord.MatchString(s.Argv[1]) {
			p = append(p, s.Argv[1])
		}
		if prefix != nil && !slices.Equal(prefix, p) {
			return nil
		}
		prefix = p
	}
	return prefix
}

func prefixFor(line *shellparse.Line) string {
	p := prefixArgv(line)
	if p == nil {
		return ""
	}
	return shellparse.Join(p) + " …"
}

// validSession accepts 1 to 128 of [A-Za-z0-9._:@-]. (A regexp with a
// counted repetition would cost more at start-up than airlock check.)
func validSession(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._:@-", c) >= 0) {
			return false
		}
	}
	return true
}

// sessionID names this shell session: the id the shell integration
// exports, else the parent process (with its start time, so a reused pid
// is a new session).
func (a *app) sessionID() string {
	if s := a.env.m["AIRLOCK_SESSION"]; validSession(s) {
		return s
	}
	ppid := os.Getppid()
	id := "ppid:" + strconv.Itoa(ppid)
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", ppid)); err == nil {
		// Field 22 is the start time; fields after the command name,
		// which may hold spaces, are counted from its closing paren.
		if i := strings.LastIndexByte(string(b), ')'); i > 0 {
			if f := strings.Fields(string(b[i+1:])); len(f) > 19 {
				id += ":" + f[19]
			}
		}
	}
	return id
}
