package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/airlock-dev/airlock/internal/audit"
	"github.com/airlock-dev/airlock/internal/xdg"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

func runAudit(ctx context.Context, args []string, stdio Stdio, e env) error {
	fs := pflag.NewFlagSet("audit", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	follow := fs.BoolP("follow", "f", false, "keep printing new records")
	asJSON := fs.Bool("json", false, "print the records as JSON lines")
	if err := fs.Parse(args); err != nil {
		return usagef("audit: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("audit: takes no arguments")
	}
	dirs, err := xdg.Resolve(e.m, os.Getuid())
	if err != nil {
		return err
	}
	l, err := audit.Open(dirs.State)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return l.Read(ctx, *follow, func(raw []byte, r *audit.Record) error {
		if *asJSON {
			_, err := fmt.Fprintf(stdio.Out, "%s\n", raw)
			return err
		}
		exit := "-"
		if r.Exit != nil {
			exit = fmt.Sprint(*r.Exit)
		}
		where := "sandbox"
		if !r.Sandboxed {
			where = "direct"
		}
		var answers []string
		for _, p := range r.Prompts {
			answers = append(answers, p.Kind+": "+p.Answer)
		}
		extra := ""
		if len(answers) > 0 {
			extra = "  [" + strings.Join(answers, "; ") + "]"
		}
		_, err := fmt.Fprintf(stdio.Out, "%s  %-6s %-9s %-7s exit %-3s %s  (%s)%s\n", r.Time.Local().Format("2006-01-02 15:04:05"),
			r.Action, r.Decision, where, exit, shellparse.Join(r.Argv), r.Reason, extra)
		return err
	})
}
