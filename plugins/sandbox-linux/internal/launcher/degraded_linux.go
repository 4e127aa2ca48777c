package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// LostWithoutNamespaces is what the Landlock + seccomp mode cannot enforce.
var LostWithoutNamespaces = []string{
	"protected names (.git, .airlock) are not kept read-only inside writable roots",
	"no private /tmp: a fresh directory under TMPDIR is used instead",
	"outside processes stay visible in /proc with their arguments (signals, ptrace and renice are still blocked)",
	"permission and owner changes (chmod, chown) of files outside the writable roots are not blocked",
	"deny_read hides only paths that exist when the command starts, and directories above them cannot be listed",
	"blocked writes and connections are inferred from the command's output, not reported as they happen",
}

// stageDegraded runs the command under Landlock and seccomp alone, for
// machines where user namespaces are refused. The caller accepted this mode
// explicitly.
func stageDegraded(cfg *Config, rep *reporter) int {
	// The command is forked, signalled and cleaned up from this thread,
	// which carries its Landlock domain (see runAndReap).
	runtime.LockOSThread()
	relay := relaySignals(cfg.TTY)
	rep.emit(ReportEvent{Event: "mode", Detail: "landlock-only: " + strings.Join(LostWithoutNamespaces, "; ")})
	tmp, err := os.MkdirTemp("", "airlock-tmp-")
	if err != nil {
		return setupFailed(rep, fmt.Errorf("private temp dir: %w", err))
	}
	defer func() {
		// This thread may no longer remove entries in the directory
		// holding tmp; another goroutine's thread is not confined.
		done := make(chan struct{})
		go func() { os.RemoveAll(tmp); close(done) }()
		<-done
	}()
	os.Setenv("TMPDIR", tmp)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return setupFailed(rep, fmt.Errorf("subreaper: %w", err))
	}
	listener, err := restrict(cfg, false)
	if err != nil {
		return setupFailed(rep, err)
	}
	code, _ := runAndReap(cfg, rep, listener, relay, false)
	killDescendants()
	return code
}

// killDescendants kills every process reparented to this subreaper, so
// daemonized children do not outlive the command. It runs on the locked
// thread, whose Landlock domain the descendants share.
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
