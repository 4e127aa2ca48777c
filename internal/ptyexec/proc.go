package ptyexec

import (
	"errors"
	"os"
	"syscall"
)

// proc is a started child. The host starts its children with
// syscall.ForkExec rather than os/exec: os.StartProcess first checks, once
// per process, that pidfds work by starting and reaping a throwaway child,
// and airlock is a new process for every command, so it paid that check
// every time (about half a millisecond on a two-core VM).
type proc struct {
	pid int
	// pidfd refers to the child where the kernel gives one (Linux 5.2
	// and later), so a signal that races its exit cannot reach a process
	// that took its PID; -1 otherwise.
	pidfd int
}

// startProc starts argv[0] (a path) with argv, env (the host's own when
// nil), dir, and files as descriptors 0, 1, 2, …; a nil file is /dev/null.
func startProc(argv, env []string, dir string, files []*os.File, sys *syscall.SysProcAttr) (*proc, error) {
	if env == nil {
		env = os.Environ()
	}
	fds := make([]uintptr, len(files))
	for i, f := range files {
		if f == nil {
			null, err := os.Open(os.DevNull)
			if err != nil {
				return nil, err
			}
			defer null.Close()
			f = null
		}
		fds[i] = f.Fd()
	}
	p := &proc{pidfd: -1}
	attr := *sys
	wantPidfd(&attr, &p.pidfd)
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Dir: dir, Env: env, Files: fds, Sys: &attr})
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: argv[0], Err: err}
	}
	p.pid = pid
	return p, nil
}

// signal sends sig to the child, if it has not been reaped.
func (p *proc) signal(sig syscall.Signal) error {
	if p.pidfd >= 0 {
		return pidfdSignal(p.pidfd, sig)
	}
	return syscall.Kill(p.pid, sig)
}

// wait reaps the child and returns its status.
func (p *proc) wait() (syscall.WaitStatus, error) {
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(p.pid, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return ws, err
	}
}

// release closes the pidfd; the child must not be signalled afterwards.
func (p *proc) release() {
	if p.pidfd >= 0 {
		syscall.Close(p.pidfd)
		p.pidfd = -1
	}
}
