// Package sandboxtest is the conformance kit for airlock sandbox backends.
//
// A backend's own test calls [Run] with a constructor. Every case runs
// twice: against the implementation directly, and through a real gRPC
// connection built by go-plugin's test harness, so the conversion code on
// both sides of the wire is exercised too. With [Options.Enforce] set, the
// kit also executes the launch specs the backend returns and checks from
// outside that the policy held: the exit status came through, a SIGTERM
// sent to the launched program reached the command, writes inside the
// writable roots worked, writes outside, to protected names and reads of
// denied paths failed, and no TCP connection reached the host.
//
//	func TestConformance(t *testing.T) {
//		sandboxtest.Run(t, func(testing.TB) sandbox.Sandbox { return mybackend.New() },
//			sandboxtest.Options{Enforce: true})
//	}
package sandboxtest

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/airlock-dev/airlock/sdk/handshake"
	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/sandbox/sandboxplugin"
)

// Options select the kit's optional parts.
type Options struct {
	// Enforce executes launch specs and checks the policy from outside.
	// Only set it where the backend can enforce policies on this machine.
	Enforce bool
	// Env is the environment given to commands; defaults to PATH only.
	Env []string
}

// Run runs the conformance cases against the backend newSandbox returns.
func Run(t *testing.T, newSandbox func(testing.TB) sandbox.Sandbox, opts Options) {
	t.Helper()
	if len(opts.Env) == 0 {
		opts.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	transports := map[string]func(t *testing.T) sandbox.Sandbox{
		"direct": func(t *testing.T) sandbox.Sandbox { return newSandbox(t) },
		"grpc": func(t *testing.T) sandbox.Sandbox {
			client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{
				handshake.KindSandbox: &sandboxplugin.Plugin{Impl: newSandbox(t)},
			})
			t.Cleanup(func() { client.Close() })
			raw, err := client.Dispense(handshake.KindSandbox)
			if err != nil {
				t.Fatalf("Dispense: %v", err)
			}
			return raw.(sandbox.Sandbox)
		},
	}
	for _, tr := range []string{"direct", "grpc"} {
		t.Run(tr, func(t *testing.T) {
			for _, c := range contractCases {
				t.Run(c.name, func(t *testing.T) { c.run(t, transports[tr](t)) })
			}
			if !opts.Enforce {
				return
			}
			for _, c := range enforceCases {
				t.Run(c.name, func(t *testing.T) { c.run(t, transports[tr](t), opts) })
			}
		})
	}
}

type contractCase struct {
	name string
	run  func(t *testing.T, sb sandbox.Sandbox)
}

func sameEnv(a, b []string) bool {
	as, bs := append([]string{}, a...), append([]string{}, b...)
	sort.Strings(as)
	sort.Strings(bs)
	return reflect.DeepEqual(as, bs)
}

func validRequest(t *testing.T) *sandbox.PrepareRequest {
	dir := t.TempDir()
	return &sandbox.PrepareRequest{
		Command: sandbox.Command{Argv: []string{"/bin/sh", "-c", "exit 0"}, Cwd: dir, Env: []string{"PATH=/usr/bin:/bin"}},
		Policy:  sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, WritableRoots: []string{dir}, Network: sandbox.NetworkOff, ProtectedNames: []string{".git"}},
	}
}

var contractCases = []contractCase{
	{"Info_namesBackend", func(t *testing.T, sb sandbox.Sandbox) {
		info, err := sb.Info(t.Context(), &sandbox.InfoRequest{})
		if err != nil {
			t.Fatalf("Info: %v", err)
		}
		if info.Name == "" || info.Version == "" {
			t.Errorf("Info = %+v, want a name and a version", info)
		}
	}},
	{"Probe_answers", func(t *testing.T, sb sandbox.Sandbox) {
		res, err := sb.Probe(t.Context(), &sandbox.ProbeRequest{})
		if err != nil {
			t.Fatalf("Probe: %v", err)
		}
		if res.Usable && res.Mode == "" {
			t.Errorf("Probe = %+v: a usable backend must name its mode", res)
		}
	}},
	{"Prepare_rejectsEmptyArgv", func(t *testing.T, sb sandbox.Sandbox) {
		req := validRequest(t)
		req.Command.Argv = nil
		if _, err := sb.Prepare(t.Context(), req); !errors.Is(err, sandbox.ErrInvalidRequest) {
			t.Errorf("Prepare(empty argv) error = %v, want ErrInvalidRequest", err)
		}
	}},
	{"Prepare_rejectsRelativeCwd", func(t *testing.T, sb sandbox.Sandbox) {
		req := validRequest(t)
		req.Command.Cwd = "relative/dir"
		if _, err := sb.Prepare(t.Context(), req); !errors.Is(err, sandbox.ErrInvalidRequest) {
			t.Errorf("Prepare(relative cwd) error = %v, want ErrInvalidRequest", err)
		}
	}},
	{"Prepare_rejectsFullAccess", func(t *testing.T, sb sandbox.Sandbox) {
		req := validRequest(t)
		req.Policy.Mode = sandbox.ModeDangerFullAccess
		if _, err := sb.Prepare(t.Context(), req); !errors.Is(err, sandbox.ErrInvalidRequest) {
			t.Errorf("Prepare(danger-full-access) error = %v, want ErrInvalidRequest", err)
		}
	}},
	{"Prepare_returnsValidSpec", func(t *testing.T, sb sandbox.Sandbox) {
		res, err := sb.Prepare(t.Context(), validRequest(t))
		if errors.Is(err, sandbox.ErrUnavailable) {
			t.Skipf("backend unavailable on this machine: %v", err)
		}
		if err != nil {
			t.Fatalf("Prepare: %v", err)
		}
		if err := res.Spec.Validate(); err != nil {
			t.Errorf("Prepare spec invalid: %v", err)
		}
	}},
	{"Prepare_templateMatchesPrepare", func(t *testing.T, sb sandbox.Sandbox) {
		req := validRequest(t)
		res, err := sb.Prepare(t.Context(), req)
		if errors.Is(err, sandbox.ErrUnavailable) {
			t.Skipf("backend unavailable on this machine: %v", err)
		}
		if err != nil {
			t.Fatalf("Prepare: %v", err)
		}
		if !res.Spec.Template {
			t.Skip("the backend's specs are not templates")
		}
		other := *req
		other.Command.Argv = []string{"/bin/echo", "a b", "--flag"}
		other.Command.Env = []string{"PATH=/bin", "OTHER=1", "TMPDIR=/elsewhere"}
		want, err := sb.Prepare(t.Context(), &other)
		if err != nil {
			t.Fatalf("Prepare(other): %v", err)
		}
		got, err := res.Spec.Instantiate(other.Command)
		if err != nil {
			t.Fatalf("Instantiate: %v", err)
		}
		if !reflect.DeepEqual(got.Argv, want.Spec.Argv) || !sameEnv(got.Env, want.Spec.Env) || got.Cwd != want.Spec.Cwd {
			t.Errorf("template instantiated for another command = %+v, but Prepare gives %+v", got, want.Spec)
		}
	}},
	{"Explain_successHasNoDenials", func(t *testing.T, sb sandbox.Sandbox) {
		res, err := sb.Explain(t.Context(), &sandbox.ExplainRequest{Prepared: *validRequest(t)})
		if err != nil {
			t.Fatalf("Explain: %v", err)
		}
		if len(res.Denials) != 0 {
			t.Errorf("Explain(exit 0) = %+v, want no denials", res.Denials)
		}
	}},
}

type enforceCase struct {
	name string
	run  func(t *testing.T, sb sandbox.Sandbox, opts Options)
}

// world is a workspace with a .git directory and an outside area, both
// created fresh per case.
type world struct {
	ws, outside, secret string
}

func newWorld(t *testing.T) world {
	// Not under /tmp: a backend with a private /tmp would hide the areas.
	base, err := os.MkdirTemp(baseDir(), "sandboxtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	w := world{ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{w.ws, filepath.Join(w.ws, ".git"), w.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.secret = filepath.Join(w.outside, "secret.txt")
	if err := os.WriteFile(w.secret, []byte("top-secret-value"), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

func baseDir() string {
	for _, d := range []string{"/var/tmp", os.TempDir()} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return ""
}

type runResult struct {
	code           int
	stdout, stderr string
}

// execute runs script under the backend with policy pol in w.ws.
func execute(t *testing.T, sb sandbox.Sandbox, opts Options, w world, pol sandbox.Policy, script string) runResult {
	t.Helper()
	return executeWith(t, sb, opts, w, pol, script, nil)
}

// executeWith is execute with started, when not nil, called on its own
// goroutine with the launched process once it runs.
func executeWith(t *testing.T, sb sandbox.Sandbox, opts Options, w world, pol sandbox.Policy, script string, started func(*os.Process)) runResult {
	t.Helper()
	req := &sandbox.PrepareRequest{
		Command: sandbox.Command{Argv: []string{"/bin/sh", "-c", script}, Cwd: w.ws, Env: opts.Env},
		Policy:  pol,
	}
	res, err := sb.Prepare(t.Context(), req)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if err := res.Spec.Validate(); err != nil {
		t.Fatalf("Prepare spec invalid: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, res.Spec.Argv[0], res.Spec.Argv[1:]...)
	cmd.Env, cmd.Dir = res.Spec.Env, res.Spec.Cwd
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	var pipes []*os.File
	for range res.Spec.ExtraFiles {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		pipes = append(pipes, w)
		cmd.ExtraFiles = append(cmd.ExtraFiles, w)
		go func() { _, _ = r.WriteTo(discard{}) }()
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	if err == nil {
		if started != nil {
			go started(cmd.Process)
		}
		err = cmd.Wait()
	}
	for _, p := range pipes {
		p.Close()
	}
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		ws := ee.Sys().(syscall.WaitStatus)
		code = ws.ExitStatus()
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	case err != nil:
		t.Fatalf("run launch spec: %v", err)
	}
	return runResult{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func wsPolicy(w world) sandbox.Policy {
	return sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, WritableRoots: []string{w.ws}, Network: sandbox.NetworkOff, ProtectedNames: []string{".git"}}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

var enforceCases = []enforceCase{
	{"ExitStatus_passesThrough", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		if r := execute(t, sb, o, w, wsPolicy(w), "exit 7"); r.code != 7 {
			t.Errorf("exit 7 gave %d (stderr %q)", r.code, r.stderr)
		}
	}},
	{"Signal_reachesCommand", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		// A host forwards SIGTERM to the program it launched; whatever
		// stages the backend's launcher has, the command must get it.
		w := newWorld(t)
		ready := filepath.Join(w.ws, "ready")
		script := "trap 'echo got-term; exit 42' TERM; echo > ready; while :; do sleep 0.05; done"
		r := executeWith(t, sb, o, w, wsPolicy(w), script, func(p *os.Process) {
			for deadline := time.Now().Add(20 * time.Second); !exists(ready) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			_ = p.Signal(syscall.SIGTERM)
		})
		if r.code != 42 || !strings.Contains(r.stdout, "got-term") {
			t.Errorf("SIGTERM to the launched process: exit %d, stdout %q, stderr %q; want the command's TERM trap to run and exit 42", r.code, r.stdout, r.stderr)
		}
	}},
	{"Stdio_staysApart", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		r := execute(t, sb, o, w, wsPolicy(w), "echo out; echo err >&2")
		if r.stdout != "out\n" || r.stderr != "err\n" {
			t.Errorf("stdout %q stderr %q, want \"out\\n\" and \"err\\n\"", r.stdout, r.stderr)
		}
	}},
	{"WriteInside_works", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		r := execute(t, sb, o, w, wsPolicy(w), "echo hi > inside.txt && mkdir d && mv inside.txt d/")
		if r.code != 0 || !exists(filepath.Join(w.ws, "d", "inside.txt")) {
			t.Errorf("write inside failed: code %d stderr %q", r.code, r.stderr)
		}
	}},
	{"WriteOutside_fails", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		target := filepath.Join(w.outside, "planted")
		execute(t, sb, o, w, wsPolicy(w), "echo x > "+target+"; rm -f "+w.secret)
		if exists(target) || !exists(w.secret) {
			t.Errorf("write outside the writable roots took effect")
		}
	}},
	{"ReadOnly_blocksWorkspace", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		pol := wsPolicy(w)
		pol.Mode, pol.WritableRoots = sandbox.ModeReadOnly, nil
		execute(t, sb, o, w, pol, "echo x > inside.txt")
		if exists(filepath.Join(w.ws, "inside.txt")) {
			t.Errorf("read-only mode allowed a write in the working directory")
		}
	}},
	{"ProtectedName_staysReadOnly", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		execute(t, sb, o, w, wsPolicy(w), "echo x > .git/config; mv .git .git-old")
		if exists(filepath.Join(w.ws, ".git", "config")) || exists(filepath.Join(w.ws, ".git-old")) {
			t.Errorf("a protected .git was changed")
		}
	}},
	{"DenyRead_hidesPath", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		pol := wsPolicy(w)
		pol.DenyRead = []string{w.outside}
		r := execute(t, sb, o, w, pol, "cat "+w.secret+"; ln -s "+w.secret+" link; cat link")
		if strings.Contains(r.stdout, "top-secret-value") {
			t.Errorf("a denied file was read")
		}
	}},
	{"NetworkOff_blocksHostTCP", func(t *testing.T, sb sandbox.Sandbox, o Options) {
		w := newWorld(t)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("no loopback listener: %v", err)
		}
		defer ln.Close()
		got := make(chan struct{}, 1)
		go func() {
			if c, err := ln.Accept(); err == nil {
				got <- struct{}{}
				c.Close()
			}
		}()
		port := ln.Addr().(*net.TCPAddr).Port
		addr := "127.0.0.1/" + strconv.Itoa(port)
		execute(t, sb, o, w, wsPolicy(w), "command -v bash >/dev/null && bash -c 'echo > /dev/tcp/"+addr+"' 2>/dev/null; "+
			"command -v curl >/dev/null && curl -s -m 2 http://127.0.0.1:"+strconv.Itoa(port)+"/ >/dev/null 2>&1; true")
		select {
		case <-got:
			t.Errorf("a TCP connection reached a host listener with network off")
		case <-time.After(200 * time.Millisecond):
		}
	}},
}
