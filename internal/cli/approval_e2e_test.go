//go:build linux

package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

// tmuxShell is a real bash in a tmux pane, driven with send-keys and read
// with capture-pane.
type tmuxShell struct {
	t    *testing.T
	sock string
}

func newTmuxShell(t *testing.T, e *env, extraEnv ...string) *tmuxShell {
	t.Helper()
	bash, err := exec.LookPath("bash")
	plugintest.Require(t, "bash", err == nil, "bash is not installed")
	return startTmux(t, e, append(extraEnv, "PS1=$ "), bash, "--norc", "--noprofile")
}

// startTmux runs argv in a fresh tmux server with a clean environment:
// the test user's HOME, airlock on PATH, and extraEnv.
func startTmux(t *testing.T, e *env, extraEnv []string, argv ...string) *tmuxShell {
	t.Helper()
	_, err := exec.LookPath("tmux")
	plugintest.Require(t, "tmux", err == nil, "tmux is not installed")
	s := &tmuxShell{t: t, sock: filepath.Join(filepath.Dir(e.home), "tmux.sock")}
	args := []string{"new-session", "-d", "-x", "100", "-y", "40", "env", "-i", "HOME=" + e.home, "TERM=xterm",
		"PATH=" + e.bin + ":/usr/bin:/bin", "XDG_RUNTIME_DIR=" + filepath.Join(filepath.Dir(e.home), "run")}
	args = append(args, extraEnv...)
	s.tmux(append(args, argv...)...)
	t.Cleanup(func() { exec.Command("tmux", "-S", s.sock, "kill-server").Run() })
	// tmux 3.3 and later scroll a cleared screen into the history, so a
	// clear the shell draws after clear-history would bring the old lines
	// back. Older tmux has no such option and never scrolled.
	exec.Command("tmux", "-S", s.sock, "set-option", "-w", "-g", "scroll-on-clear", "off").Run()
	return s
}

func (s *tmuxShell) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

func (s *tmuxShell) send(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys"}, keys...)...)
}

func (s *tmuxShell) screen() string { return s.tmux("capture-pane", "-p", "-S", "-200") }

// clear empties the screen and the scrollback with the line editor's
// clear-screen key, which runs no command and leaves no history.
//
// The shell draws the clear when it reads the key, later than tmux takes
// it, so clear waits to see the visible screen hold only the prompt
// before it drops the history; otherwise a step could match text left
// from the one before.
func (s *tmuxShell) clear() {
	s.t.Helper()
	s.send("C-l")
	s.waitOnly(func() string { return s.tmux("capture-pane", "-p") })
	s.tmux("clear-history")
	s.waitOnly(s.screen)
}

// waitOnly waits until capture shows the prompt and nothing else.
func (s *tmuxShell) waitOnly(capture func() string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := capture()
		if strings.TrimRight(strings.TrimSpace(scr), " ") == "$" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen did not clear to a lone prompt:\n%s", scr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor waits until the screen shows want.
func (s *tmuxShell) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %q:\n%s", want, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// count returns how often want is on the screen now, for waitCount.
func (s *tmuxShell) count(want string) int { return strings.Count(s.screen(), want) }

// waitCount waits until want is on the screen more than n times.
func (s *tmuxShell) waitCount(want string, n int) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for s.count(want) <= n {
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %q a %dth time:\n%s", want, n+1, s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPrompt waits for the shell's prompt, alone, on the last line.
func (s *tmuxShell) waitPrompt() {
	s.t.Helper()
	s.waitLastLine("$")
}

// waitLastLine waits until the last non-empty line of the screen is want.
func (s *tmuxShell) waitLastLine(want string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		lines := strings.Split(strings.TrimRight(s.screen(), "\n"), "\n")
		if strings.TrimRight(lines[len(lines)-1], " ") == want {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no prompt:\n%s", s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestApproval_inlinePromptInTmux walks the on-failure flow in a real
// terminal: the prompt names the blocked path and carries an assessment;
// n, y, a and p do what they say; typed-ahead keys never approve.
func TestApproval_inlinePromptInTmux(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	sh := newTmuxShell(t, e)
	outside := filepath.Join(e.home, "outside")
	cmd := "airlock exec -a on-failure -- sh -c 'echo x > ~/outside'; echo rc=$?"
	sh.send("cd "+e.ws, "Enter")
	sh.waitPrompt()

	// n: nothing written, refused.
	sh.send(cmd, "Enter")
	scr := sh.waitFor("choice?")
	for _, want := range []string{"blocked: write " + outside, "risk: ", "let it write in ~", "run it without the sandbox"} {
		if !strings.Contains(scr, want) {
			t.Errorf("prompt lacks %q:\n%s", want, scr)
		}
	}
	sh.send("n")
	sh.waitFor("rc=126")
	if exists(outside) {
		t.Fatal("n wrote the file")
	}

	// Typed-ahead y does not approve; Ctrl-C means no.
	sh.clear()
	sh.send(cmd, "Enter", "y")
	sh.waitFor("choice?")
	time.Sleep(500 * time.Millisecond)
	if exists(outside) || strings.Contains(sh.screen(), "\nrc=") {
		t.Fatalf("a key typed before the prompt counted:\n%s", sh.screen())
	}
	sh.send("C-c")
	sh.waitFor("rc=126")
	if exists(outside) {
		t.Fatal("Ctrl-C wrote the file")
	}

	// y: written once.
	sh.clear()
	sh.send(cmd, "Enter")
	sh.waitFor("choice?")
	sh.send("y")
	sh.waitFor("rc=0")
	if b, err := os.ReadFile(outside); err != nil || string(b) != "x\n" {
		t.Fatalf("y did not write the file: %q %v", b, err)
	}
	os.Remove(outside)

	// a: written, and the next identical run does not ask.
	sh.clear()
	sh.send(cmd, "Enter")
	sh.waitFor("choice?")
	sh.send("a")
	sh.waitFor("rc=0")
	os.Remove(outside)
	sh.clear()
	sh.send(cmd, "Enter")
	sh.waitFor("rc=0")
	if strings.Contains(sh.screen(), "choice?") || !exists(outside) {
		t.Fatalf("the session approval did not stick:\n%s", sh.screen())
	}
	os.Remove(outside)

	// p: a rule is written, and it allows the next run.
	other := "airlock exec -a on-failure -- sh -c 'echo p > ~/outside'; echo rc=$?"
	sh.clear()
	sh.send(other, "Enter")
	sh.waitFor("choice?")
	sh.send("p")
	sh.waitFor("rc=0")
	rulesFile := filepath.Join(e.home, ".config", "airlock", "rules", "default.rules")
	b, err := os.ReadFile(rulesFile)
	if err != nil || !strings.Contains(string(b), `prefix_rule(pattern = ["echo"], decision = "allow")`) {
		t.Fatalf("p did not write the rule: %q %v", b, err)
	}
	os.Remove(outside)
	sh.clear()
	sh.send(other, "Enter")
	sh.waitFor("rc=0")
	if strings.Contains(sh.screen(), "choice?") || !exists(outside) {
		t.Fatalf("the rule did not allow the next run:\n%s", sh.screen())
	}

	// Every decision is in the audit log.
	r := e.run(t, nil, "audit", "--json")
	if r.code != 0 || strings.Count(r.stdout, "\n") < 7 || !strings.Contains(r.stdout, `"answer":"no (n)"`) {
		t.Fatalf("audit: %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// TestApproval_noTerminalRefusesAtOnce: without a terminal nothing is
// asked; the command is refused with 126 and a reason, immediately.
func TestApproval_noTerminalRefusesAtOnce(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	r := e.run(t, nil, "exec", "-a", "on-failure", "--", "sh", "-c", "echo x > ~/outside")
	if r.code != 126 || !strings.Contains(r.stderr, "standard input is not a terminal") || !strings.Contains(r.stderr, "blocked write "+filepath.Join(e.home, "outside")) {
		t.Fatalf("got %d %q", r.code, r.stderr)
	}
	if r.elapsed > 10*time.Second {
		t.Fatalf("took %v", r.elapsed)
	}
	if exists(filepath.Join(e.home, "outside")) {
		t.Fatal("file written without approval")
	}
}
