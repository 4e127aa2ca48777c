package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/airlock-dev/airlock/internal/approval"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// Exit statuses of `airlock judge`, the shell integration's question
// "may this typed line run?". The shell acts on them; anything else
// (airlock missing or crashed) means the line does not run.
const (
	judgeNative     = 0  // run the line as typed, in the shell
	judgeSandbox    = 10 // run it through airlock exec (on mode)
	judgeForbidden  = 20 // a rule forbids it; the reason was printed
	judgeDeclined   = 21 // the user said no at the prompt
	judgeIncomplete = 30 // the line needs more input
	judgeAsk        = 40 // (server only) a question is needed: ask with a one-shot judge
)

// shellModes are the integration's modes.
var shellModes = map[string]bool{"on": true, "guard": true, "off": true}

// shellBuiltins run natively in every mode: they change the shell itself
// (a sandboxed cd changes nothing), and blocking them could lock a user
// out of their shell.
var shellBuiltins = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "dirs": true, "export": true, "unset": true, "set": true,
	"setopt": true, "unsetopt": true, "shopt": true, "alias": true, "unalias": true, "source": true, ".": true,
	"exit": true, "logout": true, "fg": true, "bg": true, "jobs": true, "wait": true, "disown": true,
	"hash": true, "rehash": true, "type": true, "whence": true, "where": true, "which": true, "history": true,
	"fc": true, "bindkey": true, "bind": true, "autoload": true, "emulate": true, "typeset": true,
	"declare": true, "local": true, "readonly": true, "integer": true, "float": true, "print": true,
	"echo": true, "printf": true, "true": true, "false": true, "test": true, "[": true, "read": true,
	"umask": true, "ulimit": true, "limit": true, "unlimit": true, "trap": true, "kill": true,
	"zle": true, "compdef": true, "zstyle": true, "zmodload": true, "airlock": true, "clear": true,
	"let": true, "shift": true, "getopts": true, "return": true, "break": true, "continue": true,
}

// judgeFlags are the flags of `airlock judge`.
type judgeFlags struct {
	shell     string
	mode      string
	aliases   []string
	functions []string
	// noPrompt answers judgeAsk instead of asking (the judge server
	// cannot read the terminal from the background).
	noPrompt bool
}

func parseJudgeArgs(args []string) (judgeFlags, string, error) {
	var f judgeFlags
	fs := pflag.NewFlagSet("judge", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(false)
	fs.StringVar(&f.shell, "shell", "", "zsh | bash")
	fs.StringVar(&f.mode, "mode", "guard", "on | guard | off")
	fs.StringArrayVar(&f.aliases, "alias", nil, "NAME=VALUE of an alias on the line")
	fs.StringArrayVar(&f.functions, "function", nil, "NAME=BODY of a function on the line")
	if err := fs.Parse(args); err != nil {
		return f, "", usagef("judge: %v", err)
	}
	if !shellModes[f.mode] {
		return f, "", usagef("judge: mode %q is not on, guard or off", f.mode)
	}
	if fs.NArg() != 1 {
		return f, "", usagef("judge: give the typed line as one argument")
	}
	return f, fs.Arg(0), nil
}

func runJudge(ctx context.Context, args []string, stdio Stdio, e env) int {
	if len(args) == 2 && args[0] == "--serve" {
		return exitCode(stdio.Err, runJudgeServer(ctx, args[1], e))
	}
	f, line, err := parseJudgeArgs(args)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	if shellparse.Incomplete(line) {
		return judgeIncomplete
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	defer a.close()
	code, err := a.judge(ctx, f, line, stdio)
	if err != nil {
		code = exitCode(stdio.Err, err)
		a.displayed = true
	}
	// The shell redraws its prompt below whatever airlock showed.
	if a.displayed {
		fmt.Fprintln(stdio.Out, "shown")
	}
	return code
}

func definitions(list []string) map[string]string {
	m := map[string]string{}
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

func (a *app) judge(ctx context.Context, f judgeFlags, line string, stdio Stdio) (int, error) {
	started := time.Now()
	o := a.parseOptions()
	o.Aliases, o.Functions = definitions(f.aliases), definitions(f.functions)
	parsed := shellparse.Parse(line, o)
	session := a.sessionID()
	store := approval.NewStore(filepath.Join(a.dirs.Runtime, "sessions"))
	key := []string{line}
	_, remembered := store.Lookup(session, key, a.cwd)
	d, err := a.decide(parsed, decideInput{remembered: remembered, native: f.mode == "guard"})
	if err != nil {
		return 0, err
	}
	rec := a.auditRecord(started, session, key, "shell:"+f.mode, d)
	st := flowState{argv: key, display: parsed.Source, line: parsed, session: session, store: store, rec: rec}
	code := a.judgeDecision(ctx, f, st, d, stdio)
	if code == judgeAsk {
		return code, nil // the one-shot judge that asks records it
	}
	_ = a.appendAudit(rec, started)
	return code, nil
}

func (a *app) judgeDecision(ctx context.Context, f judgeFlags, st flowState, d policy.Decision, stdio Stdio) int {
	parsed, rec := st.line, st.rec
	if f.mode == "off" {
		rec.Action = "recorded"
		return judgeNative
	}
	if d.Verdict == rules.Forbidden || d.Action == policy.Refuse {
		rec.Action = "refuse"
		a.message = "airlock: refused: " + d.Reason
		if d.Verdict == rules.Forbidden {
			a.message = "airlock: forbidden: " + d.Reason
		}
		if !f.noPrompt {
			fmt.Fprintln(stdio.Err, a.message)
			a.displayed = true
		}
		return judgeForbidden
	}
	approved := false
	if d.Verdict == rules.Prompt && d.Action != policy.Run {
		if f.noPrompt {
			return judgeAsk
		}
		ans, _, done := a.askUser(ctx, st, stdio, string(d.Kind), []string{d.Reason}, nil, "")
		if done {
			rec.Action = "declined"
			return judgeDeclined
		}
		a.remember(st, ans, approval.Grant{})
		approved = true
	}
	if f.mode == "guard" || nativeLine(parsed, d) {
		rec.Action, rec.Sandboxed = "run", false
		return judgeNative
	}
	rec.Action, rec.Sandboxed = "sandbox", true
	if approved {
		token, err := a.preapprove(rec.Session, parsed.Source)
		if err != nil {
			a.log.Slog.Warn("pre-approval", "error", err)
		} else {
			fmt.Fprintln(stdio.Out, "token", token)
		}
	}
	return judgeSandbox
}

// nativeLine reports whether, in on mode, a line may run in the shell
// itself: every command is a shell builtin, a function of the user's
// whose body is judged with it, known to be safe, or allowed by a rule.
func nativeLine(l *shellparse.Line, d policy.Decision) bool {
	if len(l.Segments) == 0 {
		return true
	}
	for i, s := range l.Segments {
		sd := d.Segments[i]
		switch {
		case s.Opaque != "" || writesFile(s):
			return false
		case shellBuiltins[s.Name] && len(s.Wrappers) == 0, s.ShellFunction:
		case sd.Rule != nil && sd.Decision == rules.Allow:
		case sd.Heuristic == shellparse.Safe.String():
		default:
			return false
		}
	}
	return true
}

// writesFile reports whether a segment redirects output into a file
// (not a descriptor or /dev/null).
func writesFile(s shellparse.Segment) bool {
	for _, r := range s.Redirects {
		if r.Writes() && r.Target != "/dev/null" {
			return true
		}
	}
	return false
}

// preapprovalDir holds one-shot approvals given at the shell's prompt, for
// the airlock exec that runs the line next.
func (a *app) preapprovalDir() string { return filepath.Join(a.dirs.Runtime, "preapproved") }

// preapprove records that the user approved line in this session and
// returns the token airlock exec --preapproved redeems.
func (a *app) preapprove(session, line string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b[:])
	if err := os.MkdirAll(a.preapprovalDir(), 0o700); err != nil {
		return "", err
	}
	return token, os.WriteFile(filepath.Join(a.preapprovalDir(), token), []byte(session+"\n"+line), 0o600)
}

// redeem consumes a pre-approval token: it counts once, within a minute,
// for the same session.
func (a *app) redeem(token, session string) bool {
	if len(token) != 32 || strings.Trim(token, "0123456789abcdef") != "" {
		return false
	}
	p := filepath.Join(a.preapprovalDir(), token)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) > time.Minute {
		_ = os.Remove(p)
		return false
	}
	b, err := os.ReadFile(p)
	if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return false
	}
	got, _, _ := strings.Cut(string(b), "\n")
	return err == nil && got == session
}
