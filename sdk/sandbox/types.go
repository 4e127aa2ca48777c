package sandbox

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/sdk/internal/errs"
)

// Sentinel errors. Both sides of the wire map them to and from gRPC codes, so
// callers match with errors.Is. errors.ErrUnsupported marks an RPC or a
// policy feature the backend does not implement.
var (
	// ErrPluginExited reports that the backend process went away mid-call.
	ErrPluginExited = errs.ErrPluginExited
	// ErrInvalidRequest reports a request the backend will not serve as asked.
	ErrInvalidRequest = errs.ErrInvalidRequest
	// ErrInvalidResponse reports an answer that breaks this contract.
	ErrInvalidResponse = errs.ErrInvalidResponse
	// ErrUnavailable reports that the backend cannot enforce the policy on
	// this machine (for example, no kernel support and no degraded mode
	// accepted).
	ErrUnavailable = errs.ErrUnavailable
)

// Mode is the sandbox mode of the design brief.
type Mode int

// Modes. ModeDangerFullAccess never reaches a backend: the host runs such a
// command without one.
const (
	ModeUnspecified Mode = iota
	ModeReadOnly
	ModeWorkspaceWrite
	ModeDangerFullAccess
)

var modeNames = [...]string{"", "read-only", "workspace-write", "danger-full-access"}

// String returns the mode's command-line name.
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode parses a command-line mode name.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if i > 0 && n == s {
			return Mode(i), nil
		}
	}
	return ModeUnspecified, fmt.Errorf("unknown sandbox mode %q (want read-only, workspace-write or danger-full-access)", s)
}

// Network is the network policy.
type Network int

// Network policies.
const (
	NetworkUnspecified Network = iota
	NetworkOff
	NetworkOn
)

// String returns the policy's command-line name.
func (n Network) String() string {
	switch n {
	case NetworkOff:
		return "off"
	case NetworkOn:
		return "on"
	}
	return fmt.Sprintf("Network(%d)", int(n))
}

// ParseNetwork parses "off" or "on".
func ParseNetwork(s string) (Network, error) {
	switch s {
	case "off":
		return NetworkOff, nil
	case "on":
		return NetworkOn, nil
	}
	return NetworkUnspecified, fmt.Errorf("unknown network policy %q (want off or on)", s)
}

// Capability names a backend lists in [Info.Capabilities].
const (
	// CapNetworkOff: the backend can cut all network access.
	CapNetworkOff = "network_off"
	// CapDenyRead: the backend can hide paths from reads.
	CapDenyRead = "deny_read"
	// CapProtectedPaths: the backend keeps protected names read-only.
	CapProtectedPaths = "protected_paths"
	// CapPrivateTmp: the backend gives each command its own /tmp.
	CapPrivateTmp = "private_tmp"
	// CapReport: the backend's launcher writes a denial report.
	CapReport = "report"
	// CapProcessIsolation: commands cannot see, signal or trace outside
	// processes, and the process tree dies with the command.
	CapProcessIsolation = "process_isolation"
)

// Policy is what a backend must enforce for one command.
type Policy struct {
	Mode Mode
	// WritableRoots are absolute, cleaned paths writable in workspace-write.
	WritableRoots []string
	// DenyRead are absolute paths unreadable by any route.
	DenyRead []string
	// ProtectedNames stay read-only under every writable root.
	ProtectedNames []string
	Network        Network
	// AllowDegraded accepts a weaker mode when the full one is unavailable.
	AllowDegraded bool
}

// Command is the command to run.
type Command struct {
	Argv []string
	Cwd  string
	// Env holds KEY=VALUE pairs.
	Env []string
}

// PrepareRequest asks for a launch spec.
type PrepareRequest struct {
	Command Command
	Policy  Policy
	// TTY says whether the host will run the spec on a PTY.
	TTY bool
}

// Validate checks the request the way every backend should before acting.
func (r *PrepareRequest) Validate() error {
	if len(r.Command.Argv) == 0 || r.Command.Argv[0] == "" {
		return fmt.Errorf("%w: empty command", ErrInvalidRequest)
	}
	if !filepath.IsAbs(r.Command.Cwd) {
		return fmt.Errorf("%w: working directory %q is not absolute", ErrInvalidRequest, r.Command.Cwd)
	}
	switch r.Policy.Mode {
	case ModeReadOnly, ModeWorkspaceWrite:
	default:
		return fmt.Errorf("%w: sandbox mode %v is not for a backend", ErrInvalidRequest, r.Policy.Mode)
	}
	switch r.Policy.Network {
	case NetworkOff, NetworkOn:
	default:
		return fmt.Errorf("%w: network policy %v", ErrInvalidRequest, r.Policy.Network)
	}
	for _, list := range [][]string{r.Policy.WritableRoots, r.Policy.DenyRead} {
		for _, p := range list {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				return fmt.Errorf("%w: path %q is not absolute and clean", ErrInvalidRequest, p)
			}
		}
	}
	for _, n := range r.Policy.ProtectedNames {
		if n == "" || n == "." || n == ".." || strings.ContainsRune(n, '/') {
			return fmt.Errorf("%w: protected name %q is not a single path element", ErrInvalidRequest, n)
		}
	}
	return nil
}

// ExtraFile is a descriptor the host creates and passes to the launch spec.
type ExtraFile int

// Extra files.
const (
	ExtraFileUnspecified ExtraFile = iota
	// ExtraFileReportPipe is the write end of a pipe whose contents the host
	// hands to Explain as the report. It is passed as descriptor 3 plus its
	// index in LaunchSpec.ExtraFiles. The host also reads the first report
	// pipe while the command runs, one JSON object a line with an "event"
	// field: "stopped" (the command stopped, Ctrl-Z; the host suspends
	// itself like a job), "setup_error" with "detail", and "done" with
	// "code" and "signal", which a launcher writes last, once nothing of
	// the sandbox runs any more: on pipes the host then ends the run with
	// that status without waiting for the launcher's own exit.
	ExtraFileReportPipe
)

// LaunchSpec is what the host executes.
type LaunchSpec struct {
	// Argv[0] is an absolute path.
	Argv []string
	// Env holds KEY=VALUE pairs; it replaces the host's environment.
	Env []string
	// Cwd is absolute.
	Cwd        string
	ExtraFiles []ExtraFile
	// Template marks a spec that depends on the command only through its
	// argv, Argv[CommandIndex:], and its environment, the command's with
	// EnvOverrides (KEY=VALUE) applied. The host may reuse a template for
	// other commands under the same policy, working directory and terminal
	// use without calling Prepare, so a backend must only set it when the
	// spec does not depend on the state of the file system (resolve paths
	// at launch instead).
	Template     bool
	CommandIndex int
	EnvOverrides []string
	// Namespaces, on Linux, asks the host to start Argv as the first
	// process of new namespaces, so the backend's launcher needs no
	// process of its own just to create them. A host that does not, or
	// whose kernel refuses, runs Argv as usual: the launcher must work
	// either way (it can tell by being PID 1).
	Namespaces *Namespaces
}

// Namespace kinds a [Namespaces] may name.
var NamespaceKinds = []string{"user", "mount", "pid", "ipc", "uts", "net", "cgroup"}

// Capabilities a [Namespaces] may keep across exec, all of them only in
// the new user namespace.
var NamespaceCaps = []string{"CAP_SYS_ADMIN", "CAP_SETPCAP", "CAP_NET_ADMIN", "CAP_SYS_PTRACE", "CAP_SETUID", "CAP_SETGID", "CAP_SYS_CHROOT", "CAP_DAC_OVERRIDE", "CAP_CHOWN", "CAP_FOWNER", "CAP_MKNOD"}

// Namespaces are the Linux namespaces a launch starts in. The caller's uid
// and gid map to themselves in the new user namespace, which must be one
// of Kinds when any are given.
type Namespaces struct {
	// Kinds are entries of [NamespaceKinds].
	Kinds []string
	// AmbientCaps are entries of [NamespaceCaps] the started program
	// keeps across exec.
	AmbientCaps []string
}

func (n *Namespaces) validate() error {
	if n == nil {
		return nil
	}
	if len(n.Kinds) > 0 && !slices.Contains(n.Kinds, "user") {
		return fmt.Errorf("%w: namespaces without a user namespace need privileges airlock does not have", ErrInvalidResponse)
	}
	for _, k := range n.Kinds {
		if !slices.Contains(NamespaceKinds, k) {
			return fmt.Errorf("%w: unknown namespace kind %q", ErrInvalidResponse, k)
		}
	}
	for _, c := range n.AmbientCaps {
		if !slices.Contains(NamespaceCaps, c) {
			return fmt.Errorf("%w: capability %q cannot be kept in a new namespace", ErrInvalidResponse, c)
		}
	}
	if len(n.AmbientCaps) > 0 && len(n.Kinds) == 0 {
		return fmt.Errorf("%w: ambient capabilities without new namespaces", ErrInvalidResponse)
	}
	return nil
}

// Instantiate returns the spec for another command from a template.
func (s *LaunchSpec) Instantiate(cmd Command) (LaunchSpec, error) {
	if !s.Template {
		return LaunchSpec{}, fmt.Errorf("%w: the launch spec is not a template", ErrInvalidRequest)
	}
	if len(cmd.Argv) == 0 {
		return LaunchSpec{}, fmt.Errorf("%w: empty command", ErrInvalidRequest)
	}
	out := *s
	out.Argv = append(append([]string{}, s.Argv[:s.CommandIndex]...), cmd.Argv...)
	out.Env = applyEnv(cmd.Env, s.EnvOverrides)
	out.ExtraFiles = append([]ExtraFile{}, s.ExtraFiles...)
	out.EnvOverrides = append([]string{}, s.EnvOverrides...)
	if s.Namespaces != nil {
		out.Namespaces = &Namespaces{Kinds: slices.Clone(s.Namespaces.Kinds), AmbientCaps: slices.Clone(s.Namespaces.AmbientCaps)}
	}
	return out, nil
}

// applyEnv sets each KEY=VALUE of overrides in env, replacing earlier
// values of KEY.
func applyEnv(env, overrides []string) []string {
	out := make([]string, 0, len(env)+len(overrides))
	set := map[string]bool{}
	for _, kv := range overrides {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, overrides...)
}

// Validate checks a spec received from a backend. The host treats an invalid
// spec as a failed plugin and runs nothing.
func (s *LaunchSpec) Validate() error {
	if s == nil || len(s.Argv) == 0 {
		return fmt.Errorf("%w: empty launch argv", ErrInvalidResponse)
	}
	if !filepath.IsAbs(s.Argv[0]) {
		return fmt.Errorf("%w: launch program %q is not an absolute path", ErrInvalidResponse, s.Argv[0])
	}
	if !filepath.IsAbs(s.Cwd) {
		return fmt.Errorf("%w: launch directory %q is not absolute", ErrInvalidResponse, s.Cwd)
	}
	for _, kv := range s.Env {
		if i := strings.IndexByte(kv, '='); i <= 0 {
			return fmt.Errorf("%w: environment entry %q is not KEY=VALUE", ErrInvalidResponse, kv)
		}
	}
	for _, f := range s.ExtraFiles {
		if f != ExtraFileReportPipe {
			return fmt.Errorf("%w: unknown extra file kind %d", ErrInvalidResponse, f)
		}
	}
	if len(s.ExtraFiles) > 8 {
		return fmt.Errorf("%w: too many extra files", ErrInvalidResponse)
	}
	if err := s.Namespaces.validate(); err != nil {
		return err
	}
	if s.Template {
		if s.CommandIndex < 1 || s.CommandIndex > len(s.Argv) {
			return fmt.Errorf("%w: template command index %d outside argv", ErrInvalidResponse, s.CommandIndex)
		}
		for _, kv := range s.EnvOverrides {
			if i := strings.IndexByte(kv, '='); i <= 0 {
				return fmt.Errorf("%w: environment override %q is not KEY=VALUE", ErrInvalidResponse, kv)
			}
		}
	}
	return nil
}

// PrepareResponse carries the launch spec.
type PrepareResponse struct {
	Spec LaunchSpec
}

// InfoRequest asks for [Info]. It has no fields yet.
type InfoRequest struct{}

// Info describes a backend.
type Info struct {
	Name         string
	Version      string
	Capabilities []string
	Description  string
}

// Has reports whether the backend lists capability c.
func (i *Info) Has(c string) bool {
	for _, x := range i.Capabilities {
		if x == c {
			return true
		}
	}
	return false
}

// ProbeRequest asks for a [ProbeResult]. It has no fields yet.
type ProbeRequest struct{}

// Feature is one kernel or OS feature a backend relies on.
type Feature struct {
	Name      string
	Available bool
	Detail    string
}

// ProbeResult says what the machine supports.
type ProbeResult struct {
	// Usable is false when no supported policy can be enforced here.
	Usable bool
	// Mode names the enforcement in use, for example "namespaces".
	Mode     string
	Features []Feature
	// Lost lists parts of the policy this mode cannot enforce.
	Lost []string
	// Remedy is the step that would give the full mode.
	Remedy string
}

// DenialKind classifies a denial.
type DenialKind int

// Denial kinds.
const (
	DenialUnspecified DenialKind = iota
	DenialWrite
	DenialRead
	DenialNetwork
	DenialSyscall
)

// String returns the kind's lowercase name.
func (k DenialKind) String() string {
	switch k {
	case DenialWrite:
		return "write"
	case DenialRead:
		return "read"
	case DenialNetwork:
		return "network"
	case DenialSyscall:
		return "syscall"
	}
	return "unknown"
}

// Denial is one thing the sandbox blocked.
type Denial struct {
	Kind      DenialKind
	Path      string
	Host      string
	Port      int
	Operation string
	Syscall   string
	// Guessed is true when inferred from exit status or output.
	Guessed bool
	Detail  string
}

// ExplainRequest describes a finished run.
type ExplainRequest struct {
	Prepared PrepareRequest
	ExitCode int
	// Signal is non-zero when the command died of a signal.
	Signal     int
	OutputTail []byte
	Report     []byte
}

// ExplainResponse lists what was blocked; empty when nothing was.
type ExplainResponse struct {
	Denials []Denial
}
