package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// ErrInvalid marks a rules file that does not load.
var ErrInvalid = errors.New("invalid rules file")

// maxSteps bounds the work one rules file may do when it loads.
const maxSteps = 10_000_000

// Files lists the *.rules files of each directory, each directory's files
// sorted by name, directories in the order given. A missing directory
// contributes nothing; a path that is a file is taken as it is.
func Files(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.rules"))
		if err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

// Load reads rules files in order into one set.
func Load(files []string) (*Set, error) {
	s := &Set{Hosts: map[string][]string{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%w: %v; fix its permissions or remove it", ErrInvalid, err)
		}
		if err := s.loadSource(f, src); err != nil {
			return nil, err
		}
		s.Files = append(s.Files, f)
	}
	return s, nil
}

// LoadSource adds the rules in src, named file in errors.
func (s *Set) LoadSource(file string, src []byte) error { return s.loadSource(file, src) }

func (s *Set) loadSource(file string, src []byte) error {
	thread := &starlark.Thread{Name: file, Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, errors.New("load() is not supported in rules files")
	}}
	thread.SetMaxExecutionSteps(maxSteps)
	var added []pendingRule
	builtins := starlark.StringDict{
		"prefix_rule": starlark.NewBuiltin("prefix_rule", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			r, ex, err := prefixRule(th, b, args, kwargs)
			if err != nil {
				return nil, err
			}
			added = append(added, pendingRule{r, ex})
			return starlark.None, nil
		}),
		"host_executable": starlark.NewBuiltin("host_executable", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var name string
			var paths *starlark.List
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "paths", &paths); err != nil {
				return nil, err
			}
			if name == "" || strings.Contains(name, "/") {
				return nil, fmt.Errorf("host_executable: name %q must be a bare program name", name)
			}
			list, err := strings1(paths, "paths")
			if err != nil {
				return nil, err
			}
			for _, p := range list {
				if !filepath.IsAbs(p) || filepath.Base(p) != name {
					return nil, fmt.Errorf("host_executable: path %q must be absolute and end in %q", p, name)
				}
				s.Hosts[name] = append(s.Hosts[name], filepath.Clean(p))
			}
			return starlark.None, nil
		}),
		// Network rules belong to the network allowlist, which airlock does
		// not enforce yet; they are accepted so Codex files load.
		"network_rule": starlark.NewBuiltin("network_rule", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}),
	}
	_, err := starlark.ExecFileOptions(&syntax.FileOptions{}, thread, file, src, builtins)
	if err != nil {
		return fmt.Errorf("%w: %s; fix the file or move it out of the rules directory", ErrInvalid, position(file, err))
	}
	// Examples are checked against their own rule alone, as Codex does.
	for _, p := range added {
		if err := s.checkExamples(p.rule, p.ex); err != nil {
			return fmt.Errorf("%w: %s: %v; fix the rule or its example", ErrInvalid, p.rule.Source, err)
		}
	}
	for _, p := range added {
		s.Rules = append(s.Rules, p.rule)
	}
	return nil
}

// pendingRule is a rule whose examples are checked once its file has run.
type pendingRule struct {
	rule *Rule
	ex   ruleExamples
}

func prefixRule(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (*Rule, ruleExamples, error) {
	var ex ruleExamples
	var pattern *starlark.List
	decision, justification := "allow", ""
	var match, notMatch *starlark.List
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "decision?", &decision, "justification?", &justification, "match?", &match, "not_match?", &notMatch); err != nil {
		return nil, ex, err
	}
	d, err := ParseDecision(decision)
	if err != nil {
		return nil, ex, err
	}
	r := &Rule{Decision: d, Justification: justification}
	pos := th.CallFrame(1).Pos
	r.Source = fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
	if pattern.Len() == 0 {
		return nil, ex, errors.New("prefix_rule: pattern must not be empty")
	}
	for i := range pattern.Len() {
		switch v := pattern.Index(i).(type) {
		case starlark.String:
			r.Pattern = append(r.Pattern, []string{string(v)})
		case *starlark.List:
			alts, err := strings1(v, "pattern alternatives")
			if err != nil {
				return nil, ex, err
			}
			if len(alts) == 0 {
				return nil, ex, fmt.Errorf("prefix_rule: pattern element %d is an empty list", i)
			}
			r.Pattern = append(r.Pattern, alts)
		default:
			return nil, ex, fmt.Errorf("prefix_rule: pattern element %d is a %s, not a string or list of strings", i, v.Type())
		}
	}
	if ex.match, err = exampleList(match); err != nil {
		return nil, ex, fmt.Errorf("prefix_rule: match: %w", err)
	}
	if ex.notMatch, err = exampleList(notMatch); err != nil {
		return nil, ex, fmt.Errorf("prefix_rule: not_match: %w", err)
	}
	return r, ex, nil
}

type ruleExamples struct{ match, notMatch [][]string }

func (s *Set) checkExamples(r *Rule, ex ruleExamples) error {
	for _, argv := range ex.match {
		if ok, _ := s.matches(r, argv); !ok {
			return fmt.Errorf("match example %q does not match pattern %s", shellparse.Join(argv), r)
		}
	}
	for _, argv := range ex.notMatch {
		if ok, _ := s.matches(r, argv); ok {
			return fmt.Errorf("not_match example %q matches pattern %s", shellparse.Join(argv), r)
		}
	}
	return nil
}

// exampleList reads examples given as strings (split like a shell would)
// or as lists of tokens.
func exampleList(l *starlark.List) ([][]string, error) {
	if l == nil {
		return nil, nil
	}
	var out [][]string
	for i := range l.Len() {
		switch v := l.Index(i).(type) {
		case starlark.String:
			argv, err := shellparse.Split(string(v))
			if err != nil || len(argv) == 0 {
				return nil, fmt.Errorf("example %q is not a simple command", string(v))
			}
			out = append(out, argv)
		case *starlark.List:
			argv, err := strings1(v, "example")
			if err != nil {
				return nil, err
			}
			out = append(out, argv)
		default:
			return nil, fmt.Errorf("example %d is a %s, not a string or list", i, v.Type())
		}
	}
	return out, nil
}

func strings1(l *starlark.List, what string) ([]string, error) {
	if l == nil {
		return nil, nil
	}
	out := make([]string, 0, l.Len())
	for i := range l.Len() {
		s, ok := starlark.AsString(l.Index(i))
		if !ok {
			return nil, fmt.Errorf("%s: element %d is a %s, not a string", what, i, l.Index(i).Type())
		}
		out = append(out, s)
	}
	return out, nil
}

// position renders a Starlark error as "file:line: message".
func position(file string, err error) string {
	var se syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%s:%d: %s", file, se.Pos.Line, se.Msg)
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		line := 0
		for _, fr := range ee.CallStack {
			if fr.Pos.Filename() == file {
				line = int(fr.Pos.Line)
			}
		}
		msg := ee.Msg
		if ee.Unwrap() != nil {
			msg = ee.Unwrap().Error()
		}
		return fmt.Sprintf("%s:%d: %s", file, line, msg)
	}
	// Resolver errors already start with "file:line:col:".
	return err.Error()
}
