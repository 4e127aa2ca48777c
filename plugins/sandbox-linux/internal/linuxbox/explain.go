package linuxbox

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/launcher"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Output patterns of blocked operations, as coreutils, shells, compilers and
// package managers print them. They only ever produce guessed denials.
var (
	// touch: cannot touch '/etc/x': Read-only file system
	// sh: 1: cannot create /home/u/x: Read-only file system
	// bash: /etc/x: Permission denied
	pathDenied = regexp.MustCompile(`(?m)(?:^|[\s'"\x60])(['"\x60]?)([^\s'"\x60:]+)['"\x60]?: (?:Read-only file system|Permission denied|Operation not permitted)`)
	// zsh and some tools put the path after the message:
	// "zsh:1: read-only file system: /home/me/x".
	pathDeniedAfter = regexp.MustCompile(`(?mi)(?:read-only file system|permission denied|operation not permitted): (/\S+)`)
	netDenied       = regexp.MustCompile(`(?i)(could not resolve host:?\s*(\S+)|temporary failure in name resolution|network is unreachable|name or service not known|getaddrinfo\s+(?:EAI_AGAIN|ENOTFOUND)\s*(\S*))`)
)

// Explain implements [sandbox.Sandbox]. The launcher's report is trusted;
// output heuristics fill in where it is silent and say they are guesses.
func (b *Backend) Explain(_ context.Context, req *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	res := &sandbox.ExplainResponse{}
	for _, ev := range launcher.ParseReport(req.Report) {
		if ev.Event != "denied" {
			continue
		}
		d := sandbox.Denial{Path: ev.Path, Host: ev.Host, Port: ev.Port, Syscall: ev.Syscall, Detail: ev.Detail, Operation: ev.Op}
		if d.Operation == "" {
			d.Operation = ev.Kind
		}
		switch ev.Kind {
		case "write":
			d.Kind = sandbox.DenialWrite
		case "read":
			d.Kind = sandbox.DenialRead
		case "network":
			d.Kind = sandbox.DenialNetwork
		default:
			d.Kind = sandbox.DenialSyscall
		}
		res.Denials = append(res.Denials, d)
	}
	if len(res.Denials) > 0 || (req.ExitCode == 0 && req.Signal == 0) {
		return res, nil
	}
	res.Denials = guessDenials(req)
	return res, nil
}

func guessDenials(req *sandbox.ExplainRequest) []sandbox.Denial {
	var out []sandbox.Denial
	tail := string(req.OutputTail)
	seen := map[string]bool{}
	matches := pathDenied.FindAllStringSubmatch(tail, 8)
	for _, m := range pathDeniedAfter.FindAllStringSubmatch(tail, 8) {
		matches = append(matches, []string{m[0], "", m[1]})
	}
	for _, m := range matches {
		quoted, p := m[1] != "", m[2]
		if !filepath.IsAbs(p) {
			// A bare word ("sh: 1: …") is not a path; a relative path
			// is quoted or has a slash, and is relative to the command's
			// working directory.
			if !quoted && !strings.Contains(p, "/") {
				continue
			}
			p = filepath.Join(req.Prepared.Command.Cwd, p)
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		kind, op := sandbox.DenialWrite, "write"
		if isDenied(p, req.Prepared.Policy.DenyRead) {
			kind, op = sandbox.DenialRead, "read"
		}
		out = append(out, sandbox.Denial{Kind: kind, Path: p, Operation: op, Guessed: true,
			Detail: "from the command's output: " + strings.TrimSpace(m[0])})
	}
	if req.Prepared.Policy.Network == sandbox.NetworkOff {
		if m := netDenied.FindStringSubmatch(tail); m != nil {
			host := m[2]
			if host == "" {
				host = m[3]
			}
			out = append(out, sandbox.Denial{Kind: sandbox.DenialNetwork, Host: strings.Trim(host, "'\"`:"), Operation: "connect", Guessed: true,
				Detail: "from the command's output: " + strings.TrimSpace(m[0])})
		}
	}
	if req.Signal == 31 { // SIGSYS: a system call the filter refused
		out = append(out, sandbox.Denial{Kind: sandbox.DenialSyscall, Guessed: true, Detail: "the command died of SIGSYS"})
	}
	return out
}

func isDenied(p string, denied []string) bool {
	for _, d := range denied {
		if within(p, d) {
			return true
		}
	}
	return false
}
