package shellparse

import (
	"regexp"
	"strings"
)

// Safety is the heuristic class of one segment.
type Safety int

// Classes of a segment.
const (
	// Unknown means neither known to be safe nor known to be dangerous.
	Unknown Safety = iota
	// Safe means read-only and unable to run other code: it may run
	// without a question.
	Safe
	// Dangerous means destructive or privileged: ask before running.
	Dangerous
)

// String returns the class's name.
func (s Safety) String() string {
	switch s {
	case Safe:
		return "safe"
	case Dangerous:
		return "dangerous"
	}
	return "unknown"
}

// Classify puts a segment into a class and says why. Opaque segments are
// never safe.
func Classify(s Segment) (Safety, string) {
	if s.Opaque != "" {
		return Unknown, s.Opaque
	}
	if why := dangerous(s); why != "" {
		return Dangerous, why
	}
	if s.Privileged {
		return Dangerous, "runs with raised privileges (" + strings.Join(s.Wrappers, " ") + ")"
	}
	if why := safe(s); why != "" {
		return Safe, why
	}
	return Unknown, "no heuristic knows " + s.Name
}

// readOnly lists commands that only read files or print, whatever their
// arguments (their options cannot write files or run programs).
var readOnly = optSet(
	"cat", "cd", "cut", "echo", "expr", "false", "grep", "egrep", "fgrep", "head", "id", "ls",
	"nl", "paste", "pwd", "rev", "seq", "stat", "tail", "tr", "true", "uname", "uniq", "wc",
	"which", "whoami", "numfmt", "tac", "printf", "basename", "dirname", "realpath", "readlink",
	"df", "du", "file", "groups", "printenv", "test", "[", "type", "uptime", "cmp", "comm",
	"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum",
	"ps", "jq", "column", "fold", "fmt", "od", "hexdump", "strings", "nproc", "arch", "locale",
	"tty", "sleep", "pwdx", "lsblk", "free", "w", "who", "wcat", "env", "trap", "export",
	"declare", "local", "readonly", "typeset", "set", "shopt", "alias", "hash", "history",
	"dirs", "jobs", "pushd", "popd", "exit", "return", "times", "umask", "wait", "getconf",
	"lscpu", "uniq", "expand", "unexpand", "join", "look", "tsort",
)

var sedPrint = regexp.MustCompile(`^(\d+,)?\d+p$`)

// safe returns why a segment is known to be read-only, or "".
func safe(s Segment) string {
	for _, r := range s.Redirects {
		if r.Writes() && !harmlessTarget(r.Target) {
			return ""
		}
	}
	a := s.Argv
	switch s.Name {
	case "base64":
		if s.Dynamic || anyOpt(a[1:], "-o", "--output") {
			return ""
		}
		return "read-only"
	case "find":
		if s.Dynamic || anyOpt(a[1:], "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf") {
			return ""
		}
		return "read-only"
	case "rg":
		if s.Dynamic || anyOpt(a[1:], "--pre", "--hostname-bin", "-z", "--search-zip") {
			return ""
		}
		return "read-only"
	case "sed":
		// Only "sed -n N[,M]p [FILE…]": printing lines.
		if s.Dynamic || len(a) < 3 || a[1] != "-n" || !sedPrint.MatchString(a[2]) {
			return ""
		}
		for _, f := range a[3:] {
			if strings.HasPrefix(f, "-") {
				return ""
			}
		}
		return "prints lines"
	case "sort":
		if s.Dynamic || anyOpt(a[1:], "-o", "--output", "--compress-program") {
			return ""
		}
		return "read-only"
	case "tree":
		if s.Dynamic || anyOpt(a[1:], "-o") {
			return ""
		}
		return "read-only"
	case "date":
		if s.Dynamic || anyOpt(a[1:], "-s", "--set") {
			return ""
		}
		return "read-only"
	case "hostname":
		if len(a) > 1 && !(len(a) == 2 && (a[1] == "-f" || a[1] == "-s" || a[1] == "-i" || a[1] == "-I")) {
			return ""
		}
		return "read-only"
	case "command":
		if hasAnyFlag(a[1:], "v", "V") {
			return "looks a command up"
		}
		return ""
	case "diff":
		if s.Dynamic || anyOpt(a[1:], "--output") {
			return ""
		}
		return "read-only"
	case "git":
		return gitSafe(s)
	case "set", "export", "declare", "typeset", "history", "alias", "trap", "env":
		// Setting shell state is harmless; these are safe only in the
		// forms that merely list.
		if len(a) > 1 {
			return ""
		}
		return "lists shell state"
	}
	if readOnly[s.Name] {
		return "read-only"
	}
	return ""
}

func harmlessTarget(t string) bool {
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// anyOpt reports whether args hold one of the options, alone, with
// "=value", or (for short ones) with the value attached.
func anyOpt(args []string, opts ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, o := range opts {
			if a == o || strings.HasPrefix(a, o+"=") || (len(o) == 2 && o[0] == '-' && o[1] != '-' && strings.HasPrefix(a, o) && !strings.HasPrefix(a, "--")) {
				return true
			}
		}
	}
	return false
}

// gitGlobal splits git's global options from the subcommand. It returns
// -1 when an option may load code or config from elsewhere.
func gitGlobal(a []string) int {
	for i := 1; i < len(a); i++ {
		switch x := a[i]; {
		case x == "-C":
			i++
		case x == "--no-pager" || x == "--no-optional-locks" || x == "-P" || x == "--bare" || x == "--literal-pathspecs":
		case strings.HasPrefix(x, "-"):
			// -c, --config-env, --exec-path, --git-dir, --work-tree and
			// the rest can point git at code to run.
			return -1
		default:
			return i
		}
	}
	return len(a)
}

// gitSafe knows the read-only git subcommands. Repository configuration
// can still run code (core.fsmonitor, pagers), so callers run these with
// [HardenedGitEnv].
func gitSafe(s Segment) string {
	if s.Dynamic {
		return ""
	}
	a := s.Argv
	i := gitGlobal(a)
	if i < 0 || i >= len(a) {
		return ""
	}
	args := a[i+1:]
	switch a[i] {
	case "status":
		return "read-only git"
	case "log":
		// Patches run diff drivers and textconv filters from config.
		if anyOpt(args, "-p", "-u", "--patch", "--output", "--ext-diff", "--textconv", "--show-signature", "-G", "-S") {
			return ""
		}
		return "read-only git"
	case "branch":
		for _, x := range args {
			switch x {
			case "-a", "--all", "-r", "--remotes", "-l", "--list", "-v", "-vv", "--verbose", "--show-current", "--no-color", "--color":
			default:
				return ""
			}
		}
		return "read-only git"
	case "rev-parse":
		if anyOpt(args, "--git-path", "--local-env-vars") {
			return ""
		}
		return "read-only git"
	case "remote":
		if len(args) == 0 || len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose") {
			return "read-only git"
		}
	}
	return ""
}

// HardenedGitEnv returns environment entries that stop repository
// configuration from running code during read-only git commands: no
// fsmonitor hook, no hooks, no signature helper, and the user's own pager
// instead of one a repository names. Entries already in env are kept.
func HardenedGitEnv(env map[string]string) []string {
	out := []string{
		"GIT_CONFIG_COUNT=3",
		"GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false",
		"GIT_CONFIG_KEY_1=core.hooksPath", "GIT_CONFIG_VALUE_1=/dev/null",
		"GIT_CONFIG_KEY_2=log.showSignature", "GIT_CONFIG_VALUE_2=false",
	}
	if env["GIT_PAGER"] == "" {
		pager := env["PAGER"]
		if pager == "" {
			pager = "less"
		}
		out = append(out, "GIT_PAGER="+pager)
	}
	return out
}
