package ptyexec

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr starts the command in a new session (with the PTY as its
// controlling terminal when tty is set) and kills it if the host dies,
// even of SIGKILL.
func sysProcAttr(tty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: tty, Ctty: 0, Pdeathsig: syscall.SIGKILL}
}

// nsAttr is what Spec.Namespaces asks of the clone.
type nsAttr struct {
	flags uintptr
	caps  []uintptr
}

var (
	nsFlags = map[string]uintptr{
		"user": unix.CLONE_NEWUSER, "mount": unix.CLONE_NEWNS, "pid": unix.CLONE_NEWPID,
		"ipc": unix.CLONE_NEWIPC, "uts": unix.CLONE_NEWUTS, "net": unix.CLONE_NEWNET,
		"cgroup": unix.CLONE_NEWCGROUP,
	}
	capNumbers = map[string]uintptr{
		"CAP_SYS_ADMIN": unix.CAP_SYS_ADMIN, "CAP_SETPCAP": unix.CAP_SETPCAP, "CAP_NET_ADMIN": unix.CAP_NET_ADMIN,
		"CAP_SYS_PTRACE": unix.CAP_SYS_PTRACE,
		"CAP_SETUID":     unix.CAP_SETUID, "CAP_SETGID": unix.CAP_SETGID, "CAP_SYS_CHROOT": unix.CAP_SYS_CHROOT,
		"CAP_DAC_OVERRIDE": unix.CAP_DAC_OVERRIDE, "CAP_CHOWN": unix.CAP_CHOWN, "CAP_FOWNER": unix.CAP_FOWNER,
		"CAP_MKNOD": unix.CAP_MKNOD,
	}
)

// namespaceAttr checks and translates the names; the launch spec was
// validated already, so an unknown name here is a host bug, not a skip.
func namespaceAttr(kinds, caps []string) (*nsAttr, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	a := &nsAttr{}
	for _, k := range kinds {
		f, ok := nsFlags[k]
		if !ok {
			return nil, fmt.Errorf("unknown namespace %q", k)
		}
		a.flags |= f
	}
	if a.flags&unix.CLONE_NEWUSER == 0 {
		return nil, fmt.Errorf("namespaces without a user namespace")
	}
	for _, c := range caps {
		n, ok := capNumbers[c]
		if !ok {
			return nil, fmt.Errorf("unknown capability %q", c)
		}
		a.caps = append(a.caps, n)
	}
	return a, nil
}

// apply maps the caller's uid and gid to themselves: the program keeps
// its identity, and its capabilities reach no further than the new user
// namespace.
func (a *nsAttr) apply(s *syscall.SysProcAttr) {
	s.Cloneflags = a.flags
	s.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	s.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	s.GidMappingsEnableSetgroups = false
	s.AmbientCaps = a.caps
}

// namespacesRefused reports whether starting failed because the kernel
// refused the namespaces: disabled, limited to zero, or denied by policy.
func namespacesRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EUSERS)
}
