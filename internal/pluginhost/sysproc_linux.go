package pluginhost

import "syscall"

// sysProcAttr puts the plugin in its own process group (keyboard signals
// aimed at the command never reach it) and kills it if the host dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
