package pluginhost

import "syscall"

// SysProcAttr puts the plugin in its own process group (keyboard signals
// aimed at the command never reach it) and kills it if the host dies.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
