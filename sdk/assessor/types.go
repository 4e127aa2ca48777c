package assessor

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/sdk/internal/errs"
)

// Sentinel errors, shared with the sandbox package so errors.Is works
// whichever package a caller names.
var (
	// ErrPluginExited reports that the assessor process went away mid-call.
	ErrPluginExited = errs.ErrPluginExited
	// ErrInvalidRequest reports a request the assessor will not serve.
	ErrInvalidRequest = errs.ErrInvalidRequest
	// ErrInvalidResponse reports a verdict that breaks this contract.
	ErrInvalidResponse = errs.ErrInvalidResponse
)

// Level is a risk level.
type Level int

// Risk levels, in increasing order.
const (
	LevelUnspecified Level = iota
	Low
	Medium
	High
)

// String returns "low", "medium" or "high".
func (l Level) String() string {
	switch l {
	case Low:
		return "low"
	case Medium:
		return "medium"
	case High:
		return "high"
	}
	return "unspecified"
}

// ParseLevel parses "low", "medium" or "high", in any case.
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "low":
		return Low, nil
	case "medium":
		return Medium, nil
	case "high":
		return High, nil
	}
	return LevelUnspecified, fmt.Errorf("unknown risk level %q (want low, medium or high)", s)
}

// Category is one risk dimension.
type Category string

// The fixed list of categories.
const (
	DataDeletion        Category = "data_deletion"
	DataExfiltration    Category = "data_exfiltration"
	PrivilegeEscalation Category = "privilege_escalation"
	SystemModification  Category = "system_modification"
	NetworkAccess       Category = "network_access"
	ResourceExhaustion  Category = "resource_exhaustion"
	Compliance          Category = "compliance"
)

// Categories lists every category in wire order.
var Categories = []Category{
	DataDeletion, DataExfiltration, PrivilegeEscalation, SystemModification,
	NetworkAccess, ResourceExhaustion, Compliance,
}

// Valid reports whether c is one of [Categories].
func (c Category) Valid() bool { return c.index() > 0 }

func (c Category) index() int {
	for i, x := range Categories {
		if x == c {
			return i + 1
		}
	}
	return 0
}

// ParseCategory parses a category name.
func ParseCategory(s string) (Category, error) {
	c := Category(strings.TrimSpace(s))
	if !c.Valid() {
		return "", fmt.Errorf("unknown risk category %q", s)
	}
	return c, nil
}

// SandboxSummary describes the policy the command ran, or would run, under.
type SandboxSummary struct {
	// Mode is read-only, workspace-write or danger-full-access.
	Mode          string
	WritableRoots []string
	// Network is off or on.
	Network string
}

// Request is one command to assess.
type Request struct {
	// Argv is set when the command came as a vector; empty for a raw line.
	Argv []string
	// CommandLine is the command as a shell would read it. Always set.
	CommandLine string
	Cwd         string
	// Platform is a GOOS name such as "linux".
	Platform string
	Sandbox  SandboxSummary
	// FailureMessage is what the sandbox reported when it blocked the
	// command, if it did.
	FailureMessage string
}

// Evidence names the segment and pattern behind a verdict.
type Evidence struct {
	Segment string
	Rule    string
	Level   Level
}

// Verdict is an assessment.
type Verdict struct {
	// Description is one plain sentence, 1 to 500 characters.
	Description string
	Level       Level
	Categories  []Category
	// Source says where the answer came from: "rules", "model:NAME", ….
	Source   string
	Evidence []Evidence
}

// MaxDescription is the longest description a verdict may carry, in
// characters.
const MaxDescription = 500

// Validate checks a verdict against the contract. The host replaces an
// invalid verdict with its built-in rules.
func (v *Verdict) Validate() error {
	if v == nil {
		return fmt.Errorf("%w: no verdict", ErrInvalidResponse)
	}
	d := strings.TrimSpace(v.Description)
	if d == "" || utf8.RuneCountInString(d) > MaxDescription || !utf8.ValidString(d) {
		return fmt.Errorf("%w: description must be 1 to %d characters of text", ErrInvalidResponse, MaxDescription)
	}
	if v.Level < Low || v.Level > High {
		return fmt.Errorf("%w: risk level %d", ErrInvalidResponse, int(v.Level))
	}
	seen := map[Category]bool{}
	for _, c := range v.Categories {
		if !c.Valid() {
			return fmt.Errorf("%w: risk category %q", ErrInvalidResponse, string(c))
		}
		if seen[c] {
			return fmt.Errorf("%w: risk category %q twice", ErrInvalidResponse, string(c))
		}
		seen[c] = true
	}
	return nil
}

// InfoRequest asks for [Info]. It has no fields yet.
type InfoRequest struct{}

// Info describes an assessor.
type Info struct {
	Name         string
	Version      string
	Capabilities []string
	Description  string
}
