package broker

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/airlock-dev/airlock/internal/logging"
	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/assessor/assessorplugin"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/sandbox/sandboxplugin"
)

// ErrStart is pluginhost.ErrStart, named here for brevity.
var ErrStart = pluginhost.ErrStart

// Options configure a [Host].
type Options struct {
	Log          *logging.Logger
	StartTimeout time.Duration
	CallTimeout  time.Duration
	// SocketDir is a private (0700) directory for plugin sockets.
	SocketDir string
	// Env is the explicit environment plugins get, on top of go-plugin's
	// handshake variables.
	Env []string
	UID int
}

// Host starts plugins and stops them all on Close.
type Host struct {
	opts    Options
	hclog   hclog.Logger
	mu      sync.Mutex
	clients []*plugin.Client
	runners []*cmdRunner
}

// New returns a host. It starts nothing until asked.
func New(opts Options) *Host {
	if opts.Log == nil {
		opts.Log = logging.Discard()
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 5 * time.Second
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	return &Host{opts: opts, hclog: hclog.New(&hclog.LoggerOptions{
		Name: "airlock", Output: opts.Log.Writer, JSONFormat: true, Level: hclog.LevelFromString(opts.Log.Level),
	})}
}

// Close kills every plugin this host started. Plugins hold no state worth a
// graceful shutdown, and a kill never waits on a plugin that hangs.
func (h *Host) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.runners {
		_ = r.Kill(context.Background())
	}
	for _, c := range h.clients {
		c.Kill()
	}
	h.clients, h.runners = nil, nil
}

// start launches e and returns the dispensed interface.
func (h *Host) start(ctx context.Context, e pluginhost.Entry, ps plugin.Plugin) (any, *plugin.Client, error) {
	path, err := pluginhost.Check(e, h.opts.UID)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	if err := os.MkdirAll(h.opts.SocketDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("%w: plugin socket directory: %v", ErrStart, err)
	}
	_ = os.Chmod(h.opts.SocketDir, 0o700)
	env := append([]string{
		handshake.EnvParentPID + "=" + strconv.Itoa(os.Getpid()),
		handshake.EnvLogLevel + "=" + h.opts.Log.Level,
	}, h.opts.Env...)
	env = append(env, e.Env...)
	var r *cmdRunner
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  plugin.HandshakeConfig{ProtocolVersion: handshake.ProtocolVersion, MagicCookieKey: handshake.MagicCookieKey, MagicCookieValue: handshake.MagicCookieValue},
		VersionedPlugins: map[int]plugin.PluginSet{handshake.ProtocolVersion: {e.Kind: ps}},
		RunnerFunc: func(_ hclogLogger, cmd *execCmd, _ string) (runner.Runner, error) {
			var err error
			r, err = newRunner(path, cmd.Env, env)
			return r, err
		},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     h.opts.StartTimeout,
		Logger:           h.hclog.Named(e.Name),
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: h.opts.SocketDir},
		SkipHostEnv:      true,
	})
	h.mu.Lock()
	h.clients = append(h.clients, client)
	h.mu.Unlock()
	started := time.Now()
	rpc, err := clientWithDeadline(ctx, client, h.opts.StartTimeout)
	if r != nil {
		h.mu.Lock()
		h.runners = append(h.runners, r)
		h.mu.Unlock()
	}
	if err != nil {
		client.Kill()
		return nil, nil, fmt.Errorf("%w: %s (%s): %s", ErrStart, e.Name, path, oneLine(err))
	}
	raw, err := rpc.Dispense(e.Kind)
	if err != nil {
		client.Kill()
		return nil, nil, fmt.Errorf("%w: %s: %s", ErrStart, e.Name, oneLine(err))
	}
	h.opts.Log.Slog.Debug("plugin started", logging.KeyPlugin, e.Name, logging.KeyKind, e.Kind,
		logging.KeyPath, path, logging.KeyElapsed, time.Since(started))
	return raw, client, nil
}

// clientWithDeadline runs the handshake, giving up at the deadline or when
// ctx ends, whichever is first; go-plugin's own timeout covers only part
// of the start.
func clientWithDeadline(ctx context.Context, c *plugin.Client, d time.Duration) (plugin.ClientProtocol, error) {
	type result struct {
		rpc plugin.ClientProtocol
		err error
	}
	ch := make(chan result, 1)
	go func() {
		rpc, err := c.Client()
		ch <- result{rpc, err}
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.rpc, r.err
	case <-t.C:
		c.Kill()
		return nil, fmt.Errorf("no handshake within %v", d)
	case <-ctx.Done():
		c.Kill()
		return nil, ctx.Err()
	}
}

// oneLine keeps the first line of an error; go-plugin's messages can span
// several, and the user gets one.
func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Sandbox starts the sandbox plugin e.
func (h *Host) Sandbox(ctx context.Context, e pluginhost.Entry) (sandbox.Sandbox, error) {
	raw, client, err := h.start(ctx, e, &sandboxplugin.Plugin{})
	if err != nil {
		return nil, err
	}
	sb, ok := raw.(sandbox.Sandbox)
	if !ok {
		return nil, fmt.Errorf("%w: %s does not implement the sandbox interface", ErrStart, e.Name)
	}
	return &guardedSandbox{inner: sb, client: client, timeout: h.opts.CallTimeout, name: e.Name}, nil
}

// Assessor starts the assessor plugin e.
func (h *Host) Assessor(ctx context.Context, e pluginhost.Entry) (assessor.Assessor, error) {
	raw, client, err := h.start(ctx, e, &assessorplugin.Plugin{})
	if err != nil {
		return nil, err
	}
	a, ok := raw.(assessor.Assessor)
	if !ok {
		return nil, fmt.Errorf("%w: %s does not implement the assessor interface", ErrStart, e.Name)
	}
	return &guardedAssessor{inner: a, client: client, name: e.Name}, nil
}
