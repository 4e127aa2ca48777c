//go:build !linux

package cli

import "golang.org/x/sys/unix"

// closeInheritedFDs marks every descriptor above stderr close-on-exec, so
// nothing the caller leaked reaches a plugin or a command.
func closeInheritedFDs() {
	for fd := 3; fd < 1024; fd++ {
		_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC)
	}
}
