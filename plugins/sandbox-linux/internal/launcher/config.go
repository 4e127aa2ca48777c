package launcher

import (
	"encoding/json"
	"fmt"
)

// Hidden arguments of the launcher stages.
const (
	// LaunchArg selects the outer stage, which the host starts.
	LaunchArg = "__airlock_launch"
	// InitArg selects the init stage, PID 1 of the sandbox.
	InitArg = "__airlock_launch_init"
	// ProbeArg, after InitArg, makes the init stage only check that the
	// mounts it needs are allowed, for Probe.
	ProbeArg = "probe"
)

// IsLaunchArg reports whether arg selects one of the launcher stages, so
// main can hand over before starting the plugin server.
func IsLaunchArg(arg string) bool { return arg == LaunchArg || arg == InitArg }

// NamespaceKinds are the namespaces the sandbox runs in: a network
// namespace of its own only when the network is off.
func NamespaceKinds(networkOn bool) []string {
	kinds := []string{"user", "mount", "pid", "ipc", "uts"}
	if !networkOn {
		kinds = append(kinds, "net")
	}
	return kinds
}

// InitCaps are the capabilities the init stage needs in its user
// namespace (CAP_SYS_PTRACE lets the supervisor read the command's memory
// where Yama restricts ptrace to administrators), kept across exec as ambient capabilities (a non-root uid
// loses every capability at execve otherwise). It drops them all before
// the command starts.
var InitCaps = []string{"CAP_SYS_ADMIN", "CAP_SETPCAP", "CAP_NET_ADMIN", "CAP_SYS_PTRACE"}

// Config is what Prepare hands the launcher, as JSON in argv, followed by
// the command. Paths are absolute; the outer stage resolves them against
// the file system at launch and hands the init stage the result.
type Config struct {
	// Argv is the command; it travels after the config in the launcher's
	// own argv, so one config serves any command.
	Argv          []string `json:"argv,omitempty"`
	Cwd           string   `json:"cwd"`
	Mode          string   `json:"mode"`
	WritableRoots []string `json:"writable_roots,omitempty"`
	// ProtectedNames stay read-only under every writable root.
	ProtectedNames []string `json:"protected_names,omitempty"`
	// Protected are the absolute paths resolve found to keep read-only.
	Protected []string `json:"protected,omitempty"`
	// Missing are the protected names absent from a writable root at
	// launch; the supervisor refuses to create them and the outer stage
	// moves aside any that appear anyway.
	Missing   []string `json:"missing,omitempty"`
	DenyRead  []string `json:"deny_read,omitempty"`
	NetworkOn bool     `json:"network_on"`
	TTY       bool     `json:"tty"`
	// ReportFD is the descriptor of the report pipe, or -1.
	ReportFD int `json:"report_fd"`
	// Degraded selects the Landlock + seccomp mode without namespaces.
	Degraded bool `json:"degraded,omitempty"`
}

// Encode renders the config for the launch spec's argv.
func (c *Config) Encode() (string, error) {
	cc := *c
	cc.Argv = nil
	b, err := json.Marshal(&cc)
	return string(b), err
}

func decodeConfig(s string) (*Config, error) {
	var c Config
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return nil, fmt.Errorf("decode launch config: %w", err)
	}
	return &c, nil
}
