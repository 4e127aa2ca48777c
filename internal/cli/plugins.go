package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func runPlugins(ctx context.Context, args []string, stdio Stdio, e env) error {
	if len(args) != 1 || args[0] != "list" {
		return usagef("plugins: usage: airlock plugins list")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	w := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tKIND\tSOURCE\tVERSION\tCAPABILITIES\tPATH")
	for _, en := range a.entries {
		version, caps := "-", "-"
		ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
		switch en.Kind {
		case handshake.KindSandbox:
			if sb, err := a.host.Sandbox(ictx, en); err != nil {
				version = "error: " + err.Error()
			} else if info, err := sb.Info(ictx, &sandbox.InfoRequest{}); err != nil {
				version = "error: " + err.Error()
			} else {
				version, caps = info.Version, strings.Join(info.Capabilities, ",")
			}
		case handshake.KindAssessor:
			if as, err := a.host.Assessor(ictx, en); err != nil {
				version = "error: " + err.Error()
			} else if info, err := as.Info(ictx, &assessor.InfoRequest{}); err != nil {
				version = "error: " + err.Error()
			} else {
				version, caps = info.Version, strings.Join(info.Capabilities, ",")
			}
		}
		cancel()
		if caps == "" {
			caps = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", en.Name, en.Kind, en.Source, version, caps, en.Path)
	}
	return w.Flush()
}
