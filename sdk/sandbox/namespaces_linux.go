package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// The clone(2) flag of each of NamespaceKinds and the number of each of
// NamespaceCaps; a test keeps the lists and these tables in step.
var (
	namespaceFlags = map[string]uintptr{
		"user": unix.CLONE_NEWUSER, "mount": unix.CLONE_NEWNS, "pid": unix.CLONE_NEWPID,
		"ipc": unix.CLONE_NEWIPC, "uts": unix.CLONE_NEWUTS, "net": unix.CLONE_NEWNET,
		"cgroup": unix.CLONE_NEWCGROUP,
	}
	capNumbers = map[string]uintptr{
		"CAP_SYS_ADMIN": unix.CAP_SYS_ADMIN, "CAP_SETPCAP": unix.CAP_SETPCAP, "CAP_NET_ADMIN": unix.CAP_NET_ADMIN,
		"CAP_SYS_PTRACE": unix.CAP_SYS_PTRACE, "CAP_SETUID": unix.CAP_SETUID, "CAP_SETGID": unix.CAP_SETGID,
		"CAP_SYS_CHROOT": unix.CAP_SYS_CHROOT, "CAP_DAC_OVERRIDE": unix.CAP_DAC_OVERRIDE, "CAP_CHOWN": unix.CAP_CHOWN,
		"CAP_FOWNER": unix.CAP_FOWNER, "CAP_MKNOD": unix.CAP_MKNOD,
	}
)

// CloneFlags returns the clone(2) flags that create n's namespaces.
func (n *Namespaces) CloneFlags() (uintptr, error) {
	var flags uintptr
	for _, k := range n.Kinds {
		f, ok := namespaceFlags[k]
		if !ok {
			return 0, fmt.Errorf("%w: unknown namespace kind %q", ErrInvalidRequest, k)
		}
		flags |= f
	}
	return flags, nil
}

// NamespacesRefused reports whether starting a process in new namespaces
// failed because the kernel refused them: user namespaces disabled,
// limited to zero, or denied by policy (AppArmor, seccomp, containers).
func NamespacesRefused(err error) bool {
	for _, e := range []error{unix.EPERM, unix.EACCES, unix.ENOSPC, unix.EINVAL, unix.EUSERS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// CapNumbers returns the numbers of n's ambient capabilities.
func (n *Namespaces) CapNumbers() ([]uintptr, error) {
	out := make([]uintptr, 0, len(n.AmbientCaps))
	for _, c := range n.AmbientCaps {
		v, ok := capNumbers[c]
		if !ok {
			return nil, fmt.Errorf("%w: unknown capability %q", ErrInvalidRequest, c)
		}
		out = append(out, v)
	}
	return out, nil
}
