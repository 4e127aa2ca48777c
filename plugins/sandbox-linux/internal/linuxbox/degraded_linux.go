package linuxbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// lostWithoutNamespaces is what the Landlock + seccomp mode cannot enforce.
var lostWithoutNamespaces = []string{
	"protected names (.git, .airlock) stay writable inside writable roots",
	"no private /tmp: a fresh directory under TMPDIR is used instead, and the host's /tmp stays writable-denied only by Landlock",
	"outside processes stay visible in /proc (signals and ptrace are still blocked by Landlock scoping and Yama)",
	"deny_read paths stay readable",
}

// stageDegraded runs the command under Landlock and seccomp alone, for
// machines where user namespaces are refused. The caller accepted this mode
// explicitly.
func stageDegraded(cfg *launchConfig, rep *reporter) int {
	if len(cfg.DenyRead) > 0 {
		return setupFailed(rep, errors.New("user namespaces are unavailable and the Landlock-only mode cannot hide deny_read paths"))
	}
	rep.emit(reportEvent{Event: "mode", Detail: "landlock-only: " + strings.Join(lostWithoutNamespaces, "; ")})
	tmp, err := os.MkdirTemp("", "airlock-tmp-")
	if err != nil {
		return setupFailed(rep, fmt.Errorf("private temp dir: %w", err))
	}
	defer os.RemoveAll(tmp)
	os.Setenv("TMPDIR", tmp)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return setupFailed(rep, fmt.Errorf("subreaper: %w", err))
	}
	if err := restrict(cfg, false); err != nil {
		return setupFailed(rep, err)
	}
	code := runAndReap(cfg, rep)
	killDescendants()
	return code
}

// killDescendants kills every process reparented to this subreaper, so
// daemonized children do not outlive the command.
func killDescendants() {
	for range 50 {
		kids := children()
		if len(kids) == 0 {
			return
		}
		for _, pid := range kids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); err != nil {
				break
			}
			if len(children()) == 0 {
				break
			}
		}
	}
}

func children() []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}
