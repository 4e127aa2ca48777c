// Package sandboxplugin connects a [sandbox.Sandbox] to airlock over
// hashicorp/go-plugin and gRPC: Serve is the one call a plugin's main
// makes, and Plugin is the adapter on both sides of the wire. It lives
// apart from package sandbox so that code needing only the types (the
// airlock host among it) does not link gRPC.
package sandboxplugin

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/internal/pb/sandboxv1"
	"github.com/airlock-dev/airlock/sdk/internal/rpcerr"
	"github.com/airlock-dev/airlock/sdk/internal/serve"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Plugin is the go-plugin adapter for sandbox backends. Backends set Impl;
// the host leaves it nil and receives a [sandbox.Sandbox] from Dispense.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl sandbox.Sandbox
}

var _ plugin.GRPCPlugin = (*Plugin)(nil)

// GRPCServer registers the backend with the plugin's gRPC server.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	sandboxv1.RegisterSandboxServer(s, &server{impl: p.Impl})
	return nil
}

// GRPCClient returns a [sandbox.Sandbox] that calls the plugin over conn.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return NewClient(conn, nil), nil
}

// NewClient returns a [sandbox.Sandbox] over an existing gRPC connection. exited, if
// not nil, reports whether the plugin process is gone; transport errors then
// wrap ErrPluginExited.
func NewClient(conn grpc.ClientConnInterface, exited func() bool) sandbox.Sandbox {
	return &client{rpc: sandboxv1.NewSandboxClient(conn), exited: exited}
}

// Serve runs impl as a sandbox plugin. Call it from main; it returns only
// when the host is done with the plugin.
func Serve(impl sandbox.Sandbox) {
	serve.Run(serve.Options{Kind: handshake.KindSandbox, Name: "sandbox", Plugin: &Plugin{Impl: impl}})
}

type server struct {
	sandboxv1.UnimplementedSandboxServer
	impl sandbox.Sandbox
}

func (s *server) Info(ctx context.Context, _ *sandboxv1.InfoRequest) (*sandboxv1.InfoResponse, error) {
	info, err := s.impl.Info(ctx, &sandbox.InfoRequest{})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return infoToProto(info), nil
}

func (s *server) Probe(ctx context.Context, _ *sandboxv1.ProbeRequest) (*sandboxv1.ProbeResponse, error) {
	res, err := s.impl.Probe(ctx, &sandbox.ProbeRequest{})
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return probeToProto(res), nil
}

func (s *server) Prepare(ctx context.Context, req *sandboxv1.PrepareRequest) (*sandboxv1.PrepareResponse, error) {
	res, err := s.impl.Prepare(ctx, prepareFromProto(req))
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return &sandboxv1.PrepareResponse{Spec: specToProto(&res.Spec)}, nil
}

func (s *server) Explain(ctx context.Context, req *sandboxv1.ExplainRequest) (*sandboxv1.ExplainResponse, error) {
	res, err := s.impl.Explain(ctx, explainFromProto(req))
	if err != nil {
		return nil, rpcerr.ToStatus(err)
	}
	return explainRespToProto(res), nil
}

type client struct {
	rpc    sandboxv1.SandboxClient
	exited func() bool
}

func (c *client) err(err error) error { return rpcerr.FromStatus(err, c.exited) }

func (c *client) Info(ctx context.Context, _ *sandbox.InfoRequest) (*sandbox.Info, error) {
	res, err := c.rpc.Info(ctx, &sandboxv1.InfoRequest{})
	if err != nil {
		return nil, c.err(err)
	}
	return infoFromProto(res), nil
}

func (c *client) Probe(ctx context.Context, _ *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	res, err := c.rpc.Probe(ctx, &sandboxv1.ProbeRequest{})
	if err != nil {
		return nil, c.err(err)
	}
	return probeFromProto(res), nil
}

func (c *client) Prepare(ctx context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	res, err := c.rpc.Prepare(ctx, prepareToProto(req))
	if err != nil {
		return nil, c.err(err)
	}
	return &sandbox.PrepareResponse{Spec: specFromProto(res.GetSpec())}, nil
}

func (c *client) Explain(ctx context.Context, req *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	res, err := c.rpc.Explain(ctx, explainToProto(req))
	if err != nil {
		return nil, c.err(err)
	}
	return explainRespFromProto(res), nil
}
