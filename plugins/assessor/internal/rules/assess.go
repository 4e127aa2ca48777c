// Package rules is the built-in risk assessor: offline, deterministic and
// fast. It parses the command line with the SDK's shared parser (segments,
// wrappers unwrapped, substitutions, redirections, nested shells), rates
// every command that would actually run by what it does and where (the
// workspace, a temp directory, your home, the system, a remote host), and
// lets the riskiest decide. Printing a dangerous string is not running it;
// wrapping or obfuscating a command does not lower its risk.
package rules

import (
	"context"
	"fmt"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// Assessor is the rules engine.
type Assessor struct{}

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

// ctx is what a rating may depend on besides the segment.
type ctx struct {
	cwd   string
	depth int
	// line is the whole command line, for what only it shows (hosts
	// named in variables, for one).
	line string
}

// maxNesting bounds how deeply interpreter code (python -c, ssh host …)
// is followed.
const maxNesting = 3

// Assess implements [assessor.Assessor].
func (a *Assessor) Assess(c context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	if err := c.Err(); err != nil {
		return nil, err
	}
	line := req.CommandLine
	if line == "" && len(req.Argv) > 0 {
		line = shellparse.Join(req.Argv)
	}
	if strings.TrimSpace(line) == "" {
		return nil, fmt.Errorf("%w: empty command line", assessor.ErrInvalidRequest)
	}
	fs := assessLine(line, ctx{cwd: req.Cwd})
	return verdict(fs), nil
}

func verdict(fs []finding) *assessor.Verdict {
	best := fs[0]
	for _, f := range fs[1:] {
		if f.level > best.level {
			best = f
		}
	}
	v := &assessor.Verdict{Description: best.desc, Level: best.level, Source: "rules"}
	for _, f := range fs {
		for _, c := range f.cats {
			if !slices.Contains(v.Categories, c) {
				v.Categories = append(v.Categories, c)
			}
		}
		v.Evidence = append(v.Evidence, assessor.Evidence{Segment: f.seg, Rule: f.rule, Level: f.level})
	}
	if len(v.Description) > assessor.MaxDescription {
		v.Description = v.Description[:assessor.MaxDescription-1] + "…"
	}
	return v
}

var forkBomb = regexp.MustCompile(`(\S+)\s*\(\)\s*\{\s*(\S+)\s*\|\s*(\S+)\s*&`)

// assessLine rates every segment of a line, then what only the whole line
// shows: fork bombs, downloads that are then run, dumps filtered for
// secrets, endless output cut short.
func assessLine(line string, c ctx) []finding {
	if m := forkBomb.FindStringSubmatch(line); m != nil && m[1] == m[2] && m[2] == m[3] {
		return []finding{{level: high, cats: []assessor.Category{res}, rule: "fork-bomb", desc: "Starts a fork bomb that multiplies processes until the machine stalls.", seg: line}}
	}
	c.line = line
	parsed := shellparse.Parse(line, shellparse.Options{Home: "~", Cwd: c.cwd})
	segs := resolveOpaque(parsed.Segments, line, c)
	defined := definedFunctions(line)
	var out []finding
	for i, s := range segs {
		var f finding
		if defined[s.Name] && s.Context != shellparse.Function {
			f = mk(low, "function-call", "Calls "+s.Name+", a function defined on the same line and rated by its body.")
		} else {
			f = rateSegment(s, c, segs[:i])
		}
		f = lineContext(f, s, segs, i, c)
		f.seg = shellparse.Join(s.Argv)
		out = append(out, f)
	}
	if len(out) == 0 {
		out = append(out, finding{level: assessor.Low, rule: "no-command", desc: "Sets shell variables or runs nothing.", seg: line})
	}
	return out
}

// lineContext adjusts a segment's finding by its neighbours.
func lineContext(f finding, s shellparse.Segment, segs []shellparse.Segment, i int, c ctx) finding {
	next := func() *shellparse.Segment {
		if i+1 < len(segs) && segs[i+1].InputFromPipe {
			return &segs[i+1]
		}
		return nil
	}
	switch {
	case f.rule == "env-dump" || s.Name == "set" && len(s.Argv) == 1:
		if n := next(); n != nil && (n.Name == "grep" || n.Name == "rg") {
			if pat := firstOperand(n.Argv[1:]); secretName(pat) {
				return mk(medium, "grep-secret", "Prints environment variables matching "+pat+", which are secrets.", exf)
			}
			return mk(low, "env-filter", "Prints some environment variables.")
		}
	case f.rule == "endless-output":
		for j := i + 1; j < len(segs) && segs[j].InputFromPipe; j++ {
			if segs[j].Name == "head" {
				return mk(low, "bounded-output", "Prints a bounded amount of generated data.")
			}
		}
	case f.rule == "download" && untrustedHost(fetchHost(s)):
		for _, later := range segs[i+1:] {
			if strings.HasPrefix(later.Argv[0], "./") || later.Name == "chmod" && strings.Contains(strings.Join(later.Argv, " "), "+x") {
				return mk(high, "download-and-run", "Downloads a program from "+fetchHost(s)+", an untrusted host, and runs it.", net, sys)
			}
		}
	}
	if pipeSenders[s.Name] && s.InputFromPipe && i > 0 {
		host := ""
		for _, a := range operands(s.Argv[1:]) {
			if strings.Contains(a, ".") || isIP(a) || a == "localhost" {
				host = strings.TrimPrefix(a, "-")
				break
			}
		}
		if host != "" && !loopback(host) {
			what := "data from the pipeline"
			for j := i - 1; j >= 0; j-- {
				for _, op := range operands(segs[j].Argv[1:]) {
					if secretPath(op) {
						what = op
					}
				}
				if !segs[j].InputFromPipe {
					break
				}
			}
			return raise(f, mk(high, "pipe-out", s.Name+" sends "+what+" to "+host+".", exf, net))
		}
	}
	if shellNames[s.Name] && hasFlag(s.Argv[1:], "-i") {
		if n := next(); n != nil && set("nc", "ncat", "netcat", "socat", "telnet", "openssl", "ssh")[n.Name] {
			return mk(high, "reverse-shell", "Connects an interactive shell to "+n.Name+", a reverse shell.", exf, net)
		}
	}
	if (s.Name == "python" || s.Name == "python3" || s.Name == "perl" || s.Name == "ruby" || s.Name == "node" || s.Name == "php") && s.InputFromPipe && len(operands(s.Argv[1:])) == 0 && i > 0 {
		return raise(f, pipeToShell(segs[:i]))
	}
	return f
}

func fetchHost(s shellparse.Segment) string {
	for _, a := range s.Argv[1:] {
		if h := urlHost(a); h != "" {
			return h
		}
	}
	return ""
}

var funcDef = regexp.MustCompile(`(?:^|[;&|{(\s])(?:function\s+)?([A-Za-z_:][\w:.-]*)\s*\(\)\s*\{`)

// definedFunctions names the functions the line itself defines.
func definedFunctions(line string) map[string]bool {
	m := map[string]bool{}
	for _, x := range funcDef.FindAllStringSubmatch(line, -1) {
		m[x[1]] = true
	}
	return m
}

var (
	literalAssign = regexp.MustCompile(`(?:^|[;&|\s])([A-Za-z_]\w*)=(?:'([^']*)'|"([^"$` + "`" + `]*)"|\$'([^']*)'|([^\s;&|$` + "`" + `'"]*))`)
	echoSubst     = regexp.MustCompile(`\$\((?:echo|printf)\s+'?([\w./-]*)'?\)|` + "`" + `(?:echo|printf)\s+([\w./-]*)` + "`")
)

// resolveOpaque tries to see through simple obfuscation: a command name
// held in a variable assigned a literal earlier on the line, or built
// from echo substitutions. A segment resolved this way is rated by what
// it resolves to; the rest stay opaque.
func resolveOpaque(segs []shellparse.Segment, line string, c ctx) []shellparse.Segment {
	vars := map[string]string{}
	for _, m := range literalAssign.FindAllStringSubmatch(line, -1) {
		v := m[2] + m[3] + m[5]
		if m[4] != "" {
			v = unescapeANSIC(m[4])
		}
		vars[m[1]] = v
	}
	var out []shellparse.Segment
	for _, s := range segs {
		if s.Opaque == "" || c.depth >= maxNesting || !strings.Contains(s.Opaque, "computed at run time") {
			out = append(out, s)
			continue
		}
		text := shellparse.Join(s.Argv)
		if len(s.Argv) > 0 {
			text = strings.Join(s.Argv, " ")
		}
		resolved := echoSubst.ReplaceAllStringFunc(text, func(m string) string {
			sm := echoSubst.FindStringSubmatch(m)
			return sm[1] + sm[2]
		})
		resolved = reVarRef.ReplaceAllStringFunc(resolved, func(m string) string {
			name := strings.Trim(m, "${}")
			if v, ok := vars[name]; ok {
				return v
			}
			return m
		})
		if resolved == text || strings.ContainsAny(resolved, "$`") {
			out = append(out, s)
			continue
		}
		inner := shellparse.Parse(resolved, shellparse.Options{Home: "~", Cwd: c.cwd})
		for _, is := range inner.Segments {
			is.Wrappers = append(append([]string{}, s.Wrappers...), is.Wrappers...)
			is.Privileged = is.Privileged || s.Privileged
			is.InputFromPipe = is.InputFromPipe || s.InputFromPipe
			out = append(out, is)
		}
	}
	return out
}

func unescapeANSIC(s string) string {
	r := strings.NewReplacer(`\x20`, " ", `\t`, "\t", `\n`, "\n", `\'`, "'", `\\`, `\`)
	return r.Replace(s)
}

// rateSegment rates one command, then lets its redirections, wrappers and
// context raise the rating.
func rateSegment(s shellparse.Segment, c ctx, before []shellparse.Segment) finding {
	var f finding
	switch {
	case s.Opaque != "":
		f = opaque(s, before)
	default:
		f = rateCommand(s, c)
	}
	f = raise(f, dataOut(s, c))
	f = raise(f, redirections(s, c))
	if s.Privileged {
		f.cats = addCat(f.cats, assessor.PrivilegeEscalation)
		if privilegedWriters[s.Name] && f.level == medium && (s.Dynamic || len(s.Wrappers) > 0 && anyOutside(s, c)) {
			f = mk(high, "root-write", "Writes files as root ("+s.Name+"), where the target decides what breaks.", priv, sys)
		}
	}
	return f
}

// pipeSenders send their standard input to the host they are given.
var pipeSenders = set("nc", "ncat", "netcat", "socat", "telnet", "cryptcat")

var privilegedWriters = set("tee", "cp", "mv", "dd", "install", "ln", "chown", "chmod", "sed", "truncate")

func anyOutside(s shellparse.Segment, c ctx) bool {
	for _, o := range operands(s.Argv[1:]) {
		if sc := scopeOf(o, c.cwd); sc > scopeTmp {
			return true
		}
	}
	return false
}

func opaque(s shellparse.Segment, before []shellparse.Segment) finding {
	if s.InputFromPipe && len(before) > 0 {
		// Something | sh: the risk is where the code comes from.
		return pipeToShell(before)
	}
	if strings.HasPrefix(s.Opaque, "cannot parse") {
		return mk(low, "syntax-error", "Does not parse as a shell command, so the shell would run nothing.")
	}
	for _, b := range before {
		if b.Context == shellparse.Substitution && (b.Name == "curl" || b.Name == "wget" || b.Name == "base64" || b.Name == "xxd") {
			return mk(high, "eval-download", "Runs code fetched or decoded at run time, unseen.", net, sys)
		}
	}
	return mk(medium, "opaque", "Runs a command only known at run time ("+s.Opaque+"), so its effect cannot be checked.")
}

var devMem = regexp.MustCompile(`^/dev/(k?mem|port)$|^/proc/(kcore|\d+/mem|self/mem)$`)

// dataOut catches data leaving the machine or secrets being read in ways
// that do not depend on the program: a file fed into a network client, a
// computed argument sent to a remote host, raw memory read.
func dataOut(s shellparse.Segment, c ctx) finding {
	for _, a := range s.Argv[1:] {
		if devMem.MatchString(a) {
			return mk(high, "read-memory", "Reads raw memory ("+a+"), where passwords and keys sit.", exf, priv)
		}
	}
	netTool := set("nc", "ncat", "netcat", "socat", "telnet", "finger", "whois", "curl", "wget", "dig", "nslookup", "host", "ping", "scp", "sftp", "ftp", "tftp", "openssl", "ssh")
	if !netTool[s.Name] {
		return finding{}
	}
	for _, r := range s.Redirects {
		if (r.Op == "<" || r.Op == "<>") && (r.FD == "" || r.FD == "0") {
			return mk(high, "send-file", s.Name+" sends the file "+r.Target+" over the network.", exf, net)
		}
	}
	if s.Dynamic && (s.Name == "finger" || s.Name == "whois" || s.Name == "dig" || s.Name == "nslookup" || s.Name == "host" || s.Name == "ping") {
		for _, a := range s.Argv[1:] {
			if strings.Contains(a, "$(") || strings.Contains(a, "`") {
				return mk(high, "covert-channel", s.Name+" carries data computed from local files to a remote host.", exf, net)
			}
		}
	}
	if (s.Name == "scp" || s.Name == "sftp") && untrustedLine(c.line) {
		return mk(high, "upload-untrusted", "Copies files to an untrusted host.", exf, net)
	}
	return finding{}
}

// untrustedLine reports whether the line names an untrusted host
// anywhere, for example in a variable.
func untrustedLine(line string) bool {
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t;&|=@:'\"/", r) }) {
		if strings.Contains(w, ".") && untrustedHost(w) {
			return true
		}
	}
	return false
}

// pipeToShell rates a download or decode piped into a shell.
func pipeToShell(before []shellparse.Segment) finding {
	var fetch *shellparse.Segment
	decoded := ""
	for i := len(before) - 1; i >= 0; i-- {
		b := before[i]
		if b.Name == "curl" || b.Name == "wget" {
			fetch = &before[i]
			break
		}
		if b.Name == "base64" && hasFlag(b.Argv[1:], "-d", "--decode", "-D") {
			for _, r := range b.Redirects {
				if r.Op == "<<<" && !r.Dynamic {
					decoded = r.Target
				}
			}
			if i > 0 && (before[i-1].Name == "echo" || before[i-1].Name == "printf") && !before[i-1].Dynamic && len(before[i-1].Argv) > 1 {
				decoded = before[i-1].Argv[len(before[i-1].Argv)-1]
			}
		}
	}
	if fetch != nil {
		for _, a := range fetch.Argv[1:] {
			if h := urlHost(a); h != "" {
				if trustedInstaller(a) {
					return mk(assessor.Medium, "vendor-installer", "Downloads the official installer from "+h+" and runs it with a shell.", assessor.NetworkAccess, assessor.SystemModification)
				}
				return mk(assessor.High, "pipe-to-shell", "Downloads a script from "+h+" and runs it with a shell, unseen.", assessor.NetworkAccess, assessor.SystemModification)
			}
		}
		return mk(assessor.High, "pipe-to-shell", "Downloads a script and runs it with a shell, unseen.", assessor.NetworkAccess, assessor.SystemModification)
	}
	if decoded != "" {
		if payload := decodeBase64(decoded); payload != "" {
			inner := verdict(assessLine(payload, ctx{}))
			f := mk(inner.Level, "decode-and-run", "Decodes and runs: "+inner.Description, inner.Categories...)
			if f.level < assessor.Medium {
				f.level = assessor.Medium
			}
			return f
		}
	}
	return mk(assessor.High, "pipe-to-shell", "Feeds generated or decoded text into a shell, running code that cannot be seen in advance.", assessor.SystemModification)
}

// raise keeps the stronger of two findings and the categories of both.
func raise(f, g finding) finding {
	if g.level == 0 {
		return f
	}
	if g.level > f.level {
		g.cats = mergeCats(g.cats, f.cats)
		return g
	}
	f.cats = mergeCats(f.cats, g.cats)
	return f
}

func mergeCats(a, b []assessor.Category) []assessor.Category {
	for _, c := range b {
		a = addCat(a, c)
	}
	return a
}

func addCat(list []assessor.Category, c assessor.Category) []assessor.Category {
	if slices.Contains(list, c) {
		return list
	}
	return append(slices.Clone(list), c)
}

func mk(l assessor.Level, rule, desc string, cats ...assessor.Category) finding {
	return finding{level: l, rule: rule, desc: desc, cats: cats}
}

const (
	low    = assessor.Low
	medium = assessor.Medium
	high   = assessor.High

	del  = assessor.DataDeletion
	exf  = assessor.DataExfiltration
	priv = assessor.PrivilegeEscalation
	sys  = assessor.SystemModification
	net  = assessor.NetworkAccess
	res  = assessor.ResourceExhaustion
	comp = assessor.Compliance
)
