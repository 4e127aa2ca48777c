//go:build !linux

package plugintest

import "syscall"

func userNSAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
