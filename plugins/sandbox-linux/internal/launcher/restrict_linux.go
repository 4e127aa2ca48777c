package launcher

import (
	"errors"
	"fmt"
	"os"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Secure bits that make uid 0 an ordinary uid for capability purposes,
// locked so the command cannot undo them.
const secureBits = 1<<0 | 1<<1 | // NOROOT, NOROOT_LOCKED
	1<<2 | 1<<3 | // NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED
	1<<5 | // KEEP_CAPS_LOCKED (off)
	1<<6 | 1<<7 // NO_CAP_AMBIENT_RAISE, NO_CAP_AMBIENT_RAISE_LOCKED

// dropCapabilities leaves the calling thread, and everything it starts,
// with no capabilities and no way to regain them, also when the caller is
// root. The caller holds runtime.LockOSThread and starts the command from
// the same thread: credentials are per thread, and a per-thread drop avoids
// a stop-the-world round per capability. The init stage's other threads keep
// their capabilities in the sandbox's own user namespace only, and the
// command cannot reach them (it holds fewer capabilities, so ptrace is
// refused, and Landlock scopes signals).
func dropCapabilities() error {
	err := unix.Prctl(unix.PR_SET_SECUREBITS, secureBits, 0, 0, 0)
	if errors.Is(err, unix.EPERM) && os.Geteuid() != 0 {
		// An unprivileged process outside a user namespace holds no
		// capabilities to drop; no_new_privs keeps it that way.
		return unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
	}
	if err != nil {
		return fmt.Errorf("set securebits: %w", err)
	}
	for c := 0; ; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) && c > 0 {
				break // past the last capability this kernel knows
			}
			return fmt.Errorf("drop bounding capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
}

// applyLandlock is the second file-system layer: read everywhere, write
// only to the writable roots and the private areas. With namespaces the
// mounts already enforce this; Landlock still holds if a mount is ever
// undone. Without namespaces it is the first layer, and it also denies TCP.
func applyLandlock(cfg *Config, namespaces bool) error {
	if namespaces {
		// Network policy is the network namespace's job; TCP stays
		// unhandled so loopback servers inside the sandbox work.
		rules := []llRule{{"/", llRead}, {"/dev", llRead | llWrite | ll.AccessFSIoctlDev}}
		for _, p := range append(append([]string{}, cfg.WritableRoots...), "/tmp", "/dev/shm") {
			rules = append(rules, llRule{p, llRead | llWrite | ll.AccessFSRefer})
		}
		return landlockThread(rules, false)
	}
	// Without namespaces there is no other file-system layer: a kernel
	// without Landlock refuses here instead of running unconfined. Older
	// ABIs still confine writes, so their missing rights are tolerated.
	if LandlockABI() == 0 {
		return errors.New("this kernel has no Landlock, and without user namespaces nothing else can confine the command")
	}
	// Reads reach everything but the denied paths, writes only the
	// writable roots and the private TMPDIR, and TCP is denied when the
	// network is off.
	denied := existing(cfg.DenyRead)
	ro := complement([]string{"/"}, denied)
	rw := complement(append(append([]string{}, cfg.WritableRoots...), os.Getenv("TMPDIR")), denied)
	var rules []llRule
	for _, p := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts"} {
		rules = append(rules, llRule{p, llRead | llWrite | ll.AccessFSIoctlDev})
	}
	for _, p := range append(ro.Dirs, ro.Files...) {
		rules = append(rules, llRule{p, llRead})
	}
	for _, p := range append(rw.Dirs, rw.Files...) {
		rules = append(rules, llRule{p, llRead | llWrite | ll.AccessFSRefer})
	}
	return landlockThread(rules, !cfg.NetworkOn)
}

func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}
