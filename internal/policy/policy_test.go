package policy

import (
	"testing"

	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

func input(t *testing.T, approval Approval, line string, src string) Input {
	t.Helper()
	set := &rules.Set{Hosts: map[string][]string{}}
	if err := set.LoadSource("t.rules", []byte(src)); err != nil {
		t.Fatal(err)
	}
	in := Input{Approval: approval, AllowUnsandboxed: true}
	for _, s := range shellparse.Parse(line, shellparse.Options{Home: "/home/u"}).Segments {
		in.Segments = append(in.Segments, Evaluated{Segment: s, Rules: set.Evaluate(s)})
	}
	return in
}

const testRules = `
prefix_rule(pattern = ["git", "push"], decision = "prompt", justification = "remote")
prefix_rule(pattern = ["rm"], decision = "forbidden")
prefix_rule(pattern = ["make"], decision = "allow")
`

func TestDecide(t *testing.T) {
	tests := []struct {
		approval  Approval
		line      string
		verdict   rules.Decision
		action    Action
		sandboxed bool
		kind      PromptKind
	}{
		{OnFailure, "ls -la", rules.Allow, Run, true, ""},
		{OnFailure, "cargo build", rules.Allow, Run, true, ""},
		{Untrusted, "cargo build", rules.Prompt, Ask, true, KindHeuristic},
		{Untrusted, "ls && cat x", rules.Allow, Run, true, ""},
		{OnFailure, "make test", rules.Allow, Run, false, ""},
		{OnFailure, "make test && cargo build", rules.Allow, Run, true, ""},
		{OnFailure, "ls && rm x", rules.Forbidden, Refuse, true, KindRule},
		{OnFailure, "git push origin", rules.Prompt, Ask, true, KindRule},
		{Never, "git push origin", rules.Prompt, Refuse, true, KindRule},
		{OnRequest, "git push origin", rules.Prompt, Ask, true, KindRule},
		{OnFailure, "chmod -R 777 /", rules.Prompt, Ask, true, KindHeuristic},
		{OnFailure, "curl x | sh", rules.Prompt, Ask, true, KindHeuristic},
		{OnFailure, "eval \"$X\"", rules.Prompt, Ask, true, KindHeuristic},
		{Never, "git reset --hard", rules.Prompt, Run, true, KindHeuristic},
		{Never, "shred -u \"$t\"", rules.Prompt, Run, true, KindHeuristic},
	}
	for _, tt := range tests {
		d := Decide(input(t, tt.approval, tt.line, testRules))
		if d.Verdict != tt.verdict || d.Action != tt.action || d.Sandboxed != tt.sandboxed || d.Kind != tt.kind {
			t.Errorf("%s %q: got %v/%v sandboxed=%v kind=%q (%s); want %v/%v sandboxed=%v kind=%q",
				tt.approval, tt.line, d.Verdict, d.Action, d.Sandboxed, d.Kind, d.Reason, tt.verdict, tt.action, tt.sandboxed, tt.kind)
		}
	}
}

func TestDecideRejectAndRemember(t *testing.T) {
	in := input(t, OnFailure, "git push origin", testRules)
	in.Reject = []PromptKind{KindRule}
	if d := Decide(in); d.Action != Refuse {
		t.Errorf("granular reject of rule prompts: got %v", d.Action)
	}
	in = input(t, OnFailure, "git push origin", testRules)
	in.Remembered = true
	if d := Decide(in); d.Action != Run {
		t.Errorf("remembered approval: got %v", d.Action)
	}
	in = input(t, OnFailure, "ls && rm x", testRules)
	in.Remembered = true
	if d := Decide(in); d.Action != Refuse {
		t.Errorf("a remembered approval must not override forbidden: got %v", d.Action)
	}
	in = input(t, OnRequest, "ls", testRules)
	in.Escalate = "needs the network"
	if d := Decide(in); d.Action != Ask || d.Kind != KindSandbox {
		t.Errorf("escalation request: got %v %q", d.Action, d.Kind)
	}
	in = input(t, OnFailure, "curl x | sh", testRules)
	in.NoOneToAsk = true
	if d := Decide(in); d.Action != Run || !d.Sandboxed {
		t.Errorf("heuristic prompt without a terminal runs sandboxed: got %v", d.Action)
	}
	in = input(t, Untrusted, "curl x | sh", testRules)
	in.NoOneToAsk = true
	if d := Decide(in); d.Action != Ask {
		t.Errorf("untrusted still asks (and the caller refuses): got %v", d.Action)
	}
	in = input(t, OnFailure, "git status", testRules)
	if d := Decide(in); !d.HardenGit {
		t.Errorf("read-only git allowed by heuristics must run hardened")
	}
}

// TestDecideNative: in guard mode the line runs natively, so a dangerous
// command is asked about (or refused under never), never waved through on
// the sandbox's strength.
func TestDecideNative(t *testing.T) {
	for _, approval := range []Approval{OnFailure, OnRequest, Never} {
		in := input(t, approval, "git reset --hard", testRules)
		in.Native = true
		d := Decide(in)
		want := Ask
		if approval == Never {
			want = Refuse
		}
		if d.Action != want || d.Sandboxed {
			t.Errorf("%s: got %v sandboxed=%v, want %v outside the sandbox", approval, d.Action, d.Sandboxed, want)
		}
	}
}
