package ptyexec

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/sdk/sandbox"
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

// namespaceAttr translates the names; the launch spec was validated
// already, so an unknown name here is a host bug, not a skip.
func namespaceAttr(kinds, caps []string) (*nsAttr, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	ns := &sandbox.Namespaces{Kinds: kinds, AmbientCaps: caps}
	flags, err := ns.CloneFlags()
	if err != nil {
		return nil, err
	}
	if flags&unix.CLONE_NEWUSER == 0 {
		return nil, fmt.Errorf("namespaces without a user namespace")
	}
	numbers, err := ns.CapNumbers()
	if err != nil {
		return nil, err
	}
	return &nsAttr{flags: flags, caps: numbers}, nil
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

func namespacesRefused(err error) bool { return sandbox.NamespacesRefused(err) }

// wantPidfd asks the clone for a pidfd, stored in *fd (left at -1 by
// kernels before 5.2).
func wantPidfd(s *syscall.SysProcAttr, fd *int) { s.PidFD = fd }

func pidfdSignal(fd int, sig syscall.Signal) error { return unix.PidfdSendSignal(fd, sig, nil, 0) }
