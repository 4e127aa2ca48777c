//go:build linux || darwin

package term

import (
	"golang.org/x/sys/unix"
	xterm "golang.org/x/term"
)

// isRaw reports whether the terminal is out of canonical mode.
func isRaw(fd int, _ *xterm.State) bool {
	tio, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	return err == nil && tio.Lflag&unix.ICANON == 0
}
