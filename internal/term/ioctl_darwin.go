package term

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA

// FlushInput discards input typed but not yet read.
func FlushInput(fd int) error { return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread) }

// fread is FREAD from <sys/fcntl.h>: flush the input queue.
const fread = 0x1
