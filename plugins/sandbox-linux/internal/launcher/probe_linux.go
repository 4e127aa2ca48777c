package launcher

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// probeChild runs inside fresh namespaces during Probe: it succeeds only if
// the mounts the init stage needs are allowed there (an AppArmor policy can
// allow the namespace and still refuse the mounts).
func probeChild() int {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		fmt.Fprintln(os.Stderr, "make mounts private:", err)
		return 1
	}
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", 0, "size=4k"); err != nil {
		fmt.Fprintln(os.Stderr, "mount tmpfs:", err)
		return 1
	}
	return 0
}

// LandlockABI returns the kernel's Landlock ABI version, 0 without Landlock.
func LandlockABI() int {
	const createRulesetVersion = 1
	r, _, e := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, createRulesetVersion)
	if e != 0 {
		return 0
	}
	return int(r)
}
