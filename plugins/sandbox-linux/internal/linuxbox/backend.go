package linuxbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/launcher"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Backend is the Linux sandbox plugin.
type Backend struct {
	once  sync.Once
	self  string
	err   error
	probe func(ctx context.Context) *sandbox.ProbeResult
}

// New returns the backend. Its launch specs re-execute this binary.
func New() *Backend { return &Backend{probe: probeMachine} }

// NewWithLauncher returns a backend whose launch specs execute the launcher
// at path, a build of this plugin. Tests use it, since a test binary built
// with cgo cannot apply Landlock to all its threads.
func NewWithLauncher(path string) *Backend {
	b := New()
	b.once.Do(func() { b.self = path })
	return b
}

var _ sandbox.Sandbox = (*Backend)(nil)

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Info implements [sandbox.Sandbox].
func (b *Backend) Info(context.Context, *sandbox.InfoRequest) (*sandbox.Info, error) {
	return &sandbox.Info{
		Name:    "linux",
		Version: version(),
		Capabilities: []string{
			sandbox.CapNetworkOff, sandbox.CapDenyRead, sandbox.CapProtectedPaths,
			sandbox.CapPrivateTmp, sandbox.CapReport, sandbox.CapProcessIsolation,
		},
		Description: "namespaces + Landlock + seccomp; no setuid helper, nothing to install",
	}, nil
}

// Probe implements [sandbox.Sandbox].
func (b *Backend) Probe(ctx context.Context, _ *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	return b.probe(ctx), nil
}

// executable returns the program launch specs run: the lean launcher
// beside this binary when it is installed and safe to run, else this
// binary, whose hidden launch mode is the same code.
func (b *Backend) executable() (string, error) {
	b.once.Do(func() {
		b.self, b.err = os.Executable()
		if b.err == nil {
			b.self, b.err = filepath.EvalSymlinks(b.self)
		}
		if b.err == nil {
			if l := b.self + "-launcher"; safeToRun(l) {
				b.self = l
			}
		}
	})
	return b.self, b.err
}

// safeToRun applies the host's rules for plugin binaries to the launcher:
// a regular executable owned by the user or root, not writable by others.
func safeToRun(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Getuid() || st.Uid == 0)
}

// Prepare implements [sandbox.Sandbox]. It resolves every path now, in the
// plugin, so the launcher only mounts what it is given.
func (b *Backend) Prepare(_ context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	self, err := b.executable()
	if err != nil {
		return nil, fmt.Errorf("%w: locate launcher: %v", sandbox.ErrUnavailable, err)
	}
	cfg := &launcher.Config{
		Cwd:       req.Command.Cwd,
		Mode:      req.Policy.Mode.String(),
		NetworkOn: req.Policy.Network == sandbox.NetworkOn,
		TTY:       req.TTY,
		ReportFD:  3,
		Degraded:  req.Policy.AllowDegraded,
		DenyRead:  req.Policy.DenyRead,
	}
	if req.Policy.Mode == sandbox.ModeWorkspaceWrite {
		cfg.WritableRoots = req.Policy.WritableRoots
		cfg.ProtectedNames = req.Policy.ProtectedNames
	}
	enc, err := cfg.Encode()
	if err != nil {
		return nil, fmt.Errorf("encode launch config: %w", err)
	}
	// The spec is a template: the command is its argv's tail and its
	// environment only gains TMPDIR, and the launcher resolves every path
	// at launch. The host may reuse it for other commands under the same
	// policy without asking again.
	head := []string{self, launcher.LaunchArg, enc}
	return &sandbox.PrepareResponse{Spec: sandbox.LaunchSpec{
		Argv:         append(head, req.Command.Argv...),
		Env:          commandEnv(req.Command.Env),
		Cwd:          req.Command.Cwd,
		ExtraFiles:   []sandbox.ExtraFile{sandbox.ExtraFileReportPipe},
		Template:     true,
		CommandIndex: len(head),
		EnvOverrides: []string{"TMPDIR=/tmp"},
		// A host that starts the launcher in its namespaces saves it
		// the outer stage, a whole process start.
		Namespaces: &sandbox.Namespaces{Kinds: launcher.NamespaceKinds(cfg.NetworkOn), AmbientCaps: launcher.InitCaps},
	}}, nil
}

// commandEnv points temporary files at the private /tmp, since the caller's
// TMPDIR is usually not writable (or not even visible) inside.
func commandEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMPDIR=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TMPDIR=/tmp")
}

func within(p, root string) bool { return launcher.Within(p, root) }
