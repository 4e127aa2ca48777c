// Package policy decides, without any I/O, what happens to a command line:
// it combines the rules' verdict on every segment, the heuristics, the
// approval policy and what the user already approved this session into one
// Decision. The strictest segment decides.
package policy

import (
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// Approval is an approval policy.
type Approval string

// Approval policies.
const (
	// Untrusted asks unless every segment is known-safe or allowed by a rule.
	Untrusted Approval = "untrusted"
	// OnFailure runs sandboxed and asks to escalate on a sandbox denial.
	OnFailure Approval = "on-failure"
	// OnRequest runs sandboxed and asks only when the caller asks for
	// escalation or a rule says prompt.
	OnRequest Approval = "on-request"
	// Never never asks: what would need asking is refused.
	Never Approval = "never"
)

// PromptKind names why a question would be asked; a granular policy
// rejects chosen kinds without asking.
type PromptKind string

// Kinds of prompt.
const (
	// KindRule is a prompt a rule asked for.
	KindRule PromptKind = "rule"
	// KindHeuristic is a prompt for a dangerous or opaque command, or for
	// any unknown command under untrusted.
	KindHeuristic PromptKind = "heuristic"
	// KindSandbox is a prompt to escalate after a sandbox denial, or one
	// the caller asked for.
	KindSandbox PromptKind = "sandbox"
)

// Action is what to do next.
type Action int

// Actions.
const (
	// Run runs the command (sandboxed or not, see Decision.Sandboxed).
	Run Action = iota + 1
	// Ask asks the user first.
	Ask
	// Refuse refuses to run the command.
	Refuse
)

// String names the action.
func (a Action) String() string {
	switch a {
	case Run:
		return "run"
	case Ask:
		return "ask"
	case Refuse:
		return "refuse"
	}
	return "unknown"
}

// MarshalText makes actions print as names in JSON.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Input is everything a decision depends on.
type Input struct {
	Approval Approval
	// Reject lists prompt kinds refused without asking.
	Reject []PromptKind
	// Segments are the parsed line's segments with what the rules said.
	Segments []Evaluated
	// AllowUnsandboxed lets a line allowed by a rule on every segment run
	// outside the sandbox.
	AllowUnsandboxed bool
	// Escalate is set when the caller asks to run without the sandbox.
	Escalate string
	// Remembered is set when the user approved this exact command, or its
	// prefix, earlier in this session.
	Remembered bool
	// NoOneToAsk is set when there is no terminal to ask on.
	NoOneToAsk bool
	// Native is set when the line will run outside the sandbox whatever
	// the rules say (the shell integration's guard mode): nothing may be
	// waved through on the sandbox's strength.
	Native bool
}

// Evaluated is one segment with the rules' result.
type Evaluated struct {
	Segment shellparse.Segment
	Rules   rules.SegmentResult
}

// SegmentDecision explains one segment's part in the decision.
type SegmentDecision struct {
	Argv     []string       `json:"argv"`
	Wrappers []string       `json:"wrappers,omitempty"`
	Context  string         `json:"context,omitempty"`
	Rule     *RuleRef       `json:"rule"`
	Decision rules.Decision `json:"decision"`
	// Heuristic is the segment's heuristic class: safe, dangerous or
	// unknown.
	Heuristic string `json:"heuristic"`
	Opaque    string `json:"opaque,omitempty"`
	Reason    string `json:"reason"`
	kind      PromptKind
}

// RuleRef is a rule as shown to users and in JSON.
type RuleRef struct {
	Pattern       string `json:"pattern"`
	Decision      string `json:"decision"`
	Justification string `json:"justification,omitempty"`
	Source        string `json:"source"`
}

// Decision is the outcome for a whole line.
type Decision struct {
	// Verdict is the strictest segment decision: allow, prompt or
	// forbidden.
	Verdict rules.Decision `json:"decision"`
	Action  Action         `json:"action"`
	// Sandboxed says whether the command would run in the sandbox.
	Sandboxed bool `json:"sandboxed"`
	// Kind is why a question is asked (with Action Ask), or would have
	// been (with Action Refuse).
	Kind     PromptKind        `json:"prompt_kind,omitempty"`
	Reason   string            `json:"reason"`
	Segments []SegmentDecision `json:"segments"`
	// HardenGit is set when a read-only git segment was allowed on the
	// strength of the heuristics, so it must run with
	// shellparse.HardenedGitEnv.
	HardenGit bool `json:"-"`
}

// Decide makes the decision.
func Decide(in Input) Decision {
	d := Decision{Verdict: rules.Allow, Action: Run, Sandboxed: true}
	allByRule := len(in.Segments) > 0
	deciding := -1
	for _, ev := range in.Segments {
		sd := segment(ev, in.Approval)
		if sd.Rule == nil || sd.Decision != rules.Allow {
			allByRule = false
		}
		if sd.Heuristic == shellparse.Safe.String() && sd.Rule == nil && ev.Segment.Name == "git" {
			d.HardenGit = true
		}
		d.Segments = append(d.Segments, sd)
		if deciding < 0 || sd.Decision > d.Verdict {
			d.Verdict, deciding = sd.Decision, len(d.Segments)-1
		}
	}
	if len(in.Segments) == 0 {
		d.Reason = "nothing to run"
		return d
	}
	d.Reason = d.Segments[deciding].Reason
	switch d.Verdict {
	case rules.Forbidden:
		d.Action, d.Kind = Refuse, KindRule
		return d
	case rules.Prompt:
		d.Kind = d.Segments[deciding].kind
	default:
		if allByRule && in.AllowUnsandboxed {
			d.Sandboxed = false
			d.Reason = "every command is allowed by a rule"
		}
		if in.Escalate == "" {
			return d
		}
		d.Kind, d.Reason = KindSandbox, "asks to run without the sandbox: "+in.Escalate
	}
	if in.Remembered {
		d.Action = Run
		d.Reason += " (approved earlier this session)"
		return d
	}
	for _, k := range in.Reject {
		if k == d.Kind {
			d.Action = Refuse
			d.Reason += fmt.Sprintf("; the approval policy rejects %s prompts", k)
			return d
		}
	}
	if in.Native {
		d.Sandboxed = false
	}
	if d.Kind == KindHeuristic && d.Sandboxed && in.Approval != Untrusted && (in.NoOneToAsk || in.Approval == Never) {
		// The heuristics would ask a human; without one, the sandbox is
		// what holds the command, as the policy asked. Rules still refuse.
		d.Reason += "; runs in the sandbox as no one can be asked"
		return d
	}
	d.Action = Ask
	if in.Approval == Never {
		d.Action = Refuse
		d.Reason += "; the approval policy is never"
	}
	return d
}

func segment(ev Evaluated, approval Approval) SegmentDecision {
	s := ev.Segment
	sd := SegmentDecision{Argv: s.Argv, Wrappers: s.Wrappers, Context: string(s.Context), Opaque: s.Opaque}
	safety, why := shellparse.Classify(s)
	sd.Heuristic = safety.String()
	if r := ev.Rules.Rule; r != nil {
		sd.Rule = &RuleRef{Pattern: r.String(), Decision: r.Decision.String(), Justification: r.Justification, Source: r.Source}
		sd.Decision = ev.Rules.Decision
		sd.Reason = "rule " + r.String() + " (" + r.Source + ")"
		if r.Justification != "" {
			sd.Reason += ": " + r.Justification
		}
		sd.kind = KindRule
		return sd
	}
	sd.kind = KindHeuristic
	switch {
	case s.Opaque != "":
		sd.Decision, sd.Reason = rules.Prompt, "cannot tell what runs: "+s.Opaque
	case safety == shellparse.Dangerous:
		sd.Decision, sd.Reason = rules.Prompt, "dangerous: "+why
	case safety == shellparse.Safe:
		sd.Decision, sd.Reason = rules.Allow, "known safe: "+why
	case approval == Untrusted:
		sd.Decision, sd.Reason = rules.Prompt, "not known to be safe ("+strings.TrimPrefix(why, "no heuristic knows ")+")"
	default:
		sd.Decision, sd.Reason = rules.Allow, "no rule matched; runs in the sandbox"
	}
	return sd
}
