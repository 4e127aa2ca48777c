// Package rules loads rules files and matches commands against them.
//
// Rules files are Starlark, in the format of Codex's execpolicy .rules
// files, which load unchanged: prefix_rule(pattern=[…], decision=…,
// justification=…, match=[…], not_match=[…]), host_executable(name=…,
// paths=[…]) and network_rule(…). A pattern element may be a list of
// alternatives. The match and not_match examples are checked when a file
// loads; a file that fails to load is an error naming file and line, never
// skipped.
package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// Decision is what a rule says about a command, ordered from the most
// permissive to the strictest.
type Decision int

// Decisions, in order of strictness.
const (
	Allow Decision = iota + 1
	Prompt
	Forbidden
)

// String returns the decision's name as rules files spell it.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Prompt:
		return "prompt"
	case Forbidden:
		return "forbidden"
	}
	return "none"
}

// MarshalText makes decisions print as their names in JSON.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a decision's name.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDecision parses a decision name.
func ParseDecision(s string) (Decision, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "prompt":
		return Prompt, nil
	case "forbidden":
		return Forbidden, nil
	}
	return 0, fmt.Errorf("decision %q is not allow, prompt or forbidden", s)
}

// Rule is one prefix_rule.
type Rule struct {
	// Pattern holds, per position, the tokens accepted there.
	Pattern       [][]string
	Decision      Decision
	Justification string
	// Source is "file:line" of the prefix_rule call.
	Source string
}

// String renders the pattern the way a rules file writes it.
func (r *Rule) String() string {
	parts := make([]string, len(r.Pattern))
	for i, alts := range r.Pattern {
		if len(alts) == 1 {
			parts[i] = shellparse.Quote(alts[0])
		} else {
			q := make([]string, len(alts))
			for j, a := range alts {
				q[j] = shellparse.Quote(a)
			}
			parts[i] = "[" + strings.Join(q, "|") + "]"
		}
	}
	return strings.Join(parts, " ")
}

// Set is a loaded collection of rules.
type Set struct {
	Rules []*Rule
	// Hosts maps a program name to the absolute paths that count as it
	// (host_executable). A name without an entry matches any path whose
	// last element is the name, for rules that make a decision stricter.
	Hosts map[string][]string
	// Files lists the files loaded, in order.
	Files []string
}

// Match is a rule that matched, and the form of the command it matched.
type Match struct {
	Rule *Rule
	Argv []string
}

// matches reports whether the rule's pattern is a prefix of argv. The first
// token may be a path: it then matches by its last element, and exact
// reports whether that path is one host_executable vouches for (or no
// path was involved).
func (s *Set) matches(r *Rule, argv []string) (ok, exact bool) {
	if len(argv) < len(r.Pattern) || len(r.Pattern) == 0 {
		return false, false
	}
	exact = true
	for i, alts := range r.Pattern {
		tok := argv[i]
		if slices.Contains(alts, tok) {
			continue
		}
		if i == 0 && strings.Contains(tok, "/") {
			base := filepath.Base(tok)
			if slices.Contains(alts, base) {
				exact = slices.Contains(s.Hosts[base], filepath.Clean(tok))
				continue
			}
		}
		return false, false
	}
	return true, exact
}

// MatchArgv returns the rules whose pattern is a prefix of argv, counting
// a path as its program name only where host_executable lists it.
func (s *Set) MatchArgv(argv []string) []Match {
	var out []Match
	for _, r := range s.Rules {
		if ok, exact := s.matches(r, argv); ok && exact {
			out = append(out, Match{Rule: r, Argv: argv})
		}
	}
	return out
}

// SegmentResult is what the rules say about one segment.
type SegmentResult struct {
	// Decision is the strictest matching rule's, or 0 when none matched.
	Decision Decision
	// Rule is the rule that decided, or nil.
	Rule *Rule
	// Matches lists every rule that matched, with the form it matched.
	Matches []Match
}

// Evaluate matches a segment. Allow rules apply to the command itself;
// prompt and forbidden rules also apply to every form the command takes
// inside its wrappers and shells, so wrapping never avoids them. A command
// run with raised privileges is allowed only by a rule that matches the
// privileged form (for example "sudo apt update"), never by one about the
// bare command.
func (s *Set) Evaluate(seg shellparse.Segment) SegmentResult {
	var res SegmentResult
	forms := seg.Forms
	if len(forms) == 0 {
		forms = [][]string{seg.Argv}
	}
	last := len(forms) - 1
	for i, form := range forms {
		for _, r := range s.Rules {
			ok, exact := s.matches(r, form)
			if !ok {
				continue
			}
			if r.Decision == Allow {
				// Allow needs an exact program and the command itself; a
				// privileged command needs the allow on its outer form.
				if !exact || (i != last && !seg.Privileged) || (seg.Privileged && i == last) {
					continue
				}
			}
			res.Matches = append(res.Matches, Match{Rule: r, Argv: form})
			if r.Decision > res.Decision {
				res.Decision, res.Rule = r.Decision, r
			}
		}
	}
	return res
}
