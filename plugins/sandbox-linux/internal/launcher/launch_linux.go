package launcher

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Exit statuses of the launcher itself, as a shell gives them.
const (
	exitSetup    = 125 // the sandbox could not be built; the report says why
	exitNoExec   = 126 // the command exists but cannot be executed
	exitNotFound = 127 // the command does not exist
)

// Run runs one launcher stage and returns its exit status. args[0]
// is the hidden stage argument and args[1] the encoded launch config.
func Run(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "airlock: the sandbox launcher is started by airlock, not by hand")
		return exitSetup
	}
	if args[0] == InitArg && args[1] == ProbeArg {
		if os.Getpid() != 1 {
			fmt.Fprintln(os.Stderr, "airlock: the sandbox launcher is started by airlock, not by hand")
			return exitSetup
		}
		return probeChild()
	}
	cfg, err := decodeConfig(args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "airlock: %v\n", err)
		return exitSetup
	}
	cfg.Argv = args[2:]
	if len(cfg.Argv) == 0 {
		fmt.Fprintln(os.Stderr, "airlock: the sandbox launcher was given no command")
		return exitSetup
	}
	rep := newReporter(cfg.ReportFD)
	if args[0] == InitArg {
		if os.Getpid() != 1 {
			// Run by hand, the init stage would remount the caller's
			// own file system.
			fmt.Fprintln(os.Stderr, "airlock: the sandbox launcher is started by airlock, not by hand")
			return exitSetup
		}
		return stageInit(cfg, rep)
	}
	if err := cfg.resolve(); err != nil {
		return setupFailed(rep, err)
	}
	if os.Getpid() == 1 {
		// The host started this process in the sandbox's namespaces, as
		// the launch spec asked: it is the init stage already.
		if err := checkOwnUserNS(); err != nil {
			return setupFailed(rep, err)
		}
		return stageInit(cfg, rep)
	}
	resolved, err := cfg.Encode()
	if err != nil {
		return setupFailed(rep, err)
	}
	return stageOuter(cfg, rep, resolved)
}

func setupFailed(rep *reporter, err error) int {
	rep.emit(ReportEvent{Event: "setup_error", Detail: err.Error()})
	fmt.Fprintf(os.Stderr, "airlock: sandbox setup failed: %v; run 'airlock doctor' to see what this machine supports\n", err)
	return exitSetup
}

// forwarded are the signals the outer stages pass inward. With a terminal,
// the interrupt, quit and window-change signals already reach the command's
// process group from the tty, so they are caught (to keep the launcher alive)
// but not forwarded twice.
var forwarded = []os.Signal{
	syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH, syscall.SIGTSTP,
	syscall.SIGCONT, syscall.SIGALRM,
}

func fromTTY(s os.Signal) bool {
	switch s {
	case syscall.SIGINT, syscall.SIGQUIT, syscall.SIGWINCH, syscall.SIGTSTP:
		return true
	}
	return false
}

// stageOuter runs in the host's PTY. It creates the namespaces by starting
// the init stage in them, forwards signals and returns the init stage's
// status.
func stageOuter(cfg *Config, rep *reporter, enc string) int {
	ns := &sandbox.Namespaces{Kinds: NamespaceKinds(cfg.NetworkOn), AmbientCaps: InitCaps}
	flags, err := ns.CloneFlags()
	if err != nil {
		return setupFailed(rep, err)
	}
	caps, err := ns.CapNumbers()
	if err != nil {
		return setupFailed(rep, err)
	}
	uid, gid := os.Getuid(), os.Getgid()
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	if cfg.ReportFD >= 0 {
		files = append(files, os.NewFile(uintptr(cfg.ReportFD), "report"))
	}
	self := "/proc/self/exe"
	p, err := os.StartProcess(self, append([]string{self, InitArg, enc}, cfg.Argv...), &os.ProcAttr{
		Files: files,
		Env:   os.Environ(),
		Sys: &syscall.SysProcAttr{
			Cloneflags:                 flags,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
			GidMappingsEnableSetgroups: false,
			// A non-root uid loses every capability at execve; as ambient
			// capabilities, the ones the init stage needs survive into it,
			// in the new user namespace only. The init stage drops them all
			// before the command starts.
			AmbientCaps: caps,
			Pdeathsig:   syscall.SIGKILL,
		},
	})
	if err != nil {
		if !sandbox.NamespacesRefused(err) {
			return setupFailed(rep, fmt.Errorf("create namespaces: %w", err))
		}
		if cfg.Degraded {
			return stageDegraded(cfg, rep)
		}
		msg := fmt.Sprintf("user namespaces are unavailable here (%v), and the Landlock-only mode cannot keep .git read-only or give a private /tmp; "+
			"set sandbox.allow_degraded = true to accept it, or see 'airlock doctor' for how to enable user namespaces", unwrapPathErr(err))
		rep.emit(ReportEvent{Event: "setup_error", Detail: msg})
		fmt.Fprintf(os.Stderr, "airlock: refused: %s\n", msg)
		return exitSetup
	}
	relaySignals(cfg.TTY).to(p.Pid, -1)
	st, err := p.Wait()
	if err != nil {
		return setupFailed(rep, fmt.Errorf("wait for sandbox: %w", err))
	}
	return statusCode(st.Sys().(syscall.WaitStatus))
}

// checkOwnUserNS makes sure a launcher that finds itself PID 1 is in a
// user namespace of its own, not the machine's (whose map is the identity
// over every uid), before it remounts anything.
func checkOwnUserNS() error {
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return fmt.Errorf("read uid map: %w", err)
	}
	if f := strings.Fields(string(b)); len(f) == 3 && f[0] == "0" && f[1] == "0" && f[2] == "4294967295" {
		return errors.New("started as PID 1 outside a user namespace of its own")
	}
	return nil
}

// quarantine moves aside any protected name that appeared in a writable
// root during the run. The supervisor refuses to create them, but its check
// reads the path from the command's memory, which a determined command can
// rewrite between the check and the kernel's own read. It runs after
// endNamespace, so nothing from the sandbox is left to race this move.
func quarantine(cfg *Config, rep *reporter) {
	for _, p := range cfg.Missing {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		dst := fmt.Sprintf("%s.airlock-quarantine-%d", p, time.Now().UnixNano())
		if err := os.Rename(p, dst); err != nil {
			rep.emit(ReportEvent{Event: "denied", Kind: "write", Op: "create", Path: p,
				Detail: "created despite protection, and it could not be moved aside: " + err.Error()})
			fmt.Fprintf(os.Stderr, "airlock: warning: %s appeared during the sandboxed run and could not be moved aside (%v); inspect it before running git or airlock there\n", p, unwrapPathErr(err))
			continue
		}
		rep.emit(ReportEvent{Event: "denied", Kind: "write", Op: "create", Path: p, Detail: "created despite protection; moved to " + dst})
		fmt.Fprintf(os.Stderr, "airlock: %s is protected but appeared during the sandboxed run; moved it to %s\n", p, dst)
	}
}

func statusCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// stageInit is PID 1 of the sandbox's PID namespace.
func stageInit(cfg *Config, rep *reporter) int {
	// The command is forked from this thread, which carries its dropped
	// credentials; it is never unlocked, so it dies with the process.
	runtime.LockOSThread()
	relay := relaySignals(cfg.TTY)
	if err := buildRoot(cfg); err != nil {
		return setupFailed(rep, err)
	}
	if !cfg.NetworkOn {
		if err := loopbackUp(); err != nil {
			return setupFailed(rep, fmt.Errorf("bring up loopback: %w", err))
		}
	}
	listener, err := restrict(cfg, true)
	if err != nil {
		return setupFailed(rep, err)
	}
	code, sig := runAndReap(cfg, rep, listener, relay, true)
	endNamespace()
	quarantine(cfg, rep)
	// Nothing of the sandbox is left but this process, whose exit the
	// kernel follows with the namespaces' teardown. The host may go on as
	// soon as it reads "done"; its readers of the command's output see end
	// of file once these descriptors are gone.
	releaseStdio()
	rep.finish(code, sig)
	return code
}

// releaseStdio points 0, 1 and 2 at /dev/null.
func releaseStdio() {
	null, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	for fd := range 3 {
		_ = unix.Dup3(null, fd, 0)
	}
	unix.Close(null)
}

// endNamespace kills every other process of the PID namespace and reaps
// them all, so nothing from the sandbox outlives the command, not even for
// the moment the kernel would take after this process exits. It runs on
// the thread that started the command, whose Landlock domain may signal
// everything the command started.
func endNamespace() {
	_ = syscall.Kill(-1, syscall.SIGKILL)
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return // ECHILD: no one is left
		}
	}
}

// restrict drops every capability and applies Landlock and seccomp to this
// thread and everything it starts. namespaces says whether the mount and
// network namespaces already enforce the policy's first layer. It returns
// the seccomp listener for the supervisor, or -1 when there is none.
func restrict(cfg *Config, namespaces bool) (int, error) {
	if err := dropCapabilities(); err != nil {
		return -1, fmt.Errorf("drop capabilities: %w", err)
	}
	if err := applyLandlock(cfg, namespaces); err != nil {
		return -1, fmt.Errorf("landlock: %w", err)
	}
	if err := installSeccomp(filterOptions{networkOff: !cfg.NetworkOn, denyInet: !cfg.NetworkOn && !namespaces, selfOnlyPriority: !namespaces}); err != nil {
		return -1, fmt.Errorf("seccomp: %w", err)
	}
	listener, err := installNotifyFilter(notifyOptions{listen: true, networkOff: !cfg.NetworkOn})
	if err != nil {
		return -1, fmt.Errorf("seccomp: %w", err)
	}
	// Nothing the caller leaked reaches the command: os.StartProcess passes
	// only 0, 1 and 2, and every other descriptor is close-on-exec.
	_ = unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	return listener, nil
}

// runAndReap starts the supervisor on listener (when it is not -1), then
// the command as a child, and waits for it, reaping any orphan that lands
// on this process meanwhile. It returns the command's status; the caller
// exits (or, without namespaces, kills what is left).
//
// The caller holds runtime.LockOSThread: the command is forked from this
// thread, which carries its Landlock domain and whose end PR_SET_PDEATHSIG
// follows, and the wait runs here too, so the command's exit wakes this
// thread directly instead of passing through another goroutine first (a
// hand-off that cost about a millisecond on a two-core VM). Signals are
// forwarded by relay, on another thread: it is in no Landlock domain, so
// it may signal into the command's.
func runAndReap(cfg *Config, rep *reporter, listener int, relay *signalRelay, namespaces bool) (code, sig int) {
	if listener >= 0 {
		// The command's notified calls wait for this goroutine, which
		// never runs on the locked thread.
		go newSupervisor(listener, cfg, rep, namespaces).run()
	}
	path, err := exec.LookPath(cfg.Argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "airlock: %s: command not found\n", cfg.Argv[0])
		rep.emit(ReportEvent{Event: "exit", Code: exitNotFound, Detail: "command not found"})
		return exitNotFound, 0
	}
	pidfd := -1
	sys := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, PidFD: &pidfd}
	if cfg.TTY {
		// As a shell does: the command gets its own process group, in
		// the foreground of the PTY. Its group then has a parent in the
		// same session, so Ctrl-Z really stops it (the kernel discards
		// stops in orphaned groups), and keyboard signals reach only it.
		sys.Setpgid, sys.Foreground, sys.Ctty = true, true, 0
	}
	// syscall.ForkExec rather than os.StartProcess, which first checks
	// that pidfds work by starting and reaping a throwaway child.
	pid, err := syscall.ForkExec(path, cfg.Argv, &syscall.ProcAttr{
		Dir:   cfg.Cwd,
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   sys,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "airlock: %s: %v\n", cfg.Argv[0], err)
		rep.emit(ReportEvent{Event: "exit", Code: exitNoExec, Detail: err.Error()})
		if errors.Is(err, syscall.ENOENT) {
			return exitNotFound, 0
		}
		return exitNoExec, 0
	}
	relay.to(pid, pidfd)
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, syscall.WUNTRACED, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return setupFailed(rep, fmt.Errorf("wait: %w", err)), 0
		}
		if wpid != pid {
			continue // an orphan reparented here
		}
		if ws.Stopped() {
			// Ctrl-Z: the host suspends itself like any job and sends
			// SIGCONT when the user resumes it.
			rep.emit(ReportEvent{Event: "stopped", Signal: int(ws.StopSignal())})
			continue
		}
		if !ws.Exited() && !ws.Signaled() {
			continue
		}
		code := statusCode(ws)
		ev := ReportEvent{Event: "exit", Code: code}
		if ws.Signaled() {
			ev.Signal = int(ws.Signal())
		}
		rep.emit(ev)
		return code, ev.Signal
	}
}

// signalRelay passes the signals the launcher receives to the command.
type signalRelay struct {
	target chan [2]int // the command's pid and pidfd
}

// relaySignals starts catching the forwarded signals at once, on a
// goroutine of its own: the first signal.Notify starts the runtime's
// signal thread, about a millisecond on a small VM, which then overlaps
// the sandbox's setup. What arrives before the command starts is kept
// (up to a buffer's worth) and passed on once it has.
func relaySignals(tty bool) *signalRelay {
	r := &signalRelay{target: make(chan [2]int, 1)}
	go r.run(tty)
	return r
}

// to names the process to pass signals to: the command, or from the outer
// stage the init stage. Signals go through its pidfd when there is one
// (-1 otherwise), so one that races its exit fails instead of reaching a
// process that took its PID; relaying never stops, so a signal during the
// launcher's cleanup cannot interrupt it either.
func (r *signalRelay) to(pid, pidfd int) { r.target <- [2]int{pid, pidfd} }

func (r *signalRelay) run(tty bool) {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, forwarded...)
	t := <-r.target
	for s := range sigs {
		if tty && fromTTY(s) {
			continue // the terminal sent it to the command already
		}
		if t[1] >= 0 {
			_ = unix.PidfdSendSignal(t[1], s.(syscall.Signal), nil, 0)
		} else {
			_ = syscall.Kill(t[0], s.(syscall.Signal))
		}
	}
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
