package launcher

import (
	"errors"
	"fmt"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock rights, as go-landlock groups them for RODirs and RWDirs.
const (
	llRead  = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	llWrite = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeChar |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSTruncate
)

// handledFS is every file-system right a Landlock ABI knows, up to the
// ones this launcher grants (ABI 7 adds none over 5).
func handledFS(abi int) uint64 {
	switch {
	case abi >= 5:
		return 1<<16 - 1
	case abi >= 3:
		return 1<<15 - 1
	case abi == 2:
		return 1<<14 - 1
	case abi == 1:
		return 1<<13 - 1
	}
	return 0
}

// llRule grants access beneath one path; a missing path is skipped, and a
// file gets only the rights that apply to files.
type llRule struct {
	path   string
	access uint64
}

// landlockThread restricts the calling thread, and everything it starts,
// to rules, with signals and abstract sockets scoped to the sandbox and,
// with denyTCP, no TCP at all. It restricts this thread only, the one that
// forks the command: the launcher's other threads run the supervisor,
// which must read the command's memory, and Landlock refuses that across
// sibling domains (before ABI 8 every thread restricted separately gets a
// domain of its own). Those threads run only the launcher's own code, and
// the command cannot reach them: Landlock denies ptrace and signals from
// a domain to anything outside it.
//
// Rights the kernel's ABI lacks are left out, as go-landlock's best-effort
// mode does: older kernels confine less, never refuse to run.
func landlockThread(rules []llRule, denyTCP bool) error {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return nil // no Landlock; the callers decide whether that is enough
	}
	handled := handledFS(abi)
	attr := ll.RulesetAttr{HandledAccessFS: handled}
	if abi >= 6 {
		attr.Scoped = ll.ScopeAbstractUnixSocket | ll.ScopeSignal
	}
	if denyTCP && abi >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	rs, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return fmt.Errorf("create ruleset: %w", err)
	}
	defer unix.Close(rs)
	for _, r := range rules {
		if err := addRule(rs, r, handled); err != nil {
			return err
		}
	}
	return ll.LandlockRestrictSelf(rs, 0)
}

func addRule(rs int, r llRule, handled uint64) error {
	fd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", r.path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	access := r.access
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	}
	if err := ll.LandlockAddPathBeneathRule(rs, &ll.PathBeneathAttr{AllowedAccess: access & handled, ParentFd: fd}, 0); err != nil {
		return fmt.Errorf("landlock rule for %s: %w", r.path, err)
	}
	return nil
}
