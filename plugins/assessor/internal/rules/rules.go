// Package rules is the built-in risk assessor: it parses the command line
// with mvdan.cc/sh, unwraps wrappers such as sudo and env, and rates every
// command that would actually run. Printing a dangerous string is not
// running it; the riskiest segment decides.
package rules

import (
	"context"
	"fmt"
	"path"
	"runtime/debug"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlock-dev/airlock/sdk/assessor"
)

// Assessor is the rules engine.
type Assessor struct{ parser *syntax.Parser }

// New returns the rules assessor.
func New() *Assessor { return &Assessor{} }

var _ assessor.Assessor = (*Assessor)(nil)

// Info implements [assessor.Assessor].
func (a *Assessor) Info(context.Context, *assessor.InfoRequest) (*assessor.Info, error) {
	v := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return &assessor.Info{Name: "rules", Version: v, Capabilities: []string{"offline", "evidence"}, Description: "built-in rules over the parsed command line"}, nil
}

// finding is one rated segment.
type finding struct {
	level assessor.Level
	cats  []assessor.Category
	rule  string
	desc  string
	seg   string
}

// Assess implements [assessor.Assessor].
func (a *Assessor) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	line := req.CommandLine
	if line == "" && len(req.Argv) > 0 {
		parts := make([]string, len(req.Argv))
		for i, s := range req.Argv {
			q, err := syntax.Quote(s, syntax.LangBash)
			if err != nil {
				q = s
			}
			parts[i] = q
		}
		line = strings.Join(parts, " ")
	}
	if strings.TrimSpace(line) == "" {
		return nil, fmt.Errorf("%w: empty command line", assessor.ErrInvalidRequest)
	}
	fs := assess(line, 0)
	best := fs[0]
	for _, f := range fs[1:] {
		if f.level > best.level {
			best = f
		}
	}
	v := &assessor.Verdict{Description: best.desc, Level: best.level, Source: "rules"}
	seen := map[assessor.Category]bool{}
	for _, f := range fs {
		for _, c := range f.cats {
			if !seen[c] {
				seen[c] = true
				v.Categories = append(v.Categories, c)
			}
		}
		v.Evidence = append(v.Evidence, assessor.Evidence{Segment: f.seg, Rule: f.rule, Level: f.level})
	}
	return v, nil
}

const maxDepth = 4

// assess rates every command in line; nested shell strings recurse up to
// maxDepth, beyond which they are opaque and rated high.
func assess(line string, depth int) []finding {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return []finding{{level: assessor.Medium, rule: "unparsable", desc: "Runs a command line that cannot be parsed, so its effect is unknown.", seg: line}}
	}
	var out []finding
	var pipeToShell bool
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				if c, ok := x.Y.Cmd.(*syntax.CallExpr); ok && isShell(firstWord(c)) && len(c.Args) == 1 {
					pipeToShell = true
				}
			}
		case *syntax.CallExpr:
			words := literalArgs(x)
			if len(words) == 0 {
				return true
			}
			out = append(out, rate(words, depth)...)
		}
		return true
	})
	if pipeToShell {
		out = append(out, finding{level: assessor.High, cats: []assessor.Category{assessor.NetworkAccess, assessor.SystemModification},
			rule: "pipe-to-shell", desc: "Pipes downloaded or generated text into a shell, running code that cannot be seen in advance.", seg: line})
	}
	if len(out) == 0 {
		out = append(out, finding{level: assessor.Low, rule: "no-command", desc: "Sets variables or does nothing that runs a program.", seg: line})
	}
	return out
}

func firstWord(c *syntax.CallExpr) string {
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0].Lit())
}

// literalArgs returns the words with quotes removed where they are plain
// text; a word with expansions keeps its source form.
func literalArgs(c *syntax.CallExpr) []string {
	out := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		var sb strings.Builder
		lit := true
		for _, p := range w.Parts {
			switch q := p.(type) {
			case *syntax.Lit:
				sb.WriteString(strings.ReplaceAll(q.Value, `\`, ""))
			case *syntax.SglQuoted:
				sb.WriteString(q.Value)
			case *syntax.DblQuoted:
				for _, dp := range q.Parts {
					if l, ok := dp.(*syntax.Lit); ok {
						sb.WriteString(l.Value)
					} else {
						lit = false
					}
				}
			default:
				lit = false
			}
		}
		s := sb.String()
		if !lit {
			var b strings.Builder
			syntax.NewPrinter().Print(&b, w)
			s = b.String()
		}
		out = append(out, s)
	}
	return out
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		return true
	}
	return false
}

var wrappers = map[string]bool{"sudo": true, "doas": true, "env": true, "nice": true, "nohup": true, "timeout": true,
	"time": true, "command": true, "builtin": true, "exec": true, "xargs": true, "stdbuf": true, "ionice": true}

var readOnly = map[string]bool{"ls": true, "cat": true, "echo": true, "printf": true, "pwd": true, "grep": true, "rg": true,
	"head": true, "tail": true, "wc": true, "less": true, "more": true, "which": true, "whoami": true, "id": true, "date": true,
	"stat": true, "file": true, "du": true, "df": true, "ps": true, "uname": true, "true": true, "false": true, "diff": true,
	"sort": true, "uniq": true, "find": true, "tree": true, "env": true, "printenv": true, "hostname": true, "type": true}

var readOnlyGit = map[string]bool{"status": true, "log": true, "diff": true, "show": true, "branch": true, "remote": true, "rev-parse": true, "blame": true}

func rate(w []string, depth int) []finding {
	seg := strings.Join(w, " ")
	name := path.Base(w[0])
	var extra []assessor.Category
	for wrappers[name] && len(w) > 1 {
		if name == "sudo" || name == "doas" {
			extra = append(extra, assessor.PrivilegeEscalation)
		}
		w = skipWrapperFlags(w[1:])
		if len(w) == 0 {
			break
		}
		name = path.Base(w[0])
	}
	f := rateOne(name, w, depth)
	for i := range f {
		f[i].seg = seg
		f[i].cats = append(f[i].cats, extra...)
		if len(extra) > 0 && f[i].level < assessor.Medium && name != "" {
			f[i].rule += "+sudo"
		}
	}
	return f
}

func skipWrapperFlags(w []string) []string {
	for len(w) > 0 && (strings.HasPrefix(w[0], "-") || strings.Contains(w[0], "=") || isNumber(w[0])) {
		w = w[1:]
	}
	return w
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}

func has(w []string, flags ...string) bool {
	for _, a := range w[1:] {
		for _, f := range flags {
			if a == f || (len(f) == 2 && f[0] == '-' && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], rune(f[1]))) {
				return true
			}
		}
	}
	return false
}

func dangerousTarget(a string) bool {
	switch a {
	case "/", "/*", "~", "~/", "$HOME", "${HOME}", "*", ".", "..", "./*", ".*":
		return true
	}
	return strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "/tmp/")
}

func rateOne(name string, w []string, depth int) []finding {
	one := func(l assessor.Level, rule, desc string, cats ...assessor.Category) []finding {
		return []finding{{level: l, rule: rule, desc: desc, cats: cats}}
	}
	switch {
	case isShell(name) && has(w, "-c") && len(w) >= 3:
		if depth >= maxDepth {
			return one(assessor.High, "nested-shell-depth", "Runs shell code nested too deeply to follow.")
		}
		for i, a := range w {
			if a == "-c" && i+1 < len(w) {
				return assess(w[i+1], depth+1)
			}
		}
	case name == "rm":
		recursive, force := has(w, "-r", "-R", "--recursive"), has(w, "-f", "--force")
		targets := []string{}
		for _, a := range w[1:] {
			if !strings.HasPrefix(a, "-") {
				targets = append(targets, a)
			}
		}
		for _, t := range targets {
			if recursive && dangerousTarget(t) {
				return one(assessor.High, "rm-recursive-outside", fmt.Sprintf("Deletes %s and everything in it.", t), assessor.DataDeletion)
			}
		}
		if recursive && force {
			return one(assessor.Medium, "rm-recursive", fmt.Sprintf("Deletes %s and everything in it.", strings.Join(targets, ", ")), assessor.DataDeletion)
		}
		return one(assessor.Medium, "rm", fmt.Sprintf("Deletes %s.", strings.Join(targets, ", ")), assessor.DataDeletion)
	case name == "dd" && strings.Contains(strings.Join(w, " "), "of=/dev/"):
		return one(assessor.High, "dd-device", "Overwrites a disk device.", assessor.DataDeletion, assessor.SystemModification)
	case strings.HasPrefix(name, "mkfs") || name == "wipefs" || name == "shred":
		return one(assessor.High, "destroy-filesystem", "Destroys the data on a disk or file.", assessor.DataDeletion, assessor.SystemModification)
	case name == "chmod" && (has(w, "-R") && dangerousTarget(w[len(w)-1]) || strings.Contains(strings.Join(w, " "), "+s") || has(w, "4777", "6777")):
		return one(assessor.High, "chmod-system", "Changes permissions on system files or sets a setuid bit.", assessor.PrivilegeEscalation, assessor.SystemModification)
	case name == "git" && len(w) > 1:
		sub := w[1]
		switch {
		case readOnlyGit[sub]:
			return one(assessor.Low, "git-read", "Shows repository information with git.")
		case sub == "push" && has(w, "-f", "--force", "--mirror"):
			return one(assessor.High, "git-force-push", "Force-pushes, overwriting history on the remote.", assessor.DataDeletion, assessor.NetworkAccess)
		case sub == "reset" && has(w, "--hard"), sub == "clean" && has(w, "-f"):
			return one(assessor.High, "git-discard", "Discards uncommitted work in the repository.", assessor.DataDeletion)
		case sub == "push" || sub == "pull" || sub == "fetch" || sub == "clone":
			return one(assessor.Medium, "git-network", "Transfers commits to or from a remote repository.", assessor.NetworkAccess)
		}
		return one(assessor.Medium, "git-change", "Changes the git repository.")
	case name == "curl" || name == "wget":
		if has(w, "-d", "--data", "-F", "--upload-file", "-T", "--post-file") {
			return one(assessor.High, "upload", "Uploads local data to a remote host.", assessor.DataExfiltration, assessor.NetworkAccess)
		}
		return one(assessor.Medium, "download", "Downloads from the network.", assessor.NetworkAccess)
	case name == "nc" || name == "ncat" || name == "socat":
		return one(assessor.High, "raw-socket", "Opens a raw network connection, a common way to move data or a shell off the machine.", assessor.DataExfiltration, assessor.NetworkAccess)
	case name == "shutdown" || name == "reboot" || name == "poweroff" || name == "halt":
		return one(assessor.High, "power", "Shuts down or restarts the machine.", assessor.SystemModification)
	case name == "npm" || name == "pip" || name == "pip3" || name == "cargo" || name == "go" && len(w) > 1 && w[1] == "install":
		return one(assessor.Medium, "package-install", "Installs or builds packages, running their code.", assessor.NetworkAccess)
	case readOnly[name]:
		return one(assessor.Low, "read-only", fmt.Sprintf("Runs %s, which only reads and prints.", name))
	}
	return one(assessor.Medium, "unknown-program", fmt.Sprintf("Runs %s, whose effect is not known to the rules.", name))
}
