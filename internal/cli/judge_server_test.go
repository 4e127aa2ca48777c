package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeJudge drives the judge server over pipes, as a shell would.
func TestServeJudge(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	run := filepath.Join(dir, "run")
	os.MkdirAll(filepath.Join(home, ".config", "airlock", "rules"), 0o755)
	os.MkdirAll(run, 0o700)
	os.WriteFile(filepath.Join(home, ".config", "airlock", "rules", "a.rules"), []byte(`prefix_rule(pattern = ["touch"], decision = "forbidden", justification = "no touching")`+"\n"), 0o644)
	e := newEnv([]string{"HOME=" + home, "XDG_RUNTIME_DIR=" + run, "PATH=/usr/bin:/bin"})
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveJudge(context.Background(), reqR, respW, e) }()
	answers := bufio.NewReader(respR)
	ask := func(fields ...string) string {
		t.Helper()
		go io.WriteString(reqW, strings.Join(append(fields, requestEnd), "\x00")+"\x00")
		line, err := answers.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(line, "\n")
	}
	judge := func(cwd, mode, line string) string {
		return ask(cwd, "--shell", "zsh", "--mode", mode, "--", line)
	}
	tests := []struct{ cwd, mode, line, want string }{
		{dir, "guard", "ls -la", "0\x1f\x1f"},
		{dir, "on", "make test", "10\x1f\x1f"},
		{dir, "guard", "true && touch x", "20\x1f\x1fairlock: forbidden: rule touch (" + filepath.Join(home, ".config", "airlock", "rules", "a.rules") + ":1): no touching"},
		{dir, "guard", "rm -rf ~/important", "40\x1f\x1f"},
		{dir, "guard", "cat <<EOF\nhi", "30\x1f\x1f"},
		{dir, "guard", "echo multi\nline", "0\x1f\x1f"},
	}
	for _, tt := range tests {
		if got := judge(tt.cwd, tt.mode, tt.line); got != tt.want {
			t.Errorf("judge %q (%s): got %q, want %q", tt.line, tt.mode, got, tt.want)
		}
	}
	// Under the never policy, guard mode refuses what it would have asked
	// about: the line would run outside any sandbox.
	e.m["AIRLOCK_APPROVAL__POLICY"] = "never"
	if got := judge(dir, "guard", "git reset --hard"); !strings.HasPrefix(got, "20\x1f\x1fairlock: refused: dangerous") {
		t.Errorf("never policy in guard mode: got %q", got)
	}
	delete(e.m, "AIRLOCK_APPROVAL__POLICY")
	if got := ask(dir, "--mode", "bogus", "--", "ls"); !strings.HasPrefix(got, "125\x1f\x1fairlock: ") {
		t.Errorf("a bad request: got %q", got)
	}
	reqW.Close()
	if err := <-done; err != nil {
		t.Fatalf("server: %v", err)
	}
}
