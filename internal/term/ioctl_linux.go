package term

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TCGETS

// FlushInput discards input typed but not yet read.
func FlushInput(fd int) error { return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
