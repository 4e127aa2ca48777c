//go:build linux

package ptyexec

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

// userTerminal is a PTY standing in for the user's terminal: the test
// types into and reads from master; the code under test gets the slave.
type userTerminal struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	done          chan struct{}
}

func newUserTerminal(t *testing.T) *userTerminal {
	t.Helper()
	m, s, err := pty.Open()
	plugintest.Require(t, "pty", err == nil, "cannot open a pty")
	if err := pty.Setsize(m, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	u := &userTerminal{master: m, slave: s, done: make(chan struct{})}
	go func() {
		defer close(u.done)
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			u.mu.Lock()
			u.out.Write(buf[:n])
			u.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { s.Close(); m.Close() })
	return u
}

func (u *userTerminal) output() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.out.String()
}

func (u *userTerminal) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(u.output(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("terminal never showed %q; got %q", s, u.output())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (u *userTerminal) stdio() Stdio { return Stdio{In: u.slave, Out: u.slave, Err: u.slave} }

func sh(script string) Spec {
	return Spec{Argv: []string{"/bin/sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, Dir: "/"}
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return *tio
}

func TestRun_ptyExitStatus(t *testing.T) {
	tests := []struct {
		script string
		code   int
		signal int
	}{
		{"exit 0", 0, 0},
		{"exit 5", 5, 0},
		{"kill -KILL $$", 137, 9},
		{"kill -TERM $$", 143, 15},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			u := newUserTerminal(t)
			before := termios(t, u.slave)
			res, err := Run(t.Context(), sh(tt.script), u.stdio(), Options{TTY: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != tt.code || res.Signal != tt.signal {
				t.Errorf("Run(%q) = code %d signal %d, want %d %d", tt.script, res.ExitCode, res.Signal, tt.code, tt.signal)
			}
			if after := termios(t, u.slave); after != before {
				t.Errorf("terminal not restored after %q:\nbefore %+v\nafter  %+v", tt.script, before, after)
			}
		})
	}
}

func TestRun_ptyIsNotTheUsersTerminal(t *testing.T) {
	u := newUserTerminal(t)
	outer, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(u.slave.Fd())))
	if err != nil {
		t.Skip("no /proc")
	}
	if _, err := Run(t.Context(), sh("tty; stty size"), u.stdio(), Options{TTY: true}); err != nil {
		t.Fatal(err)
	}
	// The output reaches the user's terminal through its master, which
	// this test reads on its own goroutine: wait for the last line.
	u.waitFor(t, "30 100")
	out := u.output()
	if !strings.Contains(out, "/dev/pts/") || strings.Contains(out, outer+"\r") {
		t.Errorf("command saw terminal %q, the user's is %s", out, outer)
	}
}

func TestRun_ptyInputAndResize(t *testing.T) {
	u := newUserTerminal(t)
	done := make(chan Result, 1)
	go func() {
		res, err := Run(context.Background(), sh(`trap 'stty size; exit 3' WINCH; echo ready; read line; echo "got:$line"; while :; do sleep 0.05; done`), u.stdio(), Options{TTY: true})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	u.waitFor(t, "ready")
	if _, err := u.master.Write([]byte("hello\r")); err != nil {
		t.Fatal(err)
	}
	u.waitFor(t, "got:hello")
	time.Sleep(100 * time.Millisecond)
	if err := pty.Setsize(u.master, &pty.Winsize{Rows: 41, Cols: 123}); err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGWINCH)
	u.waitFor(t, "41 123")
	select {
	case res := <-done:
		if res.ExitCode != 3 {
			t.Errorf("exit = %d, want 3", res.ExitCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("command did not exit after resize")
	}
}

func TestRun_ptyNoStolenKeystrokes(t *testing.T) {
	u := newUserTerminal(t)
	if _, err := Run(t.Context(), sh("sleep 0.2"), u.stdio(), Options{TTY: true}); err != nil {
		t.Fatal(err)
	}
	// Keys typed after the command ended belong to whoever reads the
	// terminal next (the shell), not to airlock.
	if _, err := u.master.Write([]byte("after\n")); err != nil {
		t.Fatal(err)
	}
	_ = u.slave.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 64)
	n, err := u.slave.Read(buf)
	if err != nil || string(buf[:n]) != "after\n" {
		t.Errorf("read %q, %v after the run; want the typed line", buf[:n], err)
	}
}

func TestRun_pipesByteIdentical(t *testing.T) {
	data := make([]byte, 1<<20)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	var out, errOut []byte
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); out, _ = io.ReadAll(outR) }()
	go func() { defer wg.Done(); errOut, _ = io.ReadAll(errR) }()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	res, err := Run(t.Context(), sh("cat "+file+"; echo err >&2; exit 4"), Stdio{In: devnull, Out: outW, Err: errW}, Options{})
	outW.Close()
	errW.Close()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 4 {
		t.Errorf("exit = %d, want 4", res.ExitCode)
	}
	if !bytes.Equal(out, data) {
		t.Errorf("stdout differs from the command's own output (%d vs %d bytes)", len(out), len(data))
	}
	if string(errOut) != "err\n" {
		t.Errorf("stderr = %q, want \"err\\n\"", errOut)
	}
}

func TestRun_pipesForwardSIGTERM(t *testing.T) {
	outR, outW, _ := os.Pipe()
	defer outR.Close()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	done := make(chan Result, 1)
	go func() {
		res, _ := Run(context.Background(), sh(`trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done`), Stdio{In: devnull, Out: outW, Err: outW}, Options{})
		done <- res
	}()
	buf := make([]byte, 16)
	if n, _ := outR.Read(buf); !strings.HasPrefix(string(buf[:n]), "ready") {
		t.Fatalf("got %q, want ready", buf[:n])
	}
	time.Sleep(50 * time.Millisecond)
	_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case res := <-done:
		if res.ExitCode != 42 {
			t.Errorf("exit = %d, want 42 from the command's TERM trap", res.ExitCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM was not forwarded")
	}
	outW.Close()
}

func TestRun_startFailure(t *testing.T) {
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	_, err := Run(t.Context(), Spec{Argv: []string{"/nonexistent/prog"}, Dir: "/"}, Stdio{In: devnull, Out: devnull, Err: devnull}, Options{})
	if err == nil {
		t.Error("Run of a missing program succeeded")
	}
}

func TestRun_ptyJobControl(t *testing.T) {
	u := newUserTerminal(t)
	before := termios(t, u.slave)
	suspended := 0
	var during unix.Termios
	opts := Options{TTY: true, SuspendSelf: func() {
		suspended++
		during = termios(t, u.slave)
	}}
	// The child stops itself; the host must hand the terminal back,
	// "suspend", then continue the child. (SIGSTOP, since the kernel
	// discards SIGTSTP in the orphaned group of a session leader.)
	res, err := Run(t.Context(), sh("echo before; kill -STOP $$; echo after; exit 6"), u.stdio(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if suspended != 1 {
		t.Errorf("host suspended %d times, want 1", suspended)
	}
	if during != before {
		t.Errorf("terminal was not restored while suspended")
	}
	if res.ExitCode != 6 {
		t.Errorf("exit = %d, want 6 after resuming", res.ExitCode)
	}
	u.waitFor(t, "after")
	if after := termios(t, u.slave); after != before {
		t.Errorf("terminal not restored at the end")
	}
}

func TestRun_ptyReportedStop(t *testing.T) {
	u := newUserTerminal(t)
	stopped := make(chan struct{}, 1)
	suspended := make(chan struct{}, 1)
	opts := Options{TTY: true, Stopped: stopped, SuspendSelf: func() { suspended <- struct{}{} }}
	done := make(chan Result, 1)
	go func() {
		res, _ := Run(context.Background(), sh("echo ready; read x; exit 0"), u.stdio(), opts)
		done <- res
	}()
	u.waitFor(t, "ready")
	stopped <- struct{}{} // as a launcher reports a stop
	select {
	case <-suspended:
	case <-time.After(5 * time.Second):
		t.Fatal("a reported stop did not suspend the host")
	}
	if _, err := u.master.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if res.ExitCode != 0 {
			t.Errorf("exit = %d", res.ExitCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("input did not reach the command after resuming")
	}
}

func TestRun_pipesKeepStderrTail(t *testing.T) {
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	var out, errOut []byte
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); out, _ = io.ReadAll(outR) }()
	go func() { defer wg.Done(); errOut, _ = io.ReadAll(errR) }()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	res, err := Run(t.Context(), sh("echo out; echo 'touch: cannot touch /etc/x: Read-only file system' >&2; exit 1"),
		Stdio{In: devnull, Out: outW, Err: errW}, Options{TailBytes: 64})
	outW.Close()
	errW.Close()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "out\n" || !strings.Contains(string(errOut), "Read-only file system") {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	if !strings.Contains(string(res.Tail), "/etc/x") || len(res.Tail) > 64 {
		t.Errorf("tail = %q, want the end of stderr, at most 64 bytes", res.Tail)
	}
	// stdout and stderr on one file: no relay, so nothing can reorder.
	r, w, _ := os.Pipe()
	res, err = Run(t.Context(), sh("echo a; echo b >&2; echo c"), Stdio{In: devnull, Out: w, Err: w}, Options{TailBytes: 64})
	w.Close()
	both, _ := io.ReadAll(r)
	if err != nil || string(both) != "a\nb\nc\n" || len(res.Tail) != 0 {
		t.Errorf("shared stdout/stderr: %q tail %q err %v", both, res.Tail, err)
	}
}
