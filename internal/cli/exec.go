package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/airlock-dev/airlock/internal/config"
	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/internal/ptyexec"
	"github.com/airlock-dev/airlock/internal/speccache"
	"github.com/airlock-dev/airlock/internal/term"
	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// execFlags are the flags of `airlock exec`.
type execFlags struct {
	fs          *pflag.FlagSet
	mode        string
	addDirs     []string
	denyRead    []string
	network     string
	approval    string
	backend     string
	escalate    string
	reject      []string
	preapproved string
	line        string
}

func newExecFlags(name string) *execFlags {
	f := &execFlags{fs: pflag.NewFlagSet(name, pflag.ContinueOnError)}
	f.fs.SetInterspersed(false)
	f.fs.SetOutput(io.Discard)
	f.fs.StringVarP(&f.mode, "sandbox", "s", "", "read-only | workspace-write | danger-full-access")
	f.fs.StringArrayVar(&f.addDirs, "add-dir", nil, "extra writable root (repeatable)")
	f.fs.StringArrayVar(&f.denyRead, "deny-read", nil, "hide a path from reads (repeatable)")
	f.fs.StringVar(&f.network, "network", "", "off | on")
	f.fs.StringVarP(&f.approval, "ask-for-approval", "a", "", "untrusted | on-failure | on-request | never")
	f.fs.StringVar(&f.backend, "backend", "", "sandbox plugin to use")
	f.fs.StringVar(&f.escalate, "escalate", "", "ask to run without the sandbox, saying why")
	f.fs.StringVar(&f.preapproved, "preapproved", "", "a one-shot approval token from the shell integration")
	_ = f.fs.MarkHidden("preapproved")
	f.fs.StringVar(&f.line, "line", "", "the line as typed, for prompts (shell integration)")
	_ = f.fs.MarkHidden("line")
	f.fs.StringSliceVar(&f.reject, "reject", nil, "prompt kinds to refuse without asking: rule, heuristic, sandbox")
	return f
}

// layer turns the flags that were set into a config layer.
func (f *execFlags) layer() (map[string]any, map[string]string) {
	m, names := map[string]any{}, map[string]string{}
	set := func(flag, key string, v any) {
		if f.fs.Changed(flag) {
			m[key], names[key] = v, "--"+flag
		}
	}
	set("sandbox", "sandbox.mode", f.mode)
	set("network", "sandbox.network", f.network)
	set("ask-for-approval", "approval.policy", f.approval)
	set("backend", "sandbox.backend", f.backend)
	set("reject", "approval.reject", f.reject)
	return m, names
}

func (f *execFlags) parse(args []string) ([]string, error) {
	if err := f.fs.Parse(args); err != nil {
		return nil, usagef("exec: %v", err)
	}
	rest := f.fs.Args()
	if len(rest) == 0 {
		return nil, usagef("exec: no command given (usage: airlock exec [flags] -- CMD [ARGS...])")
	}
	return rest, nil
}

func runExec(ctx context.Context, args []string, stdio Stdio, e env) int {
	f := newExecFlags("exec")
	argv, err := f.parse(args)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	return execute(ctx, f, argv, stdio, e)
}

// runSh is the drop-in for `$SHELL -c STRING`: the string runs under
// /bin/sh inside the chamber.
func runSh(ctx context.Context, args []string, stdio Stdio, e env) int {
	if len(args) < 2 || args[0] != "-c" {
		return exitCode(stdio.Err, usagef("sh: usage: airlock sh -c STRING [ARG0 [ARGS...]]"))
	}
	return execute(ctx, newExecFlags("sh"), append([]string{"/bin/sh", "-c"}, args[1:]...), stdio, e)
}

func execute(ctx context.Context, f *execFlags, argv []string, stdio Stdio, e env) int {
	layer, names := f.layer()
	a, err := newApp(e, layer, names)
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	defer a.close()
	started := time.Now()
	code, err := a.chamber(ctx, f, argv, stdio)
	a.log.Slog.Info("exec", "argv0", filepath.Base(argv[0]), "mode", a.cfg.Sandbox.Mode, "exit", code, "elapsed", time.Since(started))
	if err != nil {
		return exitCode(stdio.Err, err)
	}
	return code
}

func (a *app) policy(f *execFlags) (sandbox.Policy, error) {
	mode, err := sandbox.ParseMode(a.cfg.Sandbox.Mode)
	if err != nil {
		return sandbox.Policy{}, err
	}
	network, err := sandbox.ParseNetwork(a.cfg.Sandbox.Network)
	if err != nil {
		return sandbox.Policy{}, err
	}
	p := sandbox.Policy{Mode: mode, Network: network, ProtectedNames: a.cfg.Sandbox.ProtectedNames, AllowDegraded: a.cfg.Sandbox.AllowDegraded}
	if mode == sandbox.ModeWorkspaceWrite {
		roots := append([]string{a.cwd}, a.cfg.Sandbox.AddDirs...)
		roots = append(roots, f.addDirs...)
		for _, r := range roots {
			abs := a.absPath(r)
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				return p, usagef("--add-dir %s: not an existing directory", r)
			}
			p.WritableRoots = appendUnique(p.WritableRoots, abs)
		}
	}
	for _, d := range append(append([]string{}, a.cfg.Sandbox.DenyRead...), f.denyRead...) {
		p.DenyRead = appendUnique(p.DenyRead, a.absPath(d))
	}
	return p, nil
}

// absPath makes p absolute (relative to the working directory, with "~/"
// expanded) and resolves symbolic links where the path exists.
func (a *app) absPath(p string) string {
	p = config.Expand(p, a.dirs.Home)
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.cwd, p)
	}
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// attempt is one sandboxed run of argv under pol: launch spec, PTY or
// pipes, status, and afterwards the backend's explanation of a failure.
type attempt struct {
	res     ptyexec.Result
	denials []sandbox.Denial
}

func (a *app) runSandboxed(ctx context.Context, pol sandbox.Policy, argv, envList []string, stdio Stdio) (attempt, error) {
	tty := term.IsTerminal(stdio.In) && term.IsTerminal(stdio.Out)
	opts := ptyexec.Options{TTY: tty, TailBytes: 8192}
	entry, err := pluginhost.Find(a.entries, handshake.KindSandbox, a.cfg.Sandbox.Backend)
	if err != nil {
		return attempt{}, err
	}
	req := &sandbox.PrepareRequest{
		Command: sandbox.Command{Argv: argv, Cwd: a.cwd, Env: envList},
		Policy:  pol,
		TTY:     tty,
	}
	prep, sb, err := a.prepare(ctx, entry, req)
	if err != nil {
		return attempt{}, err
	}
	spec := ptyexec.Spec{Argv: prep.Spec.Argv, Env: prep.Spec.Env, Dir: prep.Spec.Cwd}
	if ns := prep.Spec.Namespaces; ns != nil {
		spec.Namespaces, spec.AmbientCaps = ns.Kinds, ns.AmbientCaps
	}
	reports := make([]*reportPipe, 0, len(prep.Spec.ExtraFiles))
	for range prep.Spec.ExtraFiles {
		rp, err := newReportPipe()
		if err != nil {
			return attempt{}, err
		}
		defer rp.close()
		reports = append(reports, rp)
		spec.ExtraFiles = append(spec.ExtraFiles, rp.w)
	}
	if len(reports) > 0 {
		opts.Stopped, opts.Finished = reports[0].stopped, reports[0].finished
	}
	res, err := ptyexec.Run(ctx, spec, ptyexec.Stdio(stdio), opts)
	for _, rp := range reports {
		rp.w.Close()
	}
	if err != nil {
		return attempt{}, fmt.Errorf("run %s: %w", argv[0], err)
	}
	var report []byte
	for _, rp := range reports {
		report = append(report, rp.wait()...)
	}
	if ev, ok := findEvent(report, "setup_error"); ok {
		// The launcher printed its reason already; the status says it was
		// airlock, not the command, that failed.
		a.log.Slog.Error("sandbox setup failed", "detail", ev.Detail)
		return attempt{res: ptyexec.Result{ExitCode: ExitError}}, errSetupFailed
	}
	a.noteDegraded(report, stdio.Err)
	out := attempt{res: res}
	if res.ExitCode != 0 {
		if sb == nil {
			// The spec came from the cache: start the plugin only now,
			// to explain the failure.
			if sb, err = a.host.Sandbox(ctx, entry); err != nil {
				a.log.Slog.Warn("start sandbox plugin to explain", "error", err)
				return out, nil
			}
		}
		out.denials = a.explain(ctx, sb, req, res, report)
	}
	return out, nil
}

// errSetupFailed means the launcher could not build the sandbox; it has
// said why on stderr.
var errSetupFailed = errors.New("sandbox setup failed")

// runDirect runs argv without any sandbox.
func (a *app) runDirect(ctx context.Context, argv, envList []string, stdio Stdio) (int, error) {
	tty := term.IsTerminal(stdio.In) && term.IsTerminal(stdio.Out)
	path, err := lookPath(argv[0], envValue(envList, "PATH"), a.cwd)
	if err != nil {
		return 127, fmt.Errorf("%s: command not found", argv[0])
	}
	res, err := ptyexec.Run(ctx, ptyexec.Spec{Argv: append([]string{path}, argv[1:]...), Env: envList, Dir: a.cwd}, ptyexec.Stdio(stdio), ptyexec.Options{TTY: tty})
	return res.ExitCode, err
}

func envValue(list []string, key string) string {
	for i := len(list) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(list[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// prepare returns the launch spec for req: from a cached template of the
// same plugin binary, policy, directory and terminal use when there is one
// (and then without starting the plugin, so sb is nil), else from the
// plugin, caching the answer when it is a template.
func (a *app) prepare(ctx context.Context, entry pluginhost.Entry, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, sandbox.Sandbox, error) {
	var key speccache.Key
	var cache *speccache.Cache
	if a.cfg.Plugin.ReuseLaunchSpecs {
		// The same checks as a start, minus the digest: a pinned binary
		// was hashed when the entry was made, and any change to it since
		// changes its identity and so misses.
		unpinned := entry
		unpinned.SHA256 = ""
		if path, err := pluginhost.Check(unpinned, os.Getuid()); err == nil {
			if id, err := speccache.Identity(path); err == nil {
				key = speccache.Key{Plugin: path, Identity: id, Pin: entry.SHA256, Policy: req.Policy, Cwd: req.Command.Cwd, TTY: req.TTY}
				cache = speccache.New(filepath.Join(a.dirs.Runtime, "specs"), os.Getuid())
				if hit, ok := cache.Load(key); ok && requireCapabilities(&hit.Info, req.Policy) == nil {
					spec, err := hit.Spec.Instantiate(req.Command)
					if err == nil {
						return &sandbox.PrepareResponse{Spec: spec}, nil, nil
					}
				}
			}
		}
	}
	sb, err := a.host.Sandbox(ctx, entry)
	if err != nil {
		return nil, nil, err
	}
	info, err := sb.Info(ctx, &sandbox.InfoRequest{})
	if err != nil {
		return nil, nil, err
	}
	if err := requireCapabilities(info, req.Policy); err != nil {
		return nil, nil, err
	}
	prep, err := sb.Prepare(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if cache != nil && prep.Spec.Template {
		if err := cache.Store(key, &speccache.Entry{Info: *info, Spec: prep.Spec}); err != nil {
			a.log.Slog.Warn("cache launch spec", "error", err)
		}
	}
	return prep, sb, nil
}

// noteDegraded says once per login session, in one line, that the sandbox
// ran in a weaker mode the user accepted, and what that mode loses.
func (a *app) noteDegraded(report []byte, w io.Writer) {
	ev, ok := findEvent(report, "mode")
	if !ok {
		return
	}
	marker := filepath.Join(a.dirs.Runtime, "degraded-noted")
	if _, err := os.Stat(marker); err == nil {
		return
	}
	if err := os.MkdirAll(a.dirs.Runtime, 0o700); err == nil {
		_ = os.WriteFile(marker, nil, 0o600)
	}
	fmt.Fprintf(w, "airlock: sandbox running in a weaker mode (%s); see 'airlock doctor'\n", ev.Detail)
}

// explain asks the backend what it blocked.
func (a *app) explain(ctx context.Context, sb sandbox.Sandbox, req *sandbox.PrepareRequest, res ptyexec.Result, report []byte) []sandbox.Denial {
	ex, err := sb.Explain(ctx, &sandbox.ExplainRequest{Prepared: *req, ExitCode: res.ExitCode, Signal: res.Signal, OutputTail: res.Tail, Report: report})
	if err != nil {
		a.log.Slog.Warn("explain failed", "error", err)
		return nil
	}
	return ex.Denials
}

// denialText says what a denial blocked, in a few words.
func denialText(d sandbox.Denial) string {
	what := d.Path
	if d.Kind == sandbox.DenialNetwork {
		what = d.Host
		if d.Port != 0 {
			what = net.JoinHostPort(d.Host, strconv.Itoa(d.Port))
		}
	}
	if what == "" {
		what = d.Syscall
	}
	out := fmt.Sprintf("%s %s", d.Kind, what)
	if d.Operation != "" && d.Operation != d.Kind.String() {
		out += " (" + d.Operation + ")"
	}
	if d.Guessed {
		out += ", inferred from output"
	}
	return out
}

func requireCapabilities(info *sandbox.Info, p sandbox.Policy) error {
	need := []string{}
	if p.Network == sandbox.NetworkOff {
		need = append(need, sandbox.CapNetworkOff)
	}
	if len(p.DenyRead) > 0 {
		need = append(need, sandbox.CapDenyRead)
	}
	if p.Mode == sandbox.ModeWorkspaceWrite && len(p.ProtectedNames) > 0 {
		need = append(need, sandbox.CapProtectedPaths)
	}
	var missing []string
	for _, c := range need {
		if !info.Has(c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("sandbox backend %s cannot enforce %s, which the policy needs; choose another backend with --backend or relax the policy", info.Name, strings.Join(missing, ", "))
	}
	return nil
}

// lookPath resolves a command name against PATH from the given
// environment, not the host process's.
func lookPath(name, path, cwd string) (string, error) {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			name = filepath.Join(cwd, name)
		}
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = cwd
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// reportPipe carries the launcher's report back to the host. It is read
// while the command runs, so events such as "stopped" act at once.
type reportPipe struct {
	r, w     *os.File
	done     chan []byte
	stopped  chan struct{}
	finished chan ptyexec.Result
}

func newReportPipe() (*reportPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("report pipe: %w", err)
	}
	rp := &reportPipe{r: r, w: w, done: make(chan []byte, 1), stopped: make(chan struct{}, 1), finished: make(chan ptyexec.Result, 1)}
	go func() {
		var all []byte
		sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
		sc.Buffer(make([]byte, 0, 4096), 64*1024)
		for sc.Scan() {
			line := sc.Bytes()
			all = append(append(all, line...), '\n')
			ev, ok := parseEvent(line)
			switch {
			case ok && ev.Event == "stopped":
				select {
				case rp.stopped <- struct{}{}:
				default:
				}
			case ok && ev.Event == "done":
				select {
				case rp.finished <- ptyexec.Result{ExitCode: ev.Code, Signal: ev.Signal}:
				default:
				}
			}
		}
		rp.done <- all
	}()
	return rp, nil
}

func (rp *reportPipe) wait() []byte {
	select {
	case b := <-rp.done:
		return b
	case <-time.After(500 * time.Millisecond):
		return nil
	}
}

func (rp *reportPipe) close() { rp.r.Close(); rp.w.Close() }

// reportEvent is a line of the launcher's report; the host reads only the
// fields every backend's launcher may share.
type reportEvent struct {
	Event  string `json:"event"`
	Detail string `json:"detail"`
	Code   int    `json:"code"`
	Signal int    `json:"signal"`
}

func parseEvent(line []byte) (reportEvent, bool) {
	var ev reportEvent
	if json.Unmarshal(line, &ev) != nil || ev.Event == "" {
		return ev, false
	}
	return ev, true
}

// findEvent returns the first event of the given kind in a report.
func findEvent(report []byte, kind string) (reportEvent, bool) {
	for _, line := range bytes.Split(report, []byte("\n")) {
		if ev, ok := parseEvent(line); ok && ev.Event == kind {
			return ev, true
		}
	}
	return reportEvent{}, false
}
