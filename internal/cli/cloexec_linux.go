package cli

import "golang.org/x/sys/unix"

// closeInheritedFDs marks every descriptor above stderr close-on-exec, so
// nothing the caller leaked reaches a plugin or a command.
func closeInheritedFDs() {
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
}
