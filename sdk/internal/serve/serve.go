// Package serve is the bootstrap every airlock plugin shares: the go-plugin
// handshake, hclog-shaped JSON logging to stderr, and a watch on the host so
// that a plugin never outlives it.
package serve

import (
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/airlock-dev/airlock/sdk/handshake"
)

// Options describe the plugin being served.
type Options struct {
	// Kind is handshake.KindSandbox or handshake.KindAssessor.
	Kind string
	// Name is used in log lines.
	Name string
	// Plugin is the go-plugin adapter with its implementation set.
	Plugin plugin.Plugin
}

// Run serves the plugin until the host disconnects. It never returns when
// started by the host; started by hand, go-plugin prints a short
// explanation and exits with status 1.
func Run(opts Options) {
	logger := hclog.New(&hclog.LoggerOptions{
		Name:       opts.Name,
		Level:      hclog.LevelFromString(os.Getenv(handshake.EnvLogLevel)),
		Output:     os.Stderr,
		JSONFormat: true,
	})
	if ppid, err := strconv.Atoi(os.Getenv(handshake.EnvParentPID)); err == nil && ppid > 1 {
		go watchParent(ppid, logger)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{ProtocolVersion: handshake.ProtocolVersion, MagicCookieKey: handshake.MagicCookieKey, MagicCookieValue: handshake.MagicCookieValue},
		VersionedPlugins: map[int]plugin.PluginSet{
			handshake.ProtocolVersion: {opts.Kind: opts.Plugin},
		},
		GRPCServer: plugin.DefaultGRPCServer,
		Logger:     logger,
	})
}

// watchParent exits when the host is gone. The host also sets a parent-death
// signal where the OS has one; this poll covers the rest (a host thread that
// exited, or an OS without such a signal).
func watchParent(ppid int, logger hclog.Logger) {
	for {
		if os.Getppid() != ppid {
			logger.Warn("host process is gone; exiting", "host_pid", ppid)
			os.Exit(2)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
