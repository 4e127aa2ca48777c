package shellparse

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds how deeply shell strings (sh -c, eval, trap, watch) are
// parsed inside one another. Deeper nesting is opaque.
const MaxDepth = 4

// Context says where a segment sits on the line.
type Context string

// Contexts of a segment.
const (
	// Top is a command at the top level of the line or of a shell string.
	Top Context = ""
	// Substitution is inside $(…) or backticks.
	Substitution Context = "substitution"
	// ProcessSubstitution is inside <(…) or >(…).
	ProcessSubstitution Context = "process-substitution"
	// FindExec is the command find runs for -exec, -execdir, -ok, -okdir.
	FindExec Context = "find-exec"
	// Xargs is the command xargs runs with arguments read from input.
	Xargs Context = "xargs"
	// Trap is a command a trap would run.
	Trap Context = "trap"
	// Function is a command inside a function definition.
	Function Context = "function"
)

// Redirect is one redirection of a segment.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "2>&1", "<<", "<<<", …
	Op string
	// FD is the descriptor number written before the operator, or "".
	FD string
	// Target is the file, descriptor or here-string, expanded when static.
	Target string
	// Dynamic is true when Target depends on run-time expansion.
	Dynamic bool
}

// Writes reports whether the redirection writes to a file (not a
// descriptor duplication).
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	}
	return false
}

// Segment is one command that would run.
type Segment struct {
	// Argv is the command and its arguments as the shell would pass them.
	// Words that depend on run-time expansion appear as written.
	Argv []string
	// Name is the command name without a directory ("/bin/rm" → "rm").
	Name string
	// Wrappers lists the commands this one runs under, outermost first,
	// each as its name (for example "sudo", "env", "bash -c").
	Wrappers []string
	// Forms holds the command as each enclosing wrapper or shell sees it,
	// outermost first; the last one is Argv. Rules that make a decision
	// stricter may match any form.
	Forms [][]string
	// Redirects lists the redirections that apply to the command.
	Redirects []Redirect
	// Context says where the segment sits.
	Context Context
	// Depth counts the shell strings the segment is nested in.
	Depth int
	// Dynamic is true when some argument depends on run-time expansion.
	Dynamic bool
	// InputFromPipe is true when standard input comes from a pipeline.
	InputFromPipe bool
	// ArgsFromInput is true when more arguments arrive at run time
	// (xargs).
	ArgsFromInput bool
	// Privileged is true under sudo, doas, su, pkexec or run0.
	Privileged bool
	// Opaque, when not empty, says why what runs cannot be known.
	Opaque string
	// ShellFunction is set when the command is a shell function of the
	// user's (Options.Functions); its body follows as segments.
	ShellFunction bool
}

// Line is a parsed command line.
type Line struct {
	// Source is the text that was parsed.
	Source string
	// Segments are the commands that would run, in source order.
	Segments []Segment
}

// Opaque returns the reasons parts of the line cannot be understood.
func (l *Line) Opaque() []string {
	var out []string
	for _, s := range l.Segments {
		if s.Opaque != "" {
			out = append(out, s.Opaque)
		}
	}
	return out
}

// Options adjust parsing.
type Options struct {
	// Home expands "~" and $HOME when set.
	Home string
	// Cwd expands $PWD when set.
	Cwd string
	// Aliases maps the shell's alias names to their values; a command
	// word that names one is judged by what it expands to.
	Aliases map[string]string
	// Functions maps the shell's function names to their bodies; a call
	// is judged by the body, which becomes segments of its own.
	Functions map[string]string
}

// Parse parses a command line in bash syntax. It never fails: input that
// does not parse becomes a single opaque segment.
func Parse(src string, o Options) *Line {
	l := &Line{Source: src}
	w := newWalker(o, l)
	w.parseString(src, frame{})
	return l
}

// ParseArgv treats argv as one command that is executed directly (as by
// execve), unwrapping it like any other command.
func ParseArgv(argv []string, o Options) *Line {
	l := &Line{Source: Join(argv)}
	if len(argv) == 0 {
		return l
	}
	w := newWalker(o, l)
	dyn := make([]bool, len(argv))
	w.command(argv, dyn, nil, frame{})
	return l
}

// frame carries what the enclosing syntax says about a command.
type frame struct {
	ctx       Context
	depth     int
	piped     bool
	wrappers  []string
	expanded  []string // aliases being expanded, never expanded again
	forms     [][]string
	priv      bool
	redirects []Redirect
}

type walker struct {
	o    Options
	l    *Line
	cfg  *expand.Config
	prnt *syntax.Printer
}

func newWalker(o Options, l *Line) *walker {
	pairs := []string{"IFS= \t\n"}
	if o.Home != "" {
		pairs = append(pairs, "HOME="+o.Home)
	}
	if o.Cwd != "" {
		pairs = append(pairs, "PWD="+o.Cwd)
	}
	return &walker{o: o, l: l, cfg: &expand.Config{Env: expand.ListEnviron(pairs...)}, prnt: syntax.NewPrinter()}
}

// known reports whether a variable has a value the walker can use.
func (w *walker) known(name string) bool {
	switch name {
	case "IFS":
		return true
	case "HOME":
		return w.o.Home != ""
	case "PWD":
		return w.o.Cwd != ""
	}
	return false
}

func (w *walker) opaque(src, why string, f frame) {
	w.l.Segments = append(w.l.Segments, Segment{
		Argv: []string{src}, Name: src, Wrappers: f.wrappers, Context: f.ctx, Depth: f.depth,
		InputFromPipe: f.piped, Privileged: f.priv, Dynamic: true, Opaque: why,
	})
}

// parseString parses shell source at the given nesting.
func (w *walker) parseString(src string, f frame) {
	if f.depth > MaxDepth {
		w.opaque(src, "shell strings nested too deeply", f)
		return
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.opaque(src, "cannot parse: "+err.Error(), f)
		return
	}
	w.stmts(file.Stmts, f)
}

func (w *walker) stmts(list []*syntax.Stmt, f frame) {
	for _, s := range list {
		w.stmt(s, f)
	}
}

func (w *walker) stmt(s *syntax.Stmt, f frame) {
	if s == nil {
		return
	}
	inner := f
	if len(s.Redirs) > 0 {
		inner.redirects = append(append([]Redirect{}, f.redirects...), w.redirects(s.Redirs, f)...)
	}
	w.cmd(s.Cmd, inner)
}

func (w *walker) redirects(rs []*syntax.Redirect, f frame) []Redirect {
	out := make([]Redirect, 0, len(rs))
	for _, r := range rs {
		red := Redirect{Op: r.Op.String()}
		if r.N != nil {
			red.FD = r.N.Value
		}
		word := r.Word
		if r.Hdoc != nil {
			word = r.Hdoc
		}
		if word != nil {
			w.substitutions(word, f)
			if r.Hdoc != nil {
				// A here-document body is not field-split.
				red.Target, red.Dynamic = w.document(word)
			} else if fields, dyn := w.word(word); len(fields) > 0 {
				red.Target, red.Dynamic = strings.Join(fields, " "), dyn
			}
		}
		out = append(out, red)
	}
	return out
}

func (w *walker) cmd(c syntax.Command, f frame) {
	switch c := c.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c, f)
	case *syntax.BinaryCmd:
		left, right := f, f
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			right.piped = true
		}
		w.stmt(c.X, left)
		w.stmt(c.Y, right)
	case *syntax.Subshell:
		w.stmts(c.Stmts, f)
	case *syntax.Block:
		w.stmts(c.Stmts, f)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, f)
			w.stmts(ic.Then, f)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, f)
		w.stmts(c.Do, f)
	case *syntax.ForClause:
		w.substitutions(c.Loop, f)
		w.stmts(c.Do, f)
	case *syntax.CaseClause:
		w.substitutions(c.Word, f)
		for _, item := range c.Items {
			w.stmts(item.Stmts, f)
		}
	case *syntax.FuncDecl:
		inner := f
		inner.ctx = Function
		w.stmt(c.Body, inner)
	case *syntax.TimeClause:
		inner := f
		inner.wrappers = appendCopy(f.wrappers, "time")
		w.stmt(c.Stmt, inner)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, f)
	case *syntax.DeclClause:
		argv, dyn := []string{c.Variant.Value}, []bool{false}
		for _, a := range c.Args {
			w.substitutions(a, f)
			s, d := w.assign(a)
			argv, dyn = append(argv, s), append(dyn, d)
		}
		w.emit(argv, dyn, f)
	default:
		// Arithmetic, [[ ]], let and the rest run no command of their
		// own, but may hold substitutions that do.
		w.substitutions(c, f)
	}
}

// assign renders an assignment or a declaration argument.
func (w *walker) assign(a *syntax.Assign) (string, bool) {
	var buf bytes.Buffer
	_ = w.prnt.Print(&buf, a)
	dyn := false
	syntax.Walk(a, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp:
			dyn = true
		}
		return !dyn
	})
	return buf.String(), dyn
}

func (w *walker) call(c *syntax.CallExpr, f frame) {
	for _, a := range c.Assigns {
		w.substitutions(a, f)
	}
	if len(c.Args) == 0 {
		return
	}
	var argv []string
	var dyn []bool
	for _, word := range c.Args {
		w.substitutions(word, f)
		fields, d := w.word(word)
		for _, s := range fields {
			argv, dyn = append(argv, s), append(dyn, d)
		}
	}
	if len(argv) == 0 {
		// Every word expanded to nothing, for example "$EMPTY".
		w.opaque(w.print(c), "the command is computed at run time", f)
		return
	}
	w.command(argv, dyn, c, f)
}

// substitutions finds the command and process substitutions in node and
// walks the commands they run.
func (w *walker) substitutions(node syntax.Node, f frame) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			inner := f
			inner.ctx, inner.piped, inner.redirects = Substitution, false, nil
			w.stmts(n.Stmts, inner)
			return false
		case *syntax.ProcSubst:
			inner := f
			inner.ctx, inner.piped, inner.redirects = ProcessSubstitution, false, nil
			w.stmts(n.Stmts, inner)
			return false
		}
		return true
	})
}

// word expands a word to its fields when that can be done before run
// time; otherwise it returns the word as written and dynamic = true.
func (w *walker) word(word *syntax.Word) ([]string, bool) {
	if w.isDynamic(word) {
		return []string{w.print(word)}, true
	}
	fields, err := expand.Fields(w.cfg, word)
	if err != nil {
		return []string{w.print(word)}, true
	}
	return fields, false
}

// document expands a here-document body without field splitting.
func (w *walker) document(word *syntax.Word) (string, bool) {
	if w.isDynamic(word) {
		return w.print(word), true
	}
	s, err := expand.Document(w.cfg, word)
	if err != nil {
		return w.print(word), true
	}
	return s, false
}

func (w *walker) isDynamic(node syntax.Node) bool {
	dyn := false
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			dyn = true
		case *syntax.ParamExp:
			if n.Excl || n.Length || n.Width || n.Index != nil || n.Slice != nil || n.Repl != nil || n.Exp != nil || !w.known(n.Param.Value) {
				dyn = true
			}
		}
		return !dyn
	})
	return dyn
}

func (w *walker) print(n syntax.Node) string {
	var buf bytes.Buffer
	if err := w.prnt.Print(&buf, n); err != nil {
		return "?"
	}
	return buf.String()
}

// command handles one simple command: it unwraps wrappers and emits the
// segment(s) that really run.
func (w *walker) command(argv []string, dyn []bool, c *syntax.CallExpr, f frame) {
	for len(argv) > 0 {
		if dyn[0] {
			w.emitOpaque(argv, dyn, f, "the command name is computed at run time")
			return
		}
		f.forms = appendForm(f.forms, argv)
		name := path.Base(argv[0])
		if strings.HasPrefix(argv[0], "\\") {
			name = strings.TrimPrefix(name, "\\")
		}
		rest, rdyn := argv[1:], dyn[1:]
		if c != nil && w.alias(argv, rdyn, f) {
			return
		}
		if body, ok := w.o.Functions[argv[0]]; ok && c != nil {
			seg := w.segment(argv, dyn, f)
			seg.ShellFunction = true
			w.l.Segments = append(w.l.Segments, seg)
			inner := f
			inner.ctx, inner.depth = Function, f.depth+1
			inner.wrappers = appendCopy(f.wrappers, "function "+argv[0])
			if !slices.Contains(f.expanded, "()"+argv[0]) {
				inner.expanded = appendCopy(f.expanded, "()"+argv[0])
				w.parseString(body, inner)
			}
			return
		}
		switch {
		case shells[name]:
			w.shell(name, argv, dyn, c, f)
			return
		case name == "eval":
			if anyTrue(rdyn) {
				w.emitOpaque(argv, dyn, f, "eval of a value computed at run time")
				return
			}
			inner := f
			inner.depth++
			inner.wrappers = appendCopy(f.wrappers, "eval")
			w.parseString(strings.Join(rest, " "), inner)
			return
		case name == "trap":
			w.trap(argv, dyn, f)
			return
		case name == "watch":
			i := skipOptions(rest, watchOpts)
			if i >= len(rest) {
				w.emit(argv, dyn, f)
				return
			}
			if anyTrue(rdyn[i:]) {
				w.emitOpaque(argv, dyn, f, "watch runs a command computed at run time")
				return
			}
			inner := f
			inner.depth++
			inner.wrappers = appendCopy(f.wrappers, "watch")
			w.parseString(strings.Join(rest[i:], " "), inner)
			return
		case name == "find":
			w.find(argv, dyn, f)
			return
		case name == "parallel":
			w.parallel(argv, dyn, f)
			return
		case name == "xargs":
			i := skipOptions(rest, xargsOpts)
			w.emit(argv[:1+i], dyn[:1+i], f) // xargs itself reads input
			if i >= len(rest) {
				return
			}
			inner := f
			inner.ctx = Xargs
			inner.wrappers = appendCopy(f.wrappers, "xargs")
			w.emitWith(rest[i:], rdyn[i:], inner, func(s *Segment) { s.ArgsFromInput = true })
			return
		case name == "env":
			i, split := envSkip(rest)
			if split >= 0 {
				// env -S STRING splits STRING into the command.
				if rdyn[split] {
					w.emitOpaque(argv, dyn, f, "env -S runs a command computed at run time")
					return
				}
				inner := f
				inner.depth++
				// The split words may start with assignments, so they go
				// through env again.
				words := append([]string{"env"}, strings.Fields(rest[split])...)
				words = append(words, rest[split+1:]...)
				w.command(words, make([]bool, len(words)), nil, inner)
				return
			}
			if i >= len(rest) {
				w.emit(argv, dyn, f) // prints the environment
				return
			}
			f.wrappers = appendCopy(f.wrappers, "env")
			argv, dyn, c = rest[i:], rdyn[i:], nil
			continue
		case name == "command" || name == "builtin":
			i := skipOptions(rest, nil)
			if name == "command" && hasAnyFlag(rest[:i], "v", "V") {
				w.emit(argv, dyn, f) // a lookup, not a run
				return
			}
			if i >= len(rest) {
				w.emit(argv, dyn, f)
				return
			}
			f.wrappers = appendCopy(f.wrappers, name)
			argv, dyn, c = rest[i:], rdyn[i:], nil
			continue
		default:
			wr, ok := wrappers[name]
			if !ok {
				w.emit(argv, dyn, f)
				return
			}
			if name == "su" || name == "runuser" {
				w.su(argv, dyn, f)
				return
			}
			i := skipOptions(rest, wr.opts)
			if wr.privileged {
				// sudo VAR=value cmd sets the variable for cmd.
				for i < len(rest) && isAssignment(rest[i]) {
					i++
				}
			}
			i += min(wr.positional, len(rest)-i)
			if i >= len(rest) {
				if wr.privileged && hasAnyFlag(rest, "i", "s") {
					// sudo -i, sudo -s, su: a privileged shell.
					inner := f
					inner.priv = true
					w.emit(argv, dyn, inner)
					return
				}
				w.emit(argv, dyn, f)
				return
			}
			f.wrappers = appendCopy(f.wrappers, name)
			f.priv = f.priv || wr.privileged
			argv, dyn, c = rest[i:], rdyn[i:], nil
		}
	}
}

// alias expands argv[0] when it names an alias not already being
// expanded, and walks the result; it reports whether it did.
func (w *walker) alias(argv []string, rdyn []bool, f frame) bool {
	val, ok := w.o.Aliases[argv[0]]
	if !ok || slices.Contains(f.expanded, argv[0]) {
		return false
	}
	if anyTrue(rdyn) {
		// The arguments are words as written; keep them so.
		w.emitOpaque(argv, append([]bool{false}, rdyn...), f, "an alias with arguments computed at run time")
		return true
	}
	inner := f
	inner.depth++
	inner.expanded = appendCopy(f.expanded, argv[0])
	inner.wrappers = appendCopy(f.wrappers, "alias "+argv[0])
	w.parseString(val+" "+Join(argv[1:]), inner)
	return true
}

// Incomplete reports whether src is the start of a command that needs
// more input: an open quote, a here-document without its end line, a
// trailing && or |, an unclosed block.
func Incomplete(src string) bool {
	if n := len(src) - len(strings.TrimRight(src, "\\")); n%2 == 1 {
		return true // a line continuation
	}
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	// A here-document whose body has not started yet is not flagged as
	// incomplete by the parser, but the shell reads on.
	return err != nil && (syntax.IsIncomplete(err) || strings.Contains(err.Error(), "unclosed here-document"))
}

// shell handles sh, bash, zsh and friends: -c strings are parsed, a shell
// reading its script from a pipe or a computed place is opaque.
func (w *walker) shell(name string, argv []string, dyn []bool, c *syntax.CallExpr, f frame) {
	i, script := 1, -1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			break
		}
		if (a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file") && i+1 < len(argv) {
			i++
			continue
		}
		if !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			script = i + 1
		}
	}
	inner := f
	inner.depth++
	inner.wrappers = appendCopy(f.wrappers, name+" -c")
	switch {
	case script >= 0:
		// The first operand after the options is the script; the rest
		// are $0, $1, …
		if script < i {
			script = i
		}
		if script >= len(argv) {
			w.emit(argv, dyn, f)
			return
		}
		if dyn[script] {
			w.emitOpaque(argv, dyn, f, name+" -c runs a string computed at run time")
			return
		}
		w.parseString(argv[script], inner)
	case i < len(argv):
		// A script file: what it does is not on the line.
		w.emit(argv, dyn, f)
	default:
		// The script comes from standard input.
		if body, ok := hereInput(f.redirects); ok {
			inner.wrappers = appendCopy(f.wrappers, name)
			inner.redirects = nil
			w.parseString(body, inner)
			return
		}
		if f.piped || hasInputRedirect(f.redirects) {
			w.emitOpaque(argv, dyn, f, name+" runs commands read from its input")
			return
		}
		// An interactive shell.
		w.emit(argv, dyn, f)
	}
}

func (w *walker) trap(argv []string, dyn []bool, f frame) {
	w.emit(argv[:1], dyn[:1], f)
	rest, rdyn := argv[1:], dyn[1:]
	if len(rest) > 0 && rest[0] == "--" {
		rest, rdyn = rest[1:], rdyn[1:]
	}
	if len(rest) < 2 || strings.HasPrefix(rest[0], "-") {
		return // listing or resetting traps
	}
	inner := f
	inner.ctx = Trap
	inner.depth++
	if rdyn[0] {
		w.emitOpaque(argv, dyn, inner, "trap runs a command computed at run time")
		return
	}
	w.parseString(rest[0], inner)
}

func (w *walker) su(argv []string, dyn []bool, f frame) {
	inner := f
	inner.priv = true
	for i := 1; i < len(argv); i++ {
		if (argv[i] == "-c" || argv[i] == "--command") && i+1 < len(argv) {
			if dyn[i+1] {
				w.emitOpaque(argv, dyn, inner, "su runs a command computed at run time")
				return
			}
			inner.depth++
			inner.wrappers = appendCopy(f.wrappers, path.Base(argv[0])+" -c")
			w.parseString(argv[i+1], inner)
			return
		}
	}
	w.emit(argv, dyn, inner)
}

// find emits find itself (its -delete, -fprint and friends stay visible)
// and each command it would run.
func (w *walker) find(argv []string, dyn []bool, f frame) {
	var own []string
	var owndyn []bool
	before := len(w.l.Segments)
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			own, owndyn = append(own, argv[i]), append(owndyn, false)
			j := i + 1
			for j < len(argv) && argv[j] != ";" && argv[j] != "+" {
				j++
			}
			if j > i+1 {
				inner := f
				inner.ctx = FindExec
				inner.piped = false
				inner.wrappers = appendCopy(f.wrappers, "find "+argv[i])
				w.command(argv[i+1:j], dyn[i+1:j], nil, inner)
			}
			i = j
		default:
			own, owndyn = append(own, argv[i]), append(owndyn, dyn[i])
		}
	}
	// find goes before the commands it runs, to keep source order.
	w.l.Segments = slices.Insert(w.l.Segments, before, w.segment(own, owndyn, f))
}

func (w *walker) emit(argv []string, dyn []bool, f frame) {
	w.l.Segments = append(w.l.Segments, w.segment(argv, dyn, f))
}

func (w *walker) emitWith(argv []string, dyn []bool, f frame, adjust func(*Segment)) {
	if dyn[0] {
		w.emitOpaque(argv, dyn, f, "the command name is computed at run time")
		return
	}
	before := len(w.l.Segments)
	w.command(argv, dyn, nil, f)
	for i := before; i < len(w.l.Segments); i++ {
		adjust(&w.l.Segments[i])
	}
}

func (w *walker) emitOpaque(argv []string, dyn []bool, f frame, why string) {
	s := w.segment(argv, dyn, f)
	s.Opaque = why
	w.l.Segments = append(w.l.Segments, s)
}

func (w *walker) segment(argv []string, dyn []bool, f frame) Segment {
	name := path.Base(argv[0])
	name = strings.TrimPrefix(name, "\\")
	forms := f.forms
	if n := len(forms); n == 0 || !slices.Equal(forms[n-1], argv) {
		forms = appendForm(forms, argv)
	}
	return Segment{
		Argv: append([]string(nil), argv...), Name: name, Wrappers: f.wrappers, Forms: forms,
		Redirects: f.redirects, Context: f.ctx, Depth: f.depth, Dynamic: anyTrue(dyn),
		InputFromPipe: f.piped, Privileged: f.priv,
	}
}

// parallel unwraps GNU parallel: the command before ":::" runs with the
// arguments after it; with no command, each argument is a command line.
func (w *walker) parallel(argv []string, dyn []bool, f frame) {
	rest, rdyn := argv[1:], dyn[1:]
	i := skipOptions(rest, parallelOpts)
	cmd, args := rest[i:], []string(nil)
	cdyn := rdyn[i:]
	for j, x := range cmd {
		if strings.HasPrefix(x, ":::") {
			cmd, args, cdyn = cmd[:j], cmd[j+1:], cdyn[:j]
			break
		}
	}
	w.emit(argv[:1+i], dyn[:1+i], f)
	inner := f
	inner.wrappers = appendCopy(f.wrappers, "parallel")
	if len(cmd) == 0 {
		inner.depth++
		for _, a := range args {
			if !strings.HasPrefix(a, ":::") {
				w.parseString(a, inner)
			}
		}
		return
	}
	full := append(slices.Clone(cmd), args...)
	fdyn := append(slices.Clone(cdyn), make([]bool, len(args))...)
	w.emitWith(full, fdyn, inner, func(s *Segment) { s.ArgsFromInput = len(args) == 0 })
}

var parallelOpts = optSet("-j", "-P", "--jobs", "-n", "-N", "--max-args", "-I", "--colsep", "-S", "--sshlogin", "-a", "--arg-file", "--delay", "--timeout", "--results", "--tmpdir", "--joblog", "-d", "--delimiter", "-E", "--retries")

func isAssignment(s string) bool {
	k, _, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// hereInput returns the text a here-document or here-string feeds to
// standard input, when it is static.
func hereInput(rs []Redirect) (string, bool) {
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		if r.FD != "" && r.FD != "0" {
			continue
		}
		switch r.Op {
		case "<<", "<<-", "<<<":
			return r.Target, !r.Dynamic
		case "<":
			return "", false
		}
	}
	return "", false
}

func hasInputRedirect(rs []Redirect) bool {
	for _, r := range rs {
		if (r.FD == "" || r.FD == "0") && (r.Op == "<" || r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" || r.Op == "<>") {
			return true
		}
	}
	return false
}

func appendForm(forms [][]string, argv []string) [][]string {
	return append(append(make([][]string, 0, len(forms)+1), forms...), append([]string(nil), argv...))
}

func appendCopy(list []string, s string) []string {
	return append(append(make([]string, 0, len(list)+1), list...), s)
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}

// Split splits a simple command into its words, with quotes removed, as
// a shell would. It fails on anything but one simple command of static
// words: pipelines, lists, substitutions and variables are errors.
func Split(src string) ([]string, error) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	if len(file.Stmts) != 1 {
		return nil, fmt.Errorf("%q is not one simple command", src)
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(file.Stmts[0].Redirs) > 0 || file.Stmts[0].Background || file.Stmts[0].Negated {
		return nil, fmt.Errorf("%q is not one simple command", src)
	}
	w := newWalker(Options{}, &Line{})
	var out []string
	for _, word := range call.Args {
		fields, dyn := w.word(word)
		if dyn {
			return nil, fmt.Errorf("%q depends on run-time expansion", w.print(word))
		}
		out = append(out, fields...)
	}
	return out, nil
}
