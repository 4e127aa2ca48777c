package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells run their -c string, a script file, or commands from input.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "fish": true, "rbash": true,
}

// wrapper describes a command that runs another one: the options that take
// a value, how many operands come before the command, and whether it
// raises privileges.
type wrapper struct {
	opts       map[string]bool
	positional int
	privileged bool
}

func optSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

var wrappers = map[string]wrapper{
	"sudo":         {opts: optSet("-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user", "-R", "--chroot"), privileged: true},
	"doas":         {opts: optSet("-u", "-C"), privileged: true},
	"pkexec":       {opts: optSet("--user"), privileged: true},
	"run0":         {opts: optSet("-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--nice", "--unit", "--property", "--slice"), privileged: true},
	"su":           {opts: optSet("-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"), privileged: true},
	"runuser":      {opts: optSet("-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-u", "--user", "-w", "--whitelist-environment"), privileged: true},
	"nice":         {opts: optSet("-n", "--adjustment")},
	"nohup":        {},
	"time":         {opts: optSet("-f", "--format", "-o", "--output")},
	"exec":         {opts: optSet("-a")},
	"timeout":      {opts: optSet("-s", "--signal", "-k", "--kill-after"), positional: 1},
	"stdbuf":       {opts: optSet("-i", "--input", "-o", "--output", "-e", "--error")},
	"ionice":       {opts: optSet("-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid")},
	"chrt":         {opts: optSet("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"), positional: 1},
	"taskset":      {opts: optSet("-c", "--cpu-list"), positional: 1},
	"setsid":       {},
	"unbuffer":     {},
	"flock":        {opts: optSet("-w", "--timeout", "-E", "--conflict-exit-code"), positional: 1},
	"chroot":       {opts: optSet("--userspec", "--groups"), positional: 1, privileged: true},
	"nsenter":      {opts: optSet("-t", "--target", "-S", "--setuid", "-G", "--setgid", "--wd", "-w"), privileged: true},
	"unshare":      {opts: optSet("--map-user", "--map-group", "--setuid", "--setgid", "-R", "--root", "-w", "--wd"), privileged: true},
	"firejail":     {},
	"proxychains":  {opts: optSet("-f")},
	"proxychains4": {opts: optSet("-f")},
	"torsocks":     {},
	"strace":       {opts: optSet("-e", "-o", "-p", "-s", "-u", "-E", "-I", "-O", "-P", "-S", "-X", "-a", "-b")},
	"ltrace":       {opts: optSet("-e", "-o", "-p", "-s", "-u", "-E", "-a", "-n", "-l")},
	"caffeinate":   {opts: optSet("-t", "-w")},
}

var watchOpts = optSet("-n", "--interval", "-d", "--differences", "-q", "--equexit")

var xargsOpts = optSet("-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "--eof", "-I", "-i", "--replace", "-L", "-l", "--max-lines", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var")

// skipOptions returns the index of the first operand in args, skipping
// options (and the values of those in withArg) and a "--" end marker.
func skipOptions(args []string, withArg map[string]bool) int {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			return i + 1
		}
		if len(a) < 2 || a[0] != '-' {
			return i
		}
		if strings.HasPrefix(a, "--") {
			if !strings.Contains(a, "=") && withArg[a] {
				i++
			}
			i++
			continue
		}
		// A cluster of short options; an option that takes a value ends
		// it, with the value attached or in the next word.
		for j := 1; j < len(a); j++ {
			if withArg["-"+a[j:j+1]] {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
		i++
	}
	return i
}

// envSkip returns the index of env's command in args and, for -S, the
// index of the string to split (else -1).
func envSkip(args []string) (int, int) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--":
			i++
			for i < len(args) && strings.Contains(args[i], "=") && !strings.HasPrefix(args[i], "=") {
				i++
			}
			return i, -1
		case a == "-S" || a == "--split-string":
			if i+1 < len(args) {
				return i + 2, i + 1
			}
			return len(args), -1
		case strings.HasPrefix(a, "-S") && len(a) > 2:
			return i + 1, -1
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			i += 2
		case strings.HasPrefix(a, "-") && len(a) > 1:
			i++
		case strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
			i++
		default:
			return i, -1
		}
	}
	return i, -1
}

// hasAnyFlag reports whether args (options only) set one of the given
// short flags, alone or in a cluster.
func hasAnyFlag(args []string, letters ...string) bool {
	for _, a := range args {
		if len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, "--") {
			continue
		}
		for _, l := range letters {
			if strings.Contains(a[1:], l) {
				return true
			}
		}
	}
	return false
}

// Join quotes argv for display and for pasting into a POSIX shell: every
// word comes back unchanged when the result is parsed again.
func Join(argv []string) string {
	parts := make([]string, len(argv))
	for i, s := range argv {
		parts[i] = Quote(s)
	}
	return strings.Join(parts, " ")
}

// Quote quotes one word for bash. Words that need no quoting are returned
// as they are.
func Quote(s string) string {
	if q, err := syntax.Quote(s, syntax.LangBash); err == nil {
		return q
	}
	// Only NUL bytes cannot be quoted; a shell argument cannot hold them
	// anyway, so show them escaped.
	q, err := syntax.Quote(strings.ReplaceAll(s, "\x00", `\0`), syntax.LangBash)
	if err != nil {
		return "''"
	}
	return q
}
