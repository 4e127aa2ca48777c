package assessor

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/internal/pb/assessorv1"
	"github.com/airlock-dev/airlock/sdk/internal/rpcerr"
	"github.com/airlock-dev/airlock/sdk/internal/serve"
)

// Assessor is implemented by risk assessors. Assess may be called
// concurrently; it must honour ctx's deadline and return promptly when ctx
// is done.
type Assessor interface {
	// Info names the assessor. It must be cheap.
	Info(ctx context.Context, req *InfoRequest) (*Info, error)
	// Assess rates one command.
	Assess(ctx context.Context, req *Request) (*Verdict, error)
}

// Plugin is the go-plugin adapter for assessors. Assessors set Impl; the
// host leaves it nil and receives an [Assessor] from Dispense.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Assessor
}

var _ plugin.GRPCPlugin = (*Plugin)(nil)

// GRPCServer registers the assessor with the plugin's gRPC server.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	assessorv1.RegisterAssessorServer(s, &server{impl: p.Impl})
	return nil
}

// GRPCClient returns an [Assessor] that calls the plugin over conn.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return NewClient(conn, nil), nil
}

// NewClient returns an [Assessor] over an existing gRPC connection. The
// client validates every verdict and returns ErrInvalidResponse for one
// that breaks the contract.
func NewClient(conn grpc.ClientConnInterface, exited func() bool) Assessor {
	return &client{rpc: assessorv1.NewAssessorClient(conn), exited: exited}
}

// Serve runs impl as an assessor plugin. Call it from main; it returns only
// when the host is done with the plugin.
func Serve(impl Assessor) {
	serve.Run(serve.Options{Kind: handshake.KindAssessor, Name: "assessor", Plugin: &Plugin{Impl: impl}})
}

type server struct {
	assessorv1.UnimplementedAssessorServer
	impl Assessor
}

func (s *server) Info(ctx context.Context, _ *assessorv1.InfoRequest) (*assessorv1.InfoResponse, error) {
	i, err := s.impl.Info(ctx, &InfoRequest{})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return &assessorv1.InfoResponse{Name: i.Name, Version: i.Version, Capabilities: i.Capabilities, Description: i.Description}, nil
}

func (s *server) Assess(ctx context.Context, req *assessorv1.AssessRequest) (*assessorv1.AssessResponse, error) {
	sb := req.GetSandbox()
	v, err := s.impl.Assess(ctx, &Request{
		Argv: req.GetArgv(), CommandLine: req.GetCommandLine(), Cwd: req.GetCwd(), Platform: req.GetPlatform(),
		Sandbox:        SandboxSummary{Mode: sb.GetMode(), WritableRoots: sb.GetWritableRoots(), Network: sb.GetNetwork()},
		FailureMessage: req.GetFailureMessage(),
	})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	out := &assessorv1.AssessResponse{Description: v.Description, RiskLevel: assessorv1.RiskLevel(v.Level), Source: v.Source}
	for _, c := range v.Categories {
		out.Categories = append(out.Categories, assessorv1.Category(c.index()))
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

func (c *client) Info(ctx context.Context, _ *InfoRequest) (*Info, error) {
	r, err := c.rpc.Info(ctx, &assessorv1.InfoRequest{})
	if err != nil {
		return nil, rpcerr.FromStatus(err, c.exited)
	}
	return &Info{Name: r.GetName(), Version: r.GetVersion(), Capabilities: r.GetCapabilities(), Description: r.GetDescription()}, nil
}

func (c *client) Assess(ctx context.Context, req *Request) (*Verdict, error) {
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
	v := &Verdict{Description: r.GetDescription(), Level: Level(r.GetRiskLevel()), Source: r.GetSource()}
	for _, c := range r.GetCategories() {
		i := int(c)
		if i < 1 || i > len(Categories) {
			return nil, fmt.Errorf("%w: risk category %d", ErrInvalidResponse, i)
		}
		v.Categories = append(v.Categories, Categories[i-1])
	}
	for _, e := range r.GetEvidence() {
		v.Evidence = append(v.Evidence, Evidence{Segment: e.GetSegment(), Rule: e.GetRule(), Level: Level(e.GetRiskLevel())})
	}
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return v, nil
}
