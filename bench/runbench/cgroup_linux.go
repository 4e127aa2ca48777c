package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// cgroupPeak runs argv once in a fresh cgroup v2 and returns its peak
// memory, which covers every process of the tree together.
func cgroupPeak(argv []string) (int64, bool) {
	dir := filepath.Join("/sys/fs/cgroup", fmt.Sprintf("runbench-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return 0, false
	}
	defer os.Remove(dir)
	f, err := os.Open(dir)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(f.Fd())}
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return 0, false
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "memory.peak"))
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, false
	}
	return v / 1024, true
}
