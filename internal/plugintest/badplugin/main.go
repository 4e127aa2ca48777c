// Command badplugin is a misbehaving sandbox plugin for the host's failure
// tests. Its behaviour comes from its file name, airlock-sandbox-MODE:
// garbage (prints junk instead of the handshake), hang (never handshakes),
// crash (exits at once), v9 (speaks only protocol version 9), die (exits
// in the middle of Prepare), stall (never answers Prepare), badspec (answers
// Prepare with a relative program path) and passthrough (runs the command
// unconfined; for host plumbing tests only).
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/sandbox/sandboxplugin"
)

type bad struct{ mode string }

func (b *bad) Info(context.Context, *sandbox.InfoRequest) (*sandbox.Info, error) {
	return &sandbox.Info{Name: "bad-" + b.mode, Version: "0", Capabilities: []string{
		sandbox.CapNetworkOff, sandbox.CapDenyRead, sandbox.CapProtectedPaths}}, nil
}

func (b *bad) Probe(context.Context, *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	return &sandbox.ProbeResult{Usable: true, Mode: b.mode}, nil
}

func (b *bad) Prepare(ctx context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	switch b.mode {
	case "die":
		os.Exit(3)
	case "stall":
		<-ctx.Done()
		time.Sleep(time.Hour)
	case "badspec":
		return &sandbox.PrepareResponse{Spec: sandbox.LaunchSpec{Argv: []string{"true"}, Cwd: req.Command.Cwd}}, nil
	}
	path, err := exec.LookPath(req.Command.Argv[0])
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(path)
	return &sandbox.PrepareResponse{Spec: sandbox.LaunchSpec{
		Argv: append([]string{abs}, req.Command.Argv[1:]...), Env: req.Command.Env, Cwd: req.Command.Cwd}}, nil
}

func (b *bad) Explain(context.Context, *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	return &sandbox.ExplainResponse{}, nil
}

func main() {
	mode := strings.TrimPrefix(filepath.Base(os.Args[0]), "airlock-sandbox-")
	switch mode {
	case "garbage":
		fmt.Println("this is not a go-plugin handshake line")
		time.Sleep(time.Minute)
		return
	case "hang":
		time.Sleep(time.Minute)
		return
	case "crash":
		os.Exit(2)
	case "v9":
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig:  plugin.HandshakeConfig{ProtocolVersion: handshake.ProtocolVersion, MagicCookieKey: handshake.MagicCookieKey, MagicCookieValue: handshake.MagicCookieValue},
			VersionedPlugins: map[int]plugin.PluginSet{9: {handshake.KindSandbox: &sandboxplugin.Plugin{Impl: &bad{mode}}}},
			GRPCServer:       plugin.DefaultGRPCServer,
		})
		return
	}
	sandboxplugin.Serve(&bad{mode: mode})
}
