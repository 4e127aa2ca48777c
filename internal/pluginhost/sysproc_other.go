//go:build !linux

package pluginhost

import "syscall"

// SysProcAttr puts the plugin in its own process group. Without a
// parent-death signal, the plugin's own watch on its parent ends it.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
