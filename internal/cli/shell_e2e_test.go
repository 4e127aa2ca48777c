//go:build linux

package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

// integratedShell starts zsh or bash in tmux with airlock's integration
// loaded from the rc file, an alias and a function defined, in e.ws.
func integratedShell(t *testing.T, e *env, shell string) *tmuxShell {
	t.Helper()
	path, err := exec.LookPath(shell)
	plugintest.Require(t, shell, err == nil, shell+" is not installed")
	rc := "PS1='$ '\nalias ll='ls -la'\ngreet() { echo \"hello $1\"; }\ncd " + e.ws + "\n" +
		"eval \"$(airlock init " + shell + ")\"\n"
	var argv []string
	switch shell {
	case "zsh":
		if err := os.WriteFile(filepath.Join(e.home, ".zshrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		argv = []string{path, "-i"}
	default:
		// The test clears the screen with C-l, which bash's vi-insert
		// keymap leaves unbound.
		rc = "bind -m vi-insert '\"\\C-l\": clear-screen'\n" + rc
		if err := os.WriteFile(filepath.Join(e.home, ".bashrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		argv = []string{path, "--noprofile", "--rcfile", filepath.Join(e.home, ".bashrc"), "-i"}
	}
	sh := startTmux(t, e, nil, argv...)
	sh.waitPrompt()
	return sh
}

// run types a line and waits for the prompt to come back: a second prompt
// line below the typed one, not the prompt the screen showed before tmux
// drew the typed keys.
func (s *tmuxShell) run(line string) {
	s.t.Helper()
	s.clear()
	s.send(line, "Enter")
	deadline := time.Now().Add(15 * time.Second)
	for {
		lines := strings.Split(strings.TrimRight(s.screen(), "\n"), "\n")
		prompts := 0
		for _, l := range lines {
			if l = strings.TrimRight(l, " "); l == "$" || strings.HasPrefix(l, "$ ") {
				prompts++
			}
		}
		if prompts >= 2 && strings.TrimRight(lines[len(lines)-1], " ") == "$" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no prompt after %q:\n%s", line, s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestShellIntegration(t *testing.T) {
	for _, shell := range []string{"zsh", "bash"} {
		t.Run(shell, func(t *testing.T) {
			plugintest.RequireUserNS(t)
			testShell(t, shell)
		})
	}
}

func testShell(t *testing.T, shell string) {
	e := newEnv(t)
	e.writeRules(t, "default.rules", `prefix_rule(pattern = ["touch"], decision = "forbidden", justification = "no touching")`+"\n")
	sh := integratedShell(t, e, shell)

	// Ordinary commands, builtins, an alias and a function.
	sh.run("echo plain-$((40+2))")
	sh.waitFor("\nplain-42")
	sh.run("cd /tmp")
	sh.run("pwd")
	sh.waitFor("\n/tmp\n")
	sh.run("cd " + e.ws)
	sh.run("ll -d /")
	sh.waitFor("root root")
	sh.run("greet bob")
	sh.waitFor("\nhello bob")

	// A judge server that dies is replaced without the user noticing.
	exec.Command("pkill", "-f", "judge --serve").Run()
	sh.run("echo after-server-$((6*7))")
	sh.waitFor("\nafter-server-42")

	// A risky line asks, inline, with a high risk; n keeps the directory
	// and leaves the line in the buffer; Ctrl-C cancels; y runs it.
	important := filepath.Join(e.home, "important")
	if err := os.MkdirAll(important, 0o755); err != nil {
		t.Fatal(err)
	}
	sh.clear()
	sh.send("rm -rf ~/important", "Enter")
	scr := sh.waitFor("choice?")
	if !strings.Contains(scr, "HIGH") {
		t.Errorf("the prompt should rate rm -rf ~/important HIGH:\n%s", scr)
	}
	sh.send("n")
	sh.waitLastLine("$ rm -rf ~/important")
	if !exists(important) {
		t.Fatal("n removed the directory")
	}
	n := sh.count("choice?")
	sh.send("Enter")
	sh.waitCount("choice?", n)
	sh.send("C-c")
	sh.waitLastLine("$ rm -rf ~/important")
	if !exists(important) {
		t.Fatal("Ctrl-C removed the directory")
	}
	n = sh.count("choice?")
	sh.send("Enter")
	sh.waitCount("choice?", n)
	sh.send("y")
	sh.waitPrompt()
	if exists(important) {
		t.Fatalf("y did not remove the directory:\n%s", sh.screen())
	}

	// A forbidden command never runs, however it is typed.
	for i, line := range []string{"touch f0", "sudo touch f1", `\touch f2`, "echo $(touch f3)", "true && touch f4", "command touch f5"} {
		sh.clear()
		sh.send(line, "Enter")
		sh.waitFor("forbidden")
		sh.waitLastLine("$ " + line)
		sh.send("C-u")
		if f := filepath.Join(e.ws, "f"+string(rune('0'+i))); exists(f) {
			t.Errorf("%q ran", line)
		}
	}

	// A here-document spanning lines is judged once, complete.
	sh.clear()
	sh.send("cat <<EOF", "Enter")
	sh.send("heredoc-body", "Enter")
	sh.send("EOF", "Enter")
	sh.waitFor("\nheredoc-body\n")
	sh.waitPrompt()

	// Loading the integration twice changes nothing.
	sh.run("echo session=$AIRLOCK_SESSION")
	before := lastMatch(sh.screen(), "session=")
	rcFile := map[string]string{"zsh": "~/.zshrc", "bash": "~/.bashrc"}[shell]
	sh.run("source " + rcFile)
	sh.run("echo session=$AIRLOCK_SESSION")
	if after := lastMatch(sh.screen(), "session="); after != before || before == "session=" {
		t.Errorf("session changed on reload: %q -> %q", before, after)
	}
	sh.run("greet again")
	sh.waitFor("\nhello again")

	// vi mode: lines are still judged.
	if shell == "zsh" {
		sh.run("bindkey -v")
	} else {
		sh.run("set -o vi")
	}
	sh.run("echo vi-ok")
	sh.waitFor("\nvi-ok")
	sh.clear()
	sh.send("touch f9", "Enter")
	sh.waitFor("forbidden")
	sh.send("Escape", "dd")
	if exists(filepath.Join(e.ws, "f9")) {
		t.Error("a forbidden line ran in vi mode")
	}
	sh.send("i")
	if shell == "zsh" {
		sh.run("bindkey -e")
	} else {
		sh.run("set -o emacs")
	}

	// On mode: a write outside the workspace is blocked, the prompt names
	// the path and offers the smallest escalation; history keeps the line.
	sh.run("airlock on")
	outside := filepath.Join(e.home, "outside")
	sh.clear()
	sh.send("echo x > ~/outside", "Enter")
	scr = sh.waitFor("choice?")
	for _, want := range []string{"blocked: write " + outside, "let it write in ~"} {
		if !strings.Contains(scr, want) {
			t.Errorf("on-mode prompt lacks %q:\n%s", want, scr)
		}
	}
	sh.send("n")
	sh.waitPrompt()
	if exists(outside) {
		t.Fatal("n wrote the file")
	}
	sh.run("fc -ln -1")
	if !strings.Contains(sh.screen(), "\necho x > ~/outside") && !strings.Contains(sh.screen(), "\techo x > ~/outside") && !strings.Contains(sh.screen(), " echo x > ~/outside") {
		t.Errorf("history does not hold the line as typed:\n%s", sh.screen())
	}
	sh.run("airlock guard")

	// Every judged line is in the audit log, the here-document once.
	r := e.run(t, nil, "audit", "--json")
	heredocs := 0
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec struct{ Argv []string }
		if json.Unmarshal([]byte(l), &rec) == nil && len(rec.Argv) == 1 && strings.HasPrefix(rec.Argv[0], "cat <<EOF") {
			heredocs++
			if rec.Argv[0] != "cat <<EOF\nheredoc-body\nEOF" {
				t.Errorf("here-document judged incomplete: %q", rec.Argv[0])
			}
		}
	}
	if heredocs != 1 {
		t.Errorf("here-document judged %d times, want once", heredocs)
	}
}

// TestShellIntegration_missingBinaryFailsSafe: with airlock gone, lines
// do not run, one line says how to switch off, and cd and airlock off
// still work.
func TestShellIntegration_missingBinaryFailsSafe(t *testing.T) {
	for _, shell := range []string{"zsh", "bash"} {
		t.Run(shell, func(t *testing.T) {
			e := newEnv(t)
			bin := filepath.Join(filepath.Dir(e.home), "bin")
			os.MkdirAll(bin, 0o755)
			for _, n := range []string{"airlock", "airlock-broker", "airlock-assessor"} {
				b, err := os.ReadFile(filepath.Join(e.bin, n))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(bin, n), b, 0o755)
			}
			e.bin = bin
			sh := integratedShell(t, e, shell)
			os.Remove(filepath.Join(bin, "airlock"))
			sh.clear()
			sh.send("echo ran > marker", "Enter")
			sh.waitFor("airlock off")
			time.Sleep(200 * time.Millisecond)
			if exists(filepath.Join(e.ws, "marker")) {
				t.Fatal("the line ran without airlock")
			}
			sh.send("C-u")
			sh.run("cd /tmp")
			sh.run("airlock off")
			sh.run("echo ran > " + filepath.Join(e.ws, "marker"))
			if !exists(filepath.Join(e.ws, "marker")) {
				t.Fatalf("airlock off did not let lines run:\n%s", sh.screen())
			}
		})
	}
}

func lastMatch(screen, prefix string) string {
	out := ""
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = l
		}
	}
	return out
}
