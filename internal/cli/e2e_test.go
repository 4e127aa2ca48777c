//go:build linux

package cli_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// env is a private user: home, XDG directories and a workspace, none of
// them under /tmp (the sandbox's /tmp is private).
type env struct {
	bin, home, ws, config string
	vars                  []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	bin := plugintest.Dir(t)
	base, err := os.MkdirTemp("/var/tmp", "airlock-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	e := &env{bin: bin, home: filepath.Join(base, "home"), ws: filepath.Join(base, "ws")}
	e.config = filepath.Join(e.home, ".config", "airlock", "config.toml")
	for _, d := range []string{e.ws, filepath.Dir(e.config)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.vars = []string{"HOME=" + e.home, "PATH=/usr/local/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR=" + filepath.Join(base, "run")}
	return e
}

func (e *env) writeConfig(t *testing.T, body string) {
	t.Helper()
	if err := os.WriteFile(e.config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, filepath.Join(e.bin, "airlock"), args...)
	c.Dir, c.Env = e.ws, e.vars
	return c
}

type result struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
}

func (e *env) run(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	c := e.cmd(ctx, args...)
	var out, errb bytes.Buffer
	c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(stdin), &out, &errb
	start := time.Now()
	err := c.Run()
	r := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run airlock %v: %v", args, err)
	}
	return r
}

func TestExec_exitStatus(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	if r := e.run(t, nil, "exec", "--", "sh", "-c", "exit 7"); r.code != 7 {
		t.Errorf("exit = %d, want 7 (stderr %q)", r.code, r.stderr)
	}
	if r := e.run(t, nil, "exec", "--", "sh", "-c", "kill -KILL $$"); r.code != 137 {
		t.Errorf("exit = %d, want 137 for SIGKILL", r.code)
	}
	if r := e.run(t, nil, "exec", "--", "no-such-command-xyz"); r.code != 127 {
		t.Errorf("exit = %d, want 127 for a missing command", r.code)
	}
}

func TestExec_workspaceWrite(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	outside := "/etc/airlock-e2e-" + strconv.Itoa(os.Getpid())
	r := e.run(t, nil, "exec", "-s", "workspace-write", "--", "touch", outside)
	if r.code == 0 {
		t.Errorf("touch %s succeeded inside the sandbox", outside)
	}
	if _, err := os.Stat(outside); err == nil {
		os.Remove(outside)
		t.Fatalf("%s exists after a sandboxed write", outside)
	}
	if !strings.Contains(r.stderr, "Read-only file system") {
		t.Errorf("stderr = %q, want the command's own error", r.stderr)
	}
	if !strings.Contains(r.stderr, "airlock: the sandbox blocked write "+outside) {
		t.Errorf("stderr = %q, want airlock to say what it blocked", r.stderr)
	}
	r = e.run(t, nil, "exec", "-s", "workspace-write", "--", "sh", "-c", "echo inside > here.txt")
	if b, err := os.ReadFile(filepath.Join(e.ws, "here.txt")); r.code != 0 || string(b) != "inside\n" {
		t.Errorf("write in the workspace: code %d, file %q, err %v, stderr %q", r.code, b, err, r.stderr)
	}
	r = e.run(t, nil, "exec", "-s", "read-only", "--", "sh", "-c", "echo x > ro.txt")
	if _, err := os.Stat(filepath.Join(e.ws, "ro.txt")); r.code == 0 || err == nil {
		t.Errorf("read-only mode allowed a write (code %d)", r.code)
	}
}

func TestExec_pipesByteIdentical(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	data := make([]byte, 512*1024)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.ws, "blob"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.run(t, nil, "exec", "--", "cat", "blob")
	if r.code != 0 || r.stdout != string(data) {
		t.Errorf("piped output differs: code %d, %d bytes vs %d", r.code, len(r.stdout), len(data))
	}
	r = e.run(t, []byte("from stdin\n"), "exec", "--", "sh", "-c", "cat; echo to-err >&2")
	if r.stdout != "from stdin\n" || r.stderr != "to-err\n" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestExec_ttyIsAirlocksOwn(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	m, s, err := pty.Open()
	plugintest.Require(t, "pty", err == nil, "cannot open a pty")
	defer m.Close()
	outer, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(s.Fd())))
	c := e.cmd(t.Context(), "exec", "--", "tty")
	c.Stdin, c.Stdout, c.Stderr = s, s, s
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { _, _ = out.ReadFrom(m); close(done) }()
	if err := c.Wait(); err != nil {
		t.Fatalf("airlock exec -- tty: %v (%q)", err, out.String())
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	got := strings.TrimSpace(out.String())
	if !strings.HasPrefix(got, "/dev/pts/") || got == outer {
		t.Errorf("tty printed %q; want a pty that is not the outer %s", got, outer)
	}
}

func TestExec_dangerFullAccessNeedsNoPlugin(t *testing.T) {
	e := newEnv(t)
	e.writeConfig(t, "[sandbox]\nbackend = \"absent\"\n")
	r := e.run(t, nil, "exec", "-s", "danger-full-access", "--", "sh", "-c", "echo ok; exit 3")
	if r.code != 3 || r.stdout != "ok\n" {
		t.Errorf("danger-full-access: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, "exec", "--", "true")
	if r.code != 125 || !strings.Contains(r.stderr, "absent") {
		t.Errorf("missing backend: code %d stderr %q, want 125 naming it", r.code, r.stderr)
	}
}

func TestExec_pluginFailuresFailClosed(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(filepath.Dir(e.home), "plugins")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile(filepath.Join(e.bin, "badplugin"))
	if err != nil {
		t.Fatal(err)
	}
	modes := []string{"garbage", "hang", "crash", "v9", "die", "stall", "badspec"}
	var cfg strings.Builder
	cfg.WriteString("[plugin]\nstart_timeout = \"2s\"\ncall_timeout = \"1s\"\n")
	for _, m := range modes {
		p := filepath.Join(dir, "airlock-sandbox-"+m)
		if err := os.WriteFile(p, bad, 0o755); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&cfg, "[plugins.bad-%s]\nkind = \"sandbox\"\npath = %q\n", m, p)
	}
	e.writeConfig(t, cfg.String())
	marker := filepath.Join(e.ws, "ran")
	for _, m := range modes {
		t.Run(m, func(t *testing.T) {
			r := e.run(t, nil, "exec", "--backend", "bad-"+m, "--", "touch", marker)
			if r.code != 125 {
				t.Errorf("exit = %d, want 125 (stderr %q)", r.code, r.stderr)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the command ran although the plugin failed")
			}
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n"); lines != 0 || !strings.HasPrefix(r.stderr, "airlock: ") {
				t.Errorf("stderr is not one airlock line: %q", r.stderr)
			}
			if r.elapsed > 10*time.Second {
				t.Errorf("took %v; failures must be bounded by the deadlines", r.elapsed)
			}
		})
	}
}

func TestExec_hostKilledLeavesNothing(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	c := e.cmd(context.Background(), "exec", "--", "sh", "-c", "sleep 300 & sleep 301")
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	host := c.Process.Pid
	var pids []int
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids = descendants(host)
		if hasCommand(pids, "sleep") >= 2 {
			break
		}
		if time.Now().After(deadline) {
			_ = c.Process.Kill()
			t.Fatalf("sandboxed sleeps never started; descendants %v, output %q", pids, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := c.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()
	deadline = time.Now().Add(5 * time.Second)
	for {
		var alive []int
		for _, p := range pids {
			if isAlive(p) {
				alive = append(alive, p)
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range alive {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("processes outlived the SIGKILLed host: %v", alive)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForFile waits until the sandboxed command started by c has written
// path, killing it and failing the test after 10 seconds.
func waitForFile(t *testing.T, c *exec.Cmd, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			_ = c.Process.Kill()
			t.Fatal("command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func descendants(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
				out = append(out, descendants(c)...)
			}
		}
	}
	return out
}

func hasCommand(pids []int, name string) int {
	n := 0
	for _, p := range pids {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p)); err == nil && strings.TrimSpace(string(b)) == name {
			n++
		}
	}
	return n
}

func isAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie waiting for its reaper is gone for our purposes.
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] != "Z"
}

func TestAssess_examplePluginFromConfig(t *testing.T) {
	e := newEnv(t)
	e.writeConfig(t, fmt.Sprintf("[assessor]\nbackend = \"hello\"\n[plugins.hello]\nkind = \"assessor\"\npath = %q\n", filepath.Join(e.bin, "airlock-assessor-hello")))
	r := e.run(t, nil, "assess", "--json", "rm -rf build")
	var v struct {
		RiskLevel      string   `json:"risk_level"`
		RiskCategories []string `json:"risk_categories"`
		Description    string   `json:"description"`
		Source         string   `json:"source"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("assess --json: %v (stdout %q stderr %q)", err, r.stdout, r.stderr)
	}
	if v.Source != "hello" || v.RiskLevel != "high" || len(v.RiskCategories) != 1 || v.RiskCategories[0] != "data_deletion" {
		t.Errorf("assess = %+v, want the hello plugin's high/data_deletion verdict", v)
	}
	r = e.run(t, nil, "plugins", "list")
	if !strings.Contains(r.stdout, "hello") || !strings.Contains(r.stdout, "config") || !strings.Contains(r.stdout, "1.0.0") {
		t.Errorf("plugins list does not show the configured plugin:\n%s", r.stdout)
	}
}

func TestAssess_batchKeepsOrder(t *testing.T) {
	e := newEnv(t)
	lines := []string{"ls", "rm -rf /", "git status", `echo "rm -rf /"`}
	r := e.run(t, []byte(strings.Join(lines, "\n")+"\n"), "assess", "--batch")
	got := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(got) != len(lines) {
		t.Fatalf("assess --batch: code %d, %d lines out for %d in (stderr %q)", r.code, len(got), len(lines), r.stderr)
	}
	for i, l := range got {
		var v struct {
			Command   string `json:"command"`
			RiskLevel string `json:"risk_level"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Command != lines[i] {
			t.Errorf("line %d = %q, want the verdict for %q", i, l, lines[i])
		}
	}
}

func TestConfig_errorsAreOneLine(t *testing.T) {
	e := newEnv(t)
	e.writeConfig(t, "[sandbox]\nmode = \"workspace-write\"\nnetwrk = \"off\"\n")
	r := e.run(t, nil, "exec", "--", "true")
	if r.code != 125 || !strings.Contains(r.stderr, "config.toml:3: unknown key sandbox.netwrk") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("code %d stderr %q, want 125 and one line naming file, line and key", r.code, r.stderr)
	}
	e.writeConfig(t, "")
	r = e.run(t, nil, "exec", "-s", "wide-open", "--", "true")
	if r.code != 125 || !strings.Contains(r.stderr, "--sandbox") {
		t.Errorf("bad flag value: code %d stderr %q", r.code, r.stderr)
	}
	r = e.run(t, nil, "exec", "--bogus", "--", "true")
	if r.code != 125 || !strings.Contains(r.stderr, "bogus") {
		t.Errorf("unknown flag: code %d stderr %q", r.code, r.stderr)
	}
	r = e.run(t, nil, "config")
	if !strings.Contains(r.stdout, `sandbox.mode = "workspace-write"`) || !strings.Contains(r.stdout, "# default") {
		t.Errorf("airlock config output:\n%s", r.stdout)
	}
}

func TestAssess_fallsBackToBuiltinRules(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(filepath.Dir(e.home), "plugins")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A sandbox plugin configured as an assessor cannot be dispensed as
	// one: the configured assessor fails to start.
	bad, err := os.ReadFile(filepath.Join(e.bin, "badplugin"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "airlock-sandbox-crash")
	if err := os.WriteFile(p, bad, 0o755); err != nil {
		t.Fatal(err)
	}
	e.writeConfig(t, fmt.Sprintf("[plugin]\nstart_timeout = \"2s\"\n[assessor]\nbackend = \"broken\"\n[plugins.broken]\nkind = \"assessor\"\npath = %q\n", p))
	r := e.run(t, nil, "assess", "--json", "rm -rf /")
	if r.code != 0 || !strings.Contains(r.stdout, `"risk_level":"high"`) || !strings.Contains(r.stdout, "fallback: broken failed") {
		t.Errorf("code %d stdout %q stderr %q; want the built-in verdict marked as a fallback", r.code, r.stdout, r.stderr)
	}
}

// TestExec_ptyHostSignalsRestoreTerminal sends SIGTERM and SIGHUP to the
// host while a sandboxed command that ignores them runs on airlock's PTY:
// the command is killed after the grace period and the user's terminal is
// left exactly as it was.
func TestExec_ptyHostSignalsRestoreTerminal(t *testing.T) {
	plugintest.RequireUserNS(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			e := newEnv(t)
			m, s, err := pty.Open()
			plugintest.Require(t, "pty", err == nil, "cannot open a pty")
			defer m.Close()
			go func() { _, _ = io.Copy(io.Discard, m) }()
			before, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			c := e.cmd(context.Background(), "exec", "--", "sh", "-c", "trap '' TERM HUP; echo ready > ready; sleep 60")
			c.Stdin, c.Stdout, c.Stderr = s, s, s
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			waitForFile(t, c, filepath.Join(e.ws, "ready"))
			start := time.Now()
			_ = c.Process.Signal(sig)
			err = c.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 137 {
				t.Errorf("exit = %v, want 137 (the command ignored %v and was killed)", err, sig)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v after %v", d, sig)
			}
			after, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			if *after != *before {
				t.Errorf("terminal not restored after %v:\nbefore %+v\nafter  %+v", sig, *before, *after)
			}
		})
	}
}

// withoutUserNS runs airlock inside a user namespace whose
// max_user_namespaces is 0, so the sandbox cannot create its own: the
// real fallback situation (Ubuntu's AppArmor default, many containers).
func (e *env) runWithoutUserNS(t *testing.T, extraEnv []string, args ...string) result {
	t.Helper()
	script := `echo 0 > /proc/sys/user/max_user_namespaces || exit 99; exec "$@"`
	c := exec.Command("/bin/sh", append([]string{"-c", script, "sh", filepath.Join(e.bin, "airlock")}, args...)...)
	c.Dir, c.Env = e.ws, append(append([]string{}, e.vars...), extraEnv...)
	c.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	if r.code == 99 {
		t.Fatalf("could not limit user namespaces: %s", r.stderr)
	}
	return r
}

func TestExec_fallbackWithoutUserNamespaces(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	secretDir := filepath.Join(e.home, ".ssh")
	if err := os.MkdirAll(secretDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secretDir, "id_rsa"), []byte("PRIVATE-KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(e.home, "outside.txt")

	r := e.runWithoutUserNS(t, nil, "exec", "--", "sh", "-c", "echo x > inside.txt")
	if r.code != 125 || !strings.Contains(r.stderr, "allow_degraded") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("default: code %d stderr %q; want a one-line refusal naming sandbox.allow_degraded", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "inside.txt")); err == nil {
		t.Fatal("the command ran although the weaker mode was not accepted")
	}

	accept := []string{"AIRLOCK_SANDBOX__ALLOW_DEGRADED=true"}
	script := "echo in > inside.txt; echo out > " + outside + "; cat " + filepath.Join(secretDir, "id_rsa") + "; echo t > \"$TMPDIR/t\" && echo tmp-ok"
	r = e.runWithoutUserNS(t, accept, "exec", "--", "sh", "-c", script)
	if b, err := os.ReadFile(filepath.Join(e.ws, "inside.txt")); err != nil || string(b) != "in\n" {
		t.Errorf("write inside the workspace failed in the fallback: %v (stderr %q)", err, r.stderr)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("write outside the workspace succeeded in the fallback")
	}
	if strings.Contains(r.stdout, "PRIVATE-KEY") {
		t.Errorf("a deny_read secret was readable in the fallback")
	}
	if !strings.Contains(r.stdout, "tmp-ok") {
		t.Errorf("no usable TMPDIR in the fallback: %q %q", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "weaker mode") {
		t.Errorf("the fallback was not announced: %q", r.stderr)
	}
	r = e.runWithoutUserNS(t, accept, "exec", "--", "sh", "-c", "true")
	if strings.Contains(r.stderr, "weaker mode") {
		t.Errorf("the fallback was announced twice: %q", r.stderr)
	}
}

func TestExec_pipesForwardSignalsIntoSandbox(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	c := e.cmd(context.Background(), "exec", "--", "sh", "-c", "trap 'echo got-term; exit 42' TERM; echo ready > ready; while :; do sleep 0.05; done")
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, c, filepath.Join(e.ws, "ready"))
	_ = c.Process.Signal(syscall.SIGTERM)
	err := c.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 42 || !strings.Contains(out.String(), "got-term") {
		t.Errorf("exit %v, output %q; want the sandboxed command's TERM trap to run and exit 42", err, out.String())
	}
}

func TestDoctor_reportsModeAndAppArmorProfile(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	r := e.run(t, nil, "doctor")
	for _, want := range []string{"landlock", "seccomp", "user_namespaces", "mode: namespaces"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = e.run(t, nil, "doctor", "--apparmor")
	if !strings.Contains(r.stdout, "userns,") || !strings.Contains(r.stdout, filepath.Join(e.bin, "airlock-sandbox-linux")) {
		t.Errorf("doctor --apparmor:\n%s", r.stdout)
	}
}

// TestExec_jobControlInTmux drives a real bash in tmux: Ctrl-Z suspends a
// sandboxed interactive command and gives the shell back, and fg resumes
// it with its input working.
func TestExec_jobControlInTmux(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	sh := newTmuxShell(t, e)
	waitFor := func(s string) { t.Helper(); sh.waitFor(s) }
	sh.send("cd "+e.ws+" && airlock exec -- cat", "Enter")
	time.Sleep(300 * time.Millisecond)
	sh.send("first-line", "Enter")
	waitFor("first-line\nfirst-line")
	sh.send("C-z")
	waitFor("Stopped")
	sh.send("echo shell-is-back", "Enter")
	waitFor("\nshell-is-back")
	sh.send("fg", "Enter")
	waitFor("$ fg\nairlock exec -- cat")
	// Type only once airlock has made the terminal raw again.
	paneTTY := strings.TrimSpace(sh.tmux("display-message", "-p", "#{pane_tty}"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := exec.Command("stty", "-F", paneTTY, "-a").Output()
		if strings.Contains(string(out), "-icanon") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("airlock did not resume raw mode after fg: %s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sh.send("second-line", "Enter")
	waitFor("second-line\nsecond-line")
	sh.send("C-d")
	// Keys typed before airlock exits still belong to the command, so
	// wait for the shell's prompt.
	sh.waitPrompt()
	sh.send("echo rc=$?", "Enter")
	waitFor("rc=0")
}

// TestExec_realTools runs ordinary development work inside the sandbox.
func TestExec_realTools(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	git := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir, c.Env = e.ws, e.vars
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	git("config", "user.email", "dev@example.com")
	git("config", "user.name", "Dev")
	files := map[string]string{
		"hello.c":       "#include <stdio.h>\nint main(void){puts(\"built-and-ran\");return 0;}\n",
		"Makefile":      "hello: hello.c\n\tcc -o hello hello.c\n",
		"gocmd/go.mod":  "module example.com/hi\n\ngo 1.21\n",
		"gocmd/main.go": "package main\n\nfunc main() { println(\"go-ran\") }\n",
		"run.sh":        "#!/bin/sh\necho script-ran\n",
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(e.ws, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name string
		args []string
		want string
	}{
		{"git status", []string{"exec", "--", "git", "status", "--short"}, "hello.c"},
		{"git commit needs --add-dir .git", []string{"exec", "--add-dir", ".git", "--", "sh", "-c", "git add -A && git commit -qm first && git log --oneline"}, "first"},
		{"make and run", []string{"exec", "--", "sh", "-c", "make -s hello && ./hello"}, "built-and-ran"},
		{"go build", []string{"exec", "--", "sh", "-c", "cd gocmd && GOCACHE=$TMPDIR/gocache go build -o hi . && ./hi"}, "go-ran"},
		{"script, pipes and jobs", []string{"exec", "--", "sh", "-c", "chmod +x run.sh && ./run.sh | tr a-z A-Z & wait; (sleep 0.1; echo bg-done) & wait"}, "SCRIPT-RAN"},
	}
	goBin, goErr := exec.LookPath("go")
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.name == "go build" {
				if goErr != nil {
					t.Skip("no go toolchain on PATH")
				}
				e.vars = append(e.vars, "PATH="+filepath.Dir(goBin)+":/usr/local/bin:/usr/bin:/bin")
			}
			r := e.run(t, nil, s.args...)
			if r.code != 0 || !strings.Contains(r.stdout+r.stderr, s.want) {
				t.Errorf("%v: code %d\nstdout %q\nstderr %q", s.args, r.code, r.stdout, r.stderr)
			}
		})
	}
	r := e.run(t, nil, "exec", "--", "git", "commit", "--allow-empty", "-qm", "second")
	if r.code == 0 {
		t.Errorf("git commit without --add-dir .git succeeded; .git must stay read-only")
	}
}

func (e *env) pluginStarts(t *testing.T) int {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(e.home, ".local", "state", "airlock", "airlock.log"))
	return strings.Count(string(b), `"msg":"plugin started"`)
}

func TestExec_reusesLaunchSpecs(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	// A private copy of the binaries, so the test can change the plugin.
	bin := filepath.Join(filepath.Dir(e.home), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"airlock", "airlock-broker", "airlock-sandbox-linux"} {
		b, err := os.ReadFile(filepath.Join(e.bin, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, n), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.bin = bin
	e.vars = append(e.vars, "AIRLOCK_LOG=debug")

	e.run(t, nil, "exec", "--", "true")
	if n := e.pluginStarts(t); n != 1 {
		t.Fatalf("first run started the plugin %d times, want 1", n)
	}
	e.run(t, nil, "exec", "--", "sh", "-c", "echo again")
	if n := e.pluginStarts(t); n != 1 {
		t.Errorf("a second run under the same policy started the plugin again (%d starts)", n)
	}

	// Paths are resolved at launch: a .git made after caching is protected.
	if err := os.MkdirAll(filepath.Join(e.ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.run(t, nil, "exec", "--", "sh", "-c", "echo x > .git/config")
	if _, err := os.Stat(filepath.Join(e.ws, ".git", "config")); err == nil {
		t.Errorf("a .git created after the spec was cached was writable")
	}

	// A failure is explained: the plugin starts lazily for that.
	r := e.run(t, nil, "exec", "--", "touch", "/etc/airlock-cache-test")
	if !strings.Contains(r.stderr, "the sandbox blocked write") {
		t.Errorf("failure not explained from a cached spec: %q", r.stderr)
	}

	// Any change to the plugin binary misses.
	before := e.pluginStarts(t)
	p := filepath.Join(bin, "airlock-sandbox-linux")
	now := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, now, now); err != nil {
		t.Fatal(err)
	}
	e.run(t, nil, "exec", "--", "true")
	if n := e.pluginStarts(t); n != before+1 {
		t.Errorf("a changed plugin binary did not make the host ask the plugin again (%d -> %d starts)", before, n)
	}

	// The switch turns reuse off.
	before = e.pluginStarts(t)
	e.vars = append(e.vars, "AIRLOCK_PLUGIN__REUSE_LAUNCH_SPECS=false")
	e.run(t, nil, "exec", "--", "true")
	if n := e.pluginStarts(t); n != before+1 {
		t.Errorf("with reuse off the plugin did not start (%d -> %d)", before, n)
	}
}
