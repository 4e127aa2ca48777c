//go:build !linux

package ptyexec

import "syscall"

// sysProcAttr starts the command in a new session, with the PTY as its
// controlling terminal when tty is set.
func sysProcAttr(tty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: tty, Ctty: 0}
}
