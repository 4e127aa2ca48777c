package ptyexec

import "syscall"

// sysProcAttr starts the command in a new session (with the PTY as its
// controlling terminal when tty is set) and kills it if the host dies,
// even of SIGKILL.
func sysProcAttr(tty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: tty, Ctty: 0, Pdeathsig: syscall.SIGKILL}
}
