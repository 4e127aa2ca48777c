package linuxbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

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

func (b *Backend) executable() (string, error) {
	b.once.Do(func() {
		b.self, b.err = os.Executable()
		if b.err == nil {
			b.self, b.err = filepath.EvalSymlinks(b.self)
		}
	})
	return b.self, b.err
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
	cwd, err := filepath.EvalSymlinks(req.Command.Cwd)
	if err != nil {
		return nil, fmt.Errorf("%w: working directory: %v", sandbox.ErrInvalidRequest, err)
	}
	cfg := &launcher.Config{
		Argv:      req.Command.Argv,
		Cwd:       req.Command.Cwd,
		Mode:      req.Policy.Mode.String(),
		NetworkOn: req.Policy.Network == sandbox.NetworkOn,
		TTY:       req.TTY,
		ReportFD:  3,
		Degraded:  req.Policy.AllowDegraded,
	}
	if req.Policy.Mode == sandbox.ModeWorkspaceWrite {
		cfg.WritableRoots = resolveRoots(req.Policy.WritableRoots)
		cfg.Protected = protectedPaths(cfg.WritableRoots, req.Policy.ProtectedNames)
	}
	for _, p := range req.Policy.DenyRead {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			cfg.DenyRead = appendUnique(cfg.DenyRead, real)
		}
		// A path that does not exist has nothing to hide today; it is kept
		// so a file created later under a writable root cannot be read.
		cfg.DenyRead = appendUnique(cfg.DenyRead, p)
	}
	for _, d := range cfg.DenyRead {
		if within(cwd, d) {
			return nil, fmt.Errorf("%w: the working directory %s is inside denied path %s", sandbox.ErrInvalidRequest, req.Command.Cwd, d)
		}
	}
	enc, err := cfg.Encode()
	if err != nil {
		return nil, fmt.Errorf("encode launch config: %w", err)
	}
	return &sandbox.PrepareResponse{Spec: sandbox.LaunchSpec{
		Argv:       []string{self, launcher.LaunchArg, enc},
		Env:        commandEnv(req.Command.Env),
		Cwd:        req.Command.Cwd,
		ExtraFiles: []sandbox.ExtraFile{sandbox.ExtraFileReportPipe},
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

func resolveRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue // a root that does not exist cannot be bound
		}
		out = appendUnique(out, real)
	}
	return out
}

// protectedPaths lists the existing protected entries under each writable
// root, plus the real git directory a worktree or submodule's .git file
// points at. A protected path the user made a writable root of its own
// (--add-dir .git, to let git commit) stays writable.
func protectedPaths(roots, names []string) []string {
	return dropExplicit(existingProtected(roots, names), roots)
}

func existingProtected(roots, names []string) []string {
	var out []string
	for _, r := range roots {
		for _, g := range nestedGitDirs(r) {
			out = appendUnique(out, g)
			if fi, err := os.Lstat(g); err == nil && fi.Mode().IsRegular() {
				if gd := gitdirOf(g); gd != "" {
					out = appendUnique(out, gd)
				}
			}
		}
	}
	for _, r := range roots {
		for _, n := range names {
			p := filepath.Join(r, n)
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			out = appendUnique(out, p)
			if n == ".git" && fi.Mode().IsRegular() {
				if gd := gitdirOf(p); gd != "" {
					out = appendUnique(out, gd)
				}
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				if real, err := filepath.EvalSymlinks(p); err == nil {
					out = appendUnique(out, real)
				}
			}
		}
	}
	return out
}

func dropExplicit(protected, roots []string) []string {
	kept := protected[:0]
	for _, p := range protected {
		explicit := false
		for _, r := range roots {
			explicit = explicit || within(r, p)
		}
		if !explicit {
			kept = append(kept, p)
		}
	}
	return kept
}

// Bounds of the walk for nested repositories: deep enough for a directory
// of clones or a vendored checkout, cheap enough to run per command.
const (
	nestedGitDepth   = 4
	nestedGitEntries = 20000
)

// nestedGitDirs finds .git entries of repositories nested below root (not
// root's own). It does not descend into .git directories, node_modules or
// symbolic links, and stops after nestedGitEntries entries.
func nestedGitDirs(root string) []string {
	var out []string
	budget := nestedGitEntries
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > nestedGitDepth || budget <= 0 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		budget -= len(entries)
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			if name == ".git" {
				if depth > 0 {
					out = append(out, p)
				}
				continue
			}
			if e.IsDir() && name != "node_modules" {
				walk(p, depth+1)
			}
		}
	}
	walk(root, 0)
	return out
}

// gitdirOf reads a "gitdir: PATH" pointer file.
func gitdirOf(file string) string {
	b, err := os.ReadFile(file)
	if err != nil || len(b) > 4096 {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(file), dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	return real
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func within(p, root string) bool { return launcher.Within(p, root) }
