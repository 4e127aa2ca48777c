package seatbelt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// sandboxExec is Apple's Seatbelt front end, present on every macOS.
const sandboxExec = "/usr/bin/sandbox-exec"

// Backend is the macOS sandbox plugin.
type Backend struct{}

// New returns the backend.
func New() *Backend { return &Backend{} }

var _ sandbox.Sandbox = (*Backend)(nil)

// Info implements [sandbox.Sandbox].
func (b *Backend) Info(context.Context, *sandbox.InfoRequest) (*sandbox.Info, error) {
	v := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return &sandbox.Info{Name: "macos", Version: v, Description: "Seatbelt profiles through sandbox-exec",
		Capabilities: []string{sandbox.CapNetworkOff, sandbox.CapDenyRead, sandbox.CapProtectedPaths}}, nil
}

// Probe implements [sandbox.Sandbox].
func (b *Backend) Probe(context.Context, *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	_, err := os.Stat(sandboxExec)
	ok := runtime.GOOS == "darwin" && err == nil
	res := &sandbox.ProbeResult{Usable: ok, Mode: "seatbelt",
		Features: []sandbox.Feature{{Name: "sandbox-exec", Available: ok, Detail: sandboxExec}},
		Lost:     []string{"no private /tmp: a per-command TMPDIR is used", "processes outside the sandbox stay visible"}}
	if !ok {
		res.Mode, res.Remedy = "none", "this backend needs macOS"
	}
	return res, nil
}

// Prepare implements [sandbox.Sandbox].
func (b *Backend) Prepare(_ context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if runtime.GOOS != "darwin" {
		return nil, fmt.Errorf("%w: the macOS backend runs only on macOS", sandbox.ErrUnavailable)
	}
	tmp, err := os.MkdirTemp("", "airlock-")
	if err != nil {
		return nil, fmt.Errorf("%w: temp dir: %v", sandbox.ErrUnavailable, err)
	}
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	profile, params := Profile(req.Policy, tmp)
	argv := []string{sandboxExec, "-p", profile}
	for _, p := range params {
		argv = append(argv, "-D", p)
	}
	argv = append(append(argv, "--"), req.Command.Argv...)
	env := append(append([]string{}, req.Command.Env...), "TMPDIR="+tmp)
	return &sandbox.PrepareResponse{Spec: sandbox.LaunchSpec{Argv: argv, Env: env, Cwd: req.Command.Cwd}}, nil
}

// Explain implements [sandbox.Sandbox]. Seatbelt reports denials to the
// unified log only; without access to it, nothing is claimed.
func (b *Backend) Explain(context.Context, *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	return &sandbox.ExplainResponse{}, nil
}
