// Package seatbelt implements the macOS sandbox backend. Profile
// generation is pure and tested on every OS; only the launch spec's use of
// /usr/bin/sandbox-exec is macOS-specific.
package seatbelt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Profile renders the Seatbelt (SBPL) profile for a policy. Paths are
// passed as parameters (-D NAME=PATH), never spliced into the profile text,
// so no path can change the profile's meaning; the returned params hold
// their values in order.
func Profile(p sandbox.Policy, tmpdir string) (profile string, params []string) {
	var b strings.Builder
	n := 0
	param := func(prefix, value string) string {
		name := fmt.Sprintf("%s_%d", prefix, n)
		n++
		params = append(params, name+"="+value)
		return fmt.Sprintf(`(param "%s")`, name)
	}
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-exec process-fork signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read mach-lookup ipc-posix-shm-read-data ipc-posix-shm-write-data ipc-posix-sem user-preference-read)\n")
	b.WriteString("(allow file-read*)\n")
	b.WriteString("(allow file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	b.WriteString("(allow file-ioctl (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	if p.Mode == sandbox.ModeWorkspaceWrite {
		roots := append([]string{}, p.WritableRoots...)
		sort.Strings(roots)
		for _, r := range roots {
			b.WriteString("(allow file-write* (subpath " + param("WRITABLE_ROOT", r) + "))\n")
			for _, name := range p.ProtectedNames {
				b.WriteString("(deny file-write* (subpath " + param("PROTECTED", r+"/"+name) + "))\n")
			}
		}
	}
	if tmpdir != "" {
		b.WriteString("(allow file-write* (subpath " + param("TMPDIR", tmpdir) + "))\n")
	}
	for _, d := range p.DenyRead {
		b.WriteString("(deny file-read* file-write* (subpath " + param("DENY_READ", d) + "))\n")
	}
	// Network off has no rule at all: macOS has no network namespace, so
	// even loopback would reach the host's own services.
	if p.Network == sandbox.NetworkOn {
		b.WriteString("(allow network*)\n")
	}
	return b.String(), params
}
