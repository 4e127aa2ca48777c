//go:build !linux

package ptyexec

import "syscall"

// sysProcAttr starts the command in a new session, with the PTY as its
// controlling terminal when tty is set.
func sysProcAttr(tty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: tty, Ctty: 0}
}

// nsAttr is Linux-only; elsewhere a spec's namespaces are not created and
// the program runs as usual.
type nsAttr struct{}

func namespaceAttr([]string, []string) (*nsAttr, error) { return nil, nil }

func (*nsAttr) apply(*syscall.SysProcAttr) {}

func namespacesRefused(error) bool { return false }

// wantPidfd does nothing: there are no pidfds here, so fd stays -1.
func wantPidfd(*syscall.SysProcAttr, *int) {}

func pidfdSignal(int, syscall.Signal) error { return syscall.ENOSYS }
