//go:build !linux

package pluginhost

import "syscall"

// sysProcAttr puts the plugin in its own process group. Without a
// parent-death signal, the plugin's own watch on its parent ends it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
