package broker

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

type (
	hclogLogger = hclog.Logger
	execCmd     = exec.Cmd
)

// guardedSandbox puts a deadline on every call, names the plugin in every
// error, turns a dead plugin into ErrPluginExited, and validates launch
// specs before the host can run them.
type guardedSandbox struct {
	inner   sandbox.Sandbox
	client  *plugin.Client
	timeout time.Duration
	name    string
}

func (g *guardedSandbox) wrap(op string, err error) error {
	if g.client.Exited() && !errors.Is(err, sandbox.ErrPluginExited) {
		err = fmt.Errorf("%w: %v", sandbox.ErrPluginExited, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("sandbox plugin %s: %s: no answer within %v: %w", g.name, op, g.timeout, err)
	}
	return fmt.Errorf("sandbox plugin %s: %s: %w", g.name, op, err)
}

func (g *guardedSandbox) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, g.timeout)
}

func (g *guardedSandbox) Info(ctx context.Context, req *sandbox.InfoRequest) (*sandbox.Info, error) {
	ctx, cancel := g.ctx(ctx)
	defer cancel()
	r, err := g.inner.Info(ctx, req)
	if err != nil {
		return nil, g.wrap("info", err)
	}
	return r, nil
}

func (g *guardedSandbox) Probe(ctx context.Context, req *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	ctx, cancel := g.ctx(ctx)
	defer cancel()
	r, err := g.inner.Probe(ctx, req)
	if err != nil {
		return nil, g.wrap("probe", err)
	}
	return r, nil
}

func (g *guardedSandbox) Prepare(ctx context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	ctx, cancel := g.ctx(ctx)
	defer cancel()
	r, err := g.inner.Prepare(ctx, req)
	if err != nil {
		return nil, g.wrap("prepare", err)
	}
	if err := r.Spec.Validate(); err != nil {
		return nil, g.wrap("prepare", err)
	}
	return r, nil
}

func (g *guardedSandbox) Explain(ctx context.Context, req *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	ctx, cancel := g.ctx(ctx)
	defer cancel()
	r, err := g.inner.Explain(ctx, req)
	if err != nil {
		return nil, g.wrap("explain", err)
	}
	return r, nil
}

// guardedAssessor names the plugin in errors and marks a dead plugin. The
// caller sets the deadline, which differs between rules and models.
type guardedAssessor struct {
	inner  assessor.Assessor
	client *plugin.Client
	name   string
}

func (g *guardedAssessor) wrap(op string, err error) error {
	if g.client.Exited() && !errors.Is(err, assessor.ErrPluginExited) {
		err = fmt.Errorf("%w: %v", assessor.ErrPluginExited, err)
	}
	return fmt.Errorf("assessor plugin %s: %s: %w", g.name, op, err)
}

func (g *guardedAssessor) Info(ctx context.Context, req *assessor.InfoRequest) (*assessor.Info, error) {
	r, err := g.inner.Info(ctx, req)
	if err != nil {
		return nil, g.wrap("info", err)
	}
	return r, nil
}

func (g *guardedAssessor) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	r, err := g.inner.Assess(ctx, req)
	if err != nil {
		return nil, g.wrap("assess", err)
	}
	if err := r.Validate(); err != nil {
		return nil, g.wrap("assess", err)
	}
	return r, nil
}
