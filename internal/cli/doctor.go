package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func runDoctor(ctx context.Context, args []string, stdio Stdio, e env) error {
	if len(args) != 0 {
		return usagef("doctor: usage: airlock doctor")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	out := stdio.Out
	fmt.Fprintf(out, "platform: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(out, "config: mode=%s network=%s approval=%s backend=%s\n", a.cfg.Sandbox.Mode, a.cfg.Sandbox.Network, a.cfg.Approval.Policy, a.cfg.Sandbox.Backend)
	entry, err := findEntry(a, handshake.KindSandbox, a.cfg.Sandbox.Backend)
	if err != nil {
		return err
	}
	sb, err := a.host.Sandbox(ctx, entry)
	if err != nil {
		return err
	}
	info, err := sb.Info(ctx, &sandbox.InfoRequest{})
	if err != nil {
		return err
	}
	probe, err := sb.Probe(ctx, &sandbox.ProbeRequest{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "sandbox backend: %s %s (%s)\n", info.Name, info.Version, entry.Path)
	for _, f := range probe.Features {
		mark := "no "
		if f.Available {
			mark = "yes"
		}
		fmt.Fprintf(out, "  %-16s %s  %s\n", f.Name, mark, f.Detail)
	}
	fmt.Fprintf(out, "mode: %s\n", probe.Mode)
	for _, l := range probe.Lost {
		fmt.Fprintf(out, "  lost: %s\n", l)
	}
	if probe.Remedy != "" {
		fmt.Fprintf(out, "to get the full mode: %s\n", probe.Remedy)
	}
	if !probe.Usable {
		return fmt.Errorf("the %s sandbox backend cannot run on this machine: %s", info.Name, probe.Remedy)
	}
	return nil
}
