package linuxbox

import (
	"encoding/json"
	"fmt"
)

// Hidden first arguments of the launcher stages.
const (
	launchArg = "__airlock_launch"
	initArg   = "__airlock_launch_init"
)

// IsLaunchArg reports whether arg selects one of the launcher stages, so
// main can hand over before starting the plugin server.
func IsLaunchArg(arg string) bool { return arg == launchArg || arg == initArg }

// launchConfig is what Prepare hands the launcher, as JSON in argv. It holds
// resolved, absolute paths only.
type launchConfig struct {
	Argv          []string `json:"argv"`
	Cwd           string   `json:"cwd"`
	Mode          string   `json:"mode"`
	WritableRoots []string `json:"writable_roots,omitempty"`
	// Protected are absolute paths to keep read-only (existing ones).
	Protected []string `json:"protected,omitempty"`
	DenyRead  []string `json:"deny_read,omitempty"`
	NetworkOn bool     `json:"network_on"`
	TTY       bool     `json:"tty"`
	// ReportFD is the descriptor of the report pipe, or -1.
	ReportFD int `json:"report_fd"`
	// Degraded selects the Landlock + seccomp mode without namespaces.
	Degraded bool `json:"degraded,omitempty"`
}

func (c *launchConfig) encode() (string, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

func decodeConfig(s string) (*launchConfig, error) {
	var c launchConfig
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return nil, fmt.Errorf("decode launch config: %w", err)
	}
	if len(c.Argv) == 0 {
		return nil, fmt.Errorf("decode launch config: empty command")
	}
	return &c, nil
}
