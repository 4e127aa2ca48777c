package ptyexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/internal/term"
)

// Spec is what to run.
type Spec struct {
	Argv []string
	Env  []string
	Dir  string
	// ExtraFiles are passed as descriptors 3, 4, ….
	ExtraFiles []*os.File
	// Namespaces, on Linux, start the program as the first process of new
	// namespaces (see sandbox.Namespaces); when the kernel refuses them it
	// starts without.
	Namespaces []string
	// AmbientCaps are the capabilities it keeps across exec in its new
	// user namespace, by name.
	AmbientCaps []string
}

// Stdio are the user's streams.
type Stdio struct {
	In, Out, Err *os.File
}

// Options tune a run.
type Options struct {
	// TTY runs the command on a PTY. The caller decides, normally when
	// both In and Out are terminals.
	TTY bool
	// TailBytes is how much of the output to keep for Explain: the PTY's
	// output, or stderr when it is a stream of its own.
	TailBytes int
	// KillGrace is how long a forwarded SIGTERM or SIGHUP may take before
	// the command is killed.
	KillGrace time.Duration
	// Stopped receives a value when a sandbox launcher reports that the
	// command stopped (Ctrl-Z); the host then suspends itself like any job.
	// A command run without a launcher is watched directly. PTY only.
	Stopped <-chan struct{}
	// SuspendSelf stops the host until the user resumes it; nil means
	// SIGSTOP to itself. Tests replace it.
	SuspendSelf func()
	// Finished receives the command's status when a sandbox launcher
	// reports that the sandbox is over, before the launcher itself has
	// exited (its namespaces' teardown is the kernel's business). Pipes
	// only; a PTY run waits for the launcher.
	Finished <-chan Result
}

// Result is the outcome of a run.
type Result struct {
	// ExitCode is the command's status, 128+N when it died of signal N.
	ExitCode int
	// Signal is N when the command died of signal N.
	Signal int
	// Tail is the end of the output, when kept.
	Tail []byte
}

// ErrStart wraps a failure to start the command at all.
var ErrStart = errors.New("start command")

// Run runs spec and waits for it. ctx ending kills the command.
func Run(ctx context.Context, spec Spec, stdio Stdio, opts Options) (Result, error) {
	if len(spec.Argv) == 0 {
		return Result{}, fmt.Errorf("%w: empty argv", ErrStart)
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = 3 * time.Second
	}
	cmd := &command{argv: spec.Argv, env: spec.Env, dir: spec.Dir, extra: spec.ExtraFiles}
	ns, err := namespaceAttr(spec.Namespaces, spec.AmbientCaps)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	if opts.TTY {
		return runPTY(ctx, cmd, ns, stdio, opts)
	}
	return runPipes(ctx, cmd, ns, stdio, opts)
}

// command is what Run starts: the spec, the three standard files and the
// process attributes.
type command struct {
	argv, env             []string
	dir                   string
	stdin, stdout, stderr *os.File
	extra                 []*os.File
	sys                   *syscall.SysProcAttr
}

func (c *command) start(sys *syscall.SysProcAttr) (*proc, error) {
	files := append([]*os.File{c.stdin, c.stdout, c.stderr}, c.extra...)
	return startProc(c.argv, c.env, c.dir, files, sys)
}

// start starts cmd in the namespaces ns asks for, and without them when
// the kernel refuses (user namespaces disabled or restricted): the
// program asked for them only to save itself the work.
func start(cmd *command, ns *nsAttr) (*proc, error) {
	if ns == nil {
		return cmd.start(cmd.sys)
	}
	with := *cmd.sys
	ns.apply(&with)
	p, err := cmd.start(&with)
	if err == nil || !namespacesRefused(err) {
		return p, err
	}
	return cmd.start(cmd.sys)
}

// runPipes hands the command the caller's own descriptors: output is
// byte-identical, stdout and stderr stay apart, and `$(…)`, pipes and
// redirections behave as without airlock.
func runPipes(ctx context.Context, cmd *command, ns *nsAttr, stdio Stdio, opts Options) (Result, error) {
	cmd.stdin, cmd.stdout, cmd.stderr = stdio.In, stdio.Out, stdio.Err
	// A new session: no controlling terminal, so the command can neither
	// push input into the user's terminal nor signal the caller's group.
	cmd.sys = sysProcAttr(false)
	// Keep the end of stderr for Explain by relaying it, but only where
	// that changes nothing the caller can see: stderr is its own stream,
	// not a terminal and not the same file as stdout (whose interleaving a
	// relay could reorder).
	var relay *stderrRelay
	if opts.TailBytes > 0 && !term.IsTerminal(stdio.Err) && !sameFile(stdio.Err, stdio.Out) {
		r, w, err := os.Pipe()
		if err == nil {
			relay = &stderrRelay{r: r, tail: newTail(opts.TailBytes), done: make(chan struct{})}
			cmd.stderr = w
			go relay.run(stdio.Err)
		}
	}
	p, err := start(cmd, ns)
	if relay != nil {
		// Only the command holds the write end from here on, so the relay
		// sees end of file when the command and its children are done.
		cmd.stderr.Close()
	}
	if err != nil {
		if relay != nil {
			relay.finish()
		}
		return Result{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	defer p.release()
	stop := forwardSignals(ctx, p, false, opts.KillGrace)
	defer stop()
	res, err := waitOrFinished(p, opts.Finished)
	if relay != nil {
		res.Tail = relay.finish()
	}
	return res, err
}

// stderrRelay copies the command's stderr through and keeps its tail.
type stderrRelay struct {
	r    *os.File
	tail *tailBuffer
	done chan struct{}
}

func (s *stderrRelay) run(dst *os.File) {
	defer close(s.done)
	_, _ = io.Copy(io.MultiWriter(dst, s.tail), s.r)
}

// finish waits for the last output; a process that outlived the command
// and kept stderr open (only possible without a sandbox) cannot hold the
// host for long.
func (s *stderrRelay) finish() []byte {
	select {
	case <-s.done:
	case <-time.After(200 * time.Millisecond):
		s.r.Close()
		<-s.done
	}
	s.r.Close()
	return s.tail.bytes()
}

func sameFile(a, b *os.File) bool {
	if a == nil || b == nil {
		return false
	}
	fa, errA := a.Stat()
	fb, errB := b.Stat()
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

func wait(p *proc) (Result, error) {
	ws, err := p.wait()
	if err != nil {
		return Result{}, err
	}
	return resultOf(ws), nil
}

// waitOrFinished waits for cmd, or for its report that it is finished,
// whichever comes first. A finished launcher is only exiting; it is left
// to the kernel, and to PR_SET_PDEATHSIG should the host exit first.
func waitOrFinished(p *proc, finished <-chan Result) (Result, error) {
	if finished == nil {
		return wait(p)
	}
	type waited struct {
		res Result
		err error
	}
	ch := make(chan waited, 1)
	go func() {
		res, err := wait(p)
		ch <- waited{res, err}
	}()
	select {
	case w := <-ch:
		return w.res, w.err
	case res := <-finished:
		return res, nil
	}
}

// resultOf reports a finished process's status as a shell does.
func resultOf(ws syscall.WaitStatus) Result {
	if ws.Signaled() {
		return Result{ExitCode: 128 + int(ws.Signal()), Signal: int(ws.Signal())}
	}
	return Result{ExitCode: ws.ExitStatus()}
}

// forwardSignals passes the host's signals to the command. On a PTY the
// terminal already delivers keyboard signals to the command, and raw mode
// means the host sees none; SIGTERM and SIGHUP are forwarded, and if the
// command ignores them it is killed after grace.
func forwardSignals(ctx context.Context, p *proc, tty bool, grace time.Duration) (stop func()) {
	sigs := []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2}
	if !tty {
		sigs = append(sigs, syscall.SIGINT, syscall.SIGQUIT)
	}
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, sigs...)
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		var killAt <-chan time.Time
		for {
			select {
			case s := <-ch:
				_ = p.signal(s.(syscall.Signal))
				if (s == syscall.SIGTERM || s == syscall.SIGHUP) && killAt == nil {
					killAt = time.After(grace)
				}
			case <-killAt:
				_ = p.signal(syscall.SIGKILL)
			case <-ctx.Done():
				_ = p.signal(syscall.SIGTERM)
				if killAt == nil {
					killAt = time.After(grace)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done); <-exited }
}

// runPTY runs the command on a new PTY, with the user's terminal in raw
// mode for exactly as long as the command runs.
func runPTY(ctx context.Context, cmd *command, ns *nsAttr, stdio Stdio, opts Options) (res Result, err error) {
	master, slave, err := pty.Open()
	if err != nil {
		return Result{}, fmt.Errorf("%w: open pty: %v", ErrStart, err)
	}
	defer master.Close()
	if cols, rows, err := term.Size(stdio.Out); err == nil {
		_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	}
	cmd.stdin, cmd.stdout, cmd.stderr = slave, slave, slave
	cmd.sys = sysProcAttr(true)
	raw, err := term.MakeRaw(stdio.In)
	if err != nil {
		slave.Close()
		return Result{}, fmt.Errorf("%w: raw mode: %v", ErrStart, err)
	}
	defer raw.Restore()
	p, err := start(cmd, ns)
	slave.Close()
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	defer p.release()

	stopSig := forwardSignals(ctx, p, true, opts.KillGrace)
	defer stopSig()
	stopWinch := forwardResize(stdio.Out, master)
	defer stopWinch()

	tail := newTail(opts.TailBytes)
	outDone := make(chan struct{})
	go func() {
		defer close(outDone)
		copyOutput(io.MultiWriter(stdio.Out, tail), master)
	}()
	in, err := newInputCopier(stdio.In, master)
	if err != nil {
		_ = p.signal(syscall.SIGKILL)
		_, _ = wait(p)
		return Result{}, fmt.Errorf("%w: %v", ErrStart, err)
	}
	defer func() { in.stop() }()
	suspendSelf := opts.SuspendSelf
	if suspendSelf == nil {
		suspendSelf = func() { _ = syscall.Kill(os.Getpid(), syscall.SIGSTOP) }
	}
	// suspend hands the terminal back while the command is stopped: the
	// user's shell gets its keyboard and its own terminal mode, and the
	// command continues when the user resumes the host.
	suspend := func() {
		in.stop()
		_ = raw.Suspend()
		suspendSelf()
		_ = raw.Resume()
		// Right after fg the shell may still be putting its own terminal
		// mode back; keep raw mode for a moment, as full-screen programs
		// do after SIGCONT.
		go func() {
			for range 10 {
				time.Sleep(30 * time.Millisecond)
				raw.Reassert()
			}
		}()
		if cols, rows, err := term.Size(stdio.Out); err == nil {
			_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
		}
		if c, err := newInputCopier(stdio.In, master); err == nil {
			in = c
		}
		// The stopped job may be the PTY's foreground group (a sandboxed
		// command in its own group) or the child's own group.
		if fg, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPGRP); err == nil && fg > 0 {
			_ = syscall.Kill(-fg, syscall.SIGCONT)
		}
		_ = syscall.Kill(-p.pid, syscall.SIGCONT)
	}
	res, err = waitJob(p, opts.Stopped, suspend)
	// Stop reading the user's keyboard before anything else: keys typed
	// from now on belong to the shell.
	in.stop()
	// Output still in the PTY is drained; a process that kept the PTY open
	// (only possible without a sandbox) cannot hold the host forever.
	_ = master.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	<-outDone
	res.Tail = tail.bytes()
	return res, err
}

// waitJob waits for the command on a PTY, suspending the host whenever the
// command stops, as seen directly or as reported through stopped.
func waitJob(p *proc, stopped <-chan struct{}, suspend func()) (Result, error) {
	type status struct {
		ws  syscall.WaitStatus
		err error
	}
	statuses := make(chan status, 1)
	resume := make(chan struct{})
	go func() {
		for {
			var ws syscall.WaitStatus
			_, err := syscall.Wait4(p.pid, &ws, syscall.WUNTRACED, nil)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			statuses <- status{ws, err}
			if err != nil || !ws.Stopped() {
				return
			}
			<-resume
		}
	}()
	for {
		select {
		case <-stopped:
			suspend()
		case st := <-statuses:
			if st.err != nil {
				return Result{}, st.err
			}
			if st.ws.Stopped() {
				suspend()
				resume <- struct{}{}
				continue
			}
			return resultOf(st.ws), nil
		}
	}
}

// copyOutput copies until the PTY reports EOF or EIO (every slave closed)
// or a read deadline passes with nothing more to read.
func copyOutput(dst io.Writer, master *os.File) {
	buf := make([]byte, 32*1024)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
			// Keep draining while output flows.
			_ = master.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		}
		if err != nil {
			return
		}
	}
}

func forwardResize(out, master *os.File) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-ch:
				if cols, rows, err := term.Size(out); err == nil {
					_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
				}
			case <-done:
				return
			}
		}
	}()
	// Waiting for the goroutine keeps it from touching the PTY after the
	// caller closes it.
	return func() { signal.Stop(ch); close(done); <-exited }
}

// inputCopier copies the user's keyboard to the PTY, polling both the
// keyboard and a wake-up pipe so it can stop without consuming a key.
type inputCopier struct {
	tty          bool
	wakeR, wakeW *os.File
	done         chan struct{}
	once         sync.Once
}

func newInputCopier(in, master *os.File) (*inputCopier, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c := &inputCopier{tty: term.IsTerminal(in), wakeR: r, wakeW: w, done: make(chan struct{})}
	go c.run(int(in.Fd()), master)
	return c, nil
}

func (c *inputCopier) run(fd int, master *os.File) {
	defer close(c.done)
	buf := make([]byte, 4096)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}, {Fd: int32(c.wakeR.Fd()), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		if fds[0].Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) == 0 {
			continue
		}
		n, err := unix.Read(fd, buf)
		if n > 0 {
			if _, werr := master.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil && !errors.Is(err, unix.EINTR) && !errors.Is(err, unix.EAGAIN) {
			return
		}
		if n == 0 && err == nil {
			// A terminal in canonical mode (just after a resumed job,
			// before raw mode is back) turns the EOF key into a zero
			// read: it was meant for the command, so pass EOF on.
			if c.tty {
				if _, werr := master.Write([]byte{4}); werr != nil {
					return
				}
				continue
			}
			return
		}
	}
}

func (c *inputCopier) stop() {
	c.once.Do(func() {
		_, _ = c.wakeW.Write([]byte{0})
		<-c.done
		c.wakeR.Close()
		c.wakeW.Close()
	})
}

// tailBuffer keeps the last n bytes written.
type tailBuffer struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func newTail(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	if t.n <= 0 {
		return len(p), nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-t.n:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...)
}
