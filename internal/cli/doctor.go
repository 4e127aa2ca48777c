package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func runDoctor(ctx context.Context, args []string, stdio Stdio, e env) error {
	apparmor := len(args) == 1 && args[0] == "--apparmor"
	if len(args) != 0 && !apparmor {
		return usagef("doctor: usage: airlock doctor [--apparmor]")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	if apparmor {
		entry, err := pluginhost.Find(a.entries, handshake.KindSandbox, a.cfg.Sandbox.Backend)
		if err != nil {
			return err
		}
		path, err := filepath.EvalSymlinks(entry.Path)
		if err != nil {
			return err
		}
		fmt.Fprint(stdio.Out, apparmorProfile(path))
		return nil
	}
	out := stdio.Out
	fmt.Fprintf(out, "platform: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(out, "config: mode=%s network=%s approval=%s backend=%s\n", a.cfg.Sandbox.Mode, a.cfg.Sandbox.Network, a.cfg.Approval.Policy, a.cfg.Sandbox.Backend)
	entry, err := pluginhost.Find(a.entries, handshake.KindSandbox, a.cfg.Sandbox.Backend)
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

// apparmorProfile is the profile that lets the sandbox backend create user
// namespaces where AppArmor restricts them (Ubuntu 23.10 and later), the
// same grant Ubuntu ships for bwrap. It names the binary by path, so only
// that file gets it.
func apparmorProfile(path string) string {
	return fmt.Sprintf(`# Save as /etc/apparmor.d/airlock, then run: sudo apparmor_parser -r /etc/apparmor.d/airlock
abi <abi/4.0>,
include <tunables/global>

profile airlock-sandbox %s flags=(unconfined) {
  userns,

  include if exists <local/airlock-sandbox>
}
`, strconv.Quote(path))
}
