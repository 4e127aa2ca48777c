package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/airlock-dev/airlock/internal/buildinfo"
)

// Stdio are the streams a command line runs with.
type Stdio struct {
	In  *os.File
	Out *os.File
	Err *os.File
}

// env is the process environment as a map, with the original list kept
// for passing on unchanged.
type env struct {
	m    map[string]string
	list []string
	// cwd, when set, stands for the working directory (the judge server
	// judges lines typed in the shell's directory, not its own).
	cwd string
}

func newEnv(list []string) env {
	m := make(map[string]string, len(list))
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return env{m: m, list: list}
}

// Main runs one airlock command line and returns its exit status.
func Main(ctx context.Context, args []string, stdio Stdio, environ []string) int {
	closeInheritedFDs()
	e := newEnv(environ)
	if len(args) == 0 {
		printHelp(stdio.Err)
		return ExitError
	}
	var err error
	switch args[0] {
	case "exec":
		return runExec(ctx, args[1:], stdio, e)
	case "sh":
		return runSh(ctx, args[1:], stdio, e)
	case "plugins":
		err = runPlugins(ctx, args[1:], stdio, e)
	case "config":
		err = runConfig(args[1:], stdio, e)
	case "doctor":
		err = runDoctor(ctx, args[1:], stdio, e)
	case "assess":
		return runAssess(ctx, args[1:], stdio, e)
	case "version", "--version":
		fmt.Fprintln(stdio.Out, "airlock", buildinfo.Version())
	case "help", "-h", "--help":
		printHelp(stdio.Out)
	case "check":
		return runCheck(ctx, args[1:], stdio, e)
	case "rules":
		return runRules(ctx, args[1:], stdio, e)
	case "judge":
		return runJudge(ctx, args[1:], stdio, e)
	case "init":
		err = runInit(args[1:], stdio, e)
	case "audit":
		err = runAudit(ctx, args[1:], stdio, e)
	case "hook", "mcp":
		err = fmt.Errorf("'airlock %s' is not available in this build yet; 'airlock exec' and 'airlock sh -c' work today", args[0])
	default:
		err = usagef("unknown command %q", args[0])
	}
	return exitCode(stdio.Err, err)
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `airlock puts a command through one chamber: rules, a sandbox, a risk
assessment and an approval asked inline in your terminal.

Usage:
  airlock exec [flags] -- CMD [ARGS...]   run one command in the sandbox; exit status = the command's
      -s, --sandbox MODE                  read-only | workspace-write | danger-full-access
          --add-dir DIR                   extra writable root (repeatable)
          --deny-read PATH                hide a path from reads (repeatable)
          --network off|on                network policy
      -a, --ask-for-approval POLICY       untrusted | on-failure | on-request | never
          --backend NAME                  sandbox plugin to use
          --escalate REASON               ask to run without the sandbox
  airlock sh -c STRING                    drop-in for $SHELL -c
  airlock check [--json] [-a POLICY] -- CMD...   decide without running: rules, policy, assessment
  airlock assess [--json] [--batch] [CMDLINE]   assess one command line, or one per stdin line
  airlock rules check [--json] -- CMD...  which rules match, per segment
  airlock rules list                      every loaded rule and where it comes from
  airlock rules add [--project] [--decision D] -- PREFIX...   add a prefix_rule
  airlock init zsh|bash                   print the shell integration: eval "$(airlock init zsh)"
  airlock on | guard | off                (in an integrated shell) sandbox, guard or only record typed lines
  airlock audit [--follow] [--json]       read the audit log of decisions
  airlock plugins list                    discovered plugins, versions, capabilities
  airlock config [--keys]                 effective configuration and where each value came from
  airlock doctor                          what this machine supports
  airlock version

Exit status: the command's own; 128+N when it died of signal N; 126 when airlock
refused to run it; 125 for airlock's own errors.
`)
}
