package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cgroupPeak runs argv once in a fresh cgroup v2 and returns its peak
// memory, which covers every process of the tree together.
// groups numbers the cgroups this process makes, one per measurement.
var groups int

// removeGroup removes a cgroup once its last process is gone, which can
// lag a moment behind the command's exit.
func removeGroup(dir string) {
	for range 50 {
		if os.Remove(dir) == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func cgroupPeak(argv []string) (int64, bool) {
	if kib, ok := cgroupV2Peak(argv); ok {
		return kib, true
	}
	return cgroupV1Peak(argv)
}

// cgroupV1Peak does the same with a cgroup v1 memory controller, through a
// /bin/sh wrapper that moves itself into the group and then execs argv (so
// the wrapper's own few hundred KiB are included).
func cgroupV1Peak(argv []string) (int64, bool) {
	groups++
	dir := filepath.Join("/sys/fs/cgroup/memory", fmt.Sprintf("runbench-%d-%d", os.Getpid(), groups))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return 0, false
	}
	defer removeGroup(dir)
	script := `echo $$ > "$0/cgroup.procs" && exec "$@"`
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, dir}, argv...)...)
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return 0, false
		}
	}
	return readKiB(filepath.Join(dir, "memory.max_usage_in_bytes"))
}

func cgroupV2Peak(argv []string) (int64, bool) {
	groups++
	dir := filepath.Join("/sys/fs/cgroup", fmt.Sprintf("runbench-%d-%d", os.Getpid(), groups))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return 0, false
	}
	defer removeGroup(dir)
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
	return readKiB(filepath.Join(dir, "memory.peak"))
}

// readKiB reads a cgroup file holding a byte count.
func readKiB(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, false
	}
	return v / 1024, true
}
