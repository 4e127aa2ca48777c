// Package assessorplugin connects a [assessor.Assessor] to airlock over
// hashicorp/go-plugin and gRPC: Serve is the one call a plugin's main
// makes, and Plugin is the adapter on both sides of the wire. It lives
// apart from package assessor so that code needing only the types (the
// airlock host among it) does not link gRPC.
package assessorplugin

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/internal/pb/assessorv1"
	"github.com/airlock-dev/airlock/sdk/internal/rpcerr"
	"github.com/airlock-dev/airlock/sdk/internal/serve"
)

// Plugin is the go-plugin adapter for assessors. Assessors set Impl; the
// host leaves it nil and receives an [assessor.Assessor] from Dispense.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl assessor.Assessor
}

var _ plugin.GRPCPlugin = (*Plugin)(nil)

// GRPCServer registers the assessor with the plugin's gRPC server.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	assessorv1.RegisterAssessorServer(s, &server{impl: p.Impl})
	return nil
}

// GRPCClient returns an [assessor.Assessor] that calls the plugin over conn.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return NewClient(conn, nil), nil
}

// NewClient returns an [assessor.Assessor] over an existing gRPC connection. The
// client validates every verdict and returns ErrInvalidResponse for one
// that breaks the contract.
func NewClient(conn grpc.ClientConnInterface, exited func() bool) assessor.Assessor {
	return &client{rpc: assessorv1.NewAssessorClient(conn), exited: exited}
}

// Serve runs impl as an assessor plugin. Call it from main; it returns only
// when the host is done with the plugin.
func Serve(impl assessor.Assessor) {
	serve.Run(serve.Options{Kind: handshake.KindAssessor, Name: "assessor", Plugin: &Plugin{Impl: impl}})
}

type server struct {
	assessorv1.UnimplementedAssessorServer
	impl assessor.Assessor
}

func (s *server) Info(ctx context.Context, _ *assessorv1.InfoRequest) (*assessorv1.InfoResponse, error) {
	i, err := s.impl.Info(ctx, &assessor.InfoRequest{})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return &assessorv1.InfoResponse{Name: i.Name, Version: i.Version, Capabilities: i.Capabilities, Description: i.Description}, nil
}

func (s *server) Assess(ctx context.Context, req *assessorv1.AssessRequest) (*assessorv1.AssessResponse, error) {
	sb := req.GetSandbox()
	v, err := s.impl.Assess(ctx, &assessor.Request{
		Argv: req.GetArgv(), CommandLine: req.GetCommandLine(), Cwd: req.GetCwd(), Platform: req.GetPlatform(),
		Sandbox:        assessor.SandboxSummary{Mode: sb.GetMode(), WritableRoots: sb.GetWritableRoots(), Network: sb.GetNetwork()},
		FailureMessage: req.GetFailureMessage(),
	})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	out := &assessorv1.AssessResponse{Description: v.Description, RiskLevel: assessorv1.RiskLevel(v.Level), Source: v.Source}
	for _, c := range v.Categories {
		out.Categories = append(out.Categories, assessorv1.Category(categoryIndex(c)))
	}
	for _, e := range v.Evidence {
		out.Evidence = append(out.Evidence, &assessorv1.Evidence{Segment: e.Segment, Rule: e.Rule, RiskLevel: assessorv1.RiskLevel(e.Level)})
	}
	return out, nil
}

type client struct {
	rpc    assessorv1.AssessorClient
	exited func() bool
}

func (c *client) Info(ctx context.Context, _ *assessor.InfoRequest) (*assessor.Info, error) {
	r, err := c.rpc.Info(ctx, &assessorv1.InfoRequest{})
	if err != nil {
		return nil, rpcerr.FromStatus(err, c.exited)
	}
	return &assessor.Info{Name: r.GetName(), Version: r.GetVersion(), Capabilities: r.GetCapabilities(), Description: r.GetDescription()}, nil
}

func (c *client) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	r, err := c.rpc.Assess(ctx, &assessorv1.AssessRequest{
		Argv: req.Argv, CommandLine: req.CommandLine, Cwd: req.Cwd, Platform: req.Platform,
		Sandbox: &assessorv1.SandboxSummary{
			Mode: req.Sandbox.Mode, WritableRoots: req.Sandbox.WritableRoots, Network: req.Sandbox.Network,
		},
		FailureMessage: req.FailureMessage,
	})
	if err != nil {
		return nil, rpcerr.FromStatus(err, c.exited)
	}
	v := &assessor.Verdict{Description: r.GetDescription(), Level: assessor.Level(r.GetRiskLevel()), Source: r.GetSource()}
	for _, c := range r.GetCategories() {
		i := int(c)
		if i < 1 || i > len(assessor.Categories) {
			return nil, fmt.Errorf("%w: risk category %d", assessor.ErrInvalidResponse, i)
		}
		v.Categories = append(v.Categories, assessor.Categories[i-1])
	}
	for _, e := range r.GetEvidence() {
		v.Evidence = append(v.Evidence, assessor.Evidence{Segment: e.GetSegment(), Rule: e.GetRule(), Level: assessor.Level(e.GetRiskLevel())})
	}
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return v, nil
}

// categoryIndex is a category's wire number: its place in
// assessor.Categories, counting from 1; 0 for an unknown one.
func categoryIndex(c assessor.Category) int {
	for i, x := range assessor.Categories {
		if x == c {
			return i + 1
		}
	}
	return 0
}
