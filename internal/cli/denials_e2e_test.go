//go:build linux

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/plugintest"
)

// The launcher reports what it blocked as it happens, so the host names
// the path, the address or the system call without reading the command's
// output.
func TestExec_structuredDenials(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	// The command prints nothing the output heuristics could use.
	script := `{ : > /etc/airlock-denial-probe; exec 3<>/dev/tcp/192.0.2.1/81; unshare -r true; } 2>/dev/null; exit 1`
	r := e.run(t, nil, "exec", "-s", "workspace-write", "--network", "off", "-a", "never", "--", "bash", "-c", script)
	for _, want := range []string{
		"airlock: the sandbox blocked write /etc/airlock-denial-probe (open)\n",
		"airlock: the sandbox blocked network 192.0.2.1:81 (connect)\n",
		"airlock: the sandbox blocked syscall unshare\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "inferred from output") {
		t.Errorf("a denial was guessed although the launcher reported them all:\n%s", r.stderr)
	}
}

// A protected name that does not exist yet cannot be created directly in
// a writable root, by any of the calls that make a directory entry, also
// through a symbolic link or "..". Nested repositories stay possible.
func TestExec_missingProtectedNamesCannotBeCreated(t *testing.T) {
	plugintest.RequireUserNS(t)
	e := newEnv(t)
	extra := filepath.Join(filepath.Dir(e.ws), "extra")
	if err := os.MkdirAll(filepath.Join(e.ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	attempts := []string{
		"mkdir .git",
		"mkdir .airlock",
		"touch .git",
		"echo 'gitdir: evil' > .git",
		"ln -s sub .git",
		"mkdir d && mv d .git",
		"ln sub/f .airlock",
		"cd sub && mkdir ../.git",
		"ln -s . self && mkdir self/.git",
		"mkdir -p a && ln -s " + e.ws + "/sub a/x && mkdir a/x/../.git",
		"mkfifo .airlock",
		"mkdir /proc/self/cwd/.git",
		"ln -s /proc/self/cwd pc && mkdir pc/.git",
		"exec 3< . && mkdir /dev/fd/3/.airlock",
		"mkdir " + extra + "/.git",
		"cd " + extra + " && mkdir .airlock",
	}
	script := "touch sub/f; for a in \"$@\"; do sh -c \"$a\" 2>/dev/null && echo \"CREATED: $a\"; done; git init -q sub/nested && echo NESTED-OK"
	args := append([]string{"exec", "-s", "workspace-write", "--add-dir", extra, "-a", "never", "--", "sh", "-c", script, "sh"}, attempts...)
	r := e.run(t, nil, args...)
	if strings.Contains(r.stdout, "CREATED") {
		t.Errorf("protected names were created:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "NESTED-OK") {
		t.Errorf("a nested repository could not be created (stderr %q)", r.stderr)
	}
	for _, p := range []string{filepath.Join(e.ws, ".git"), filepath.Join(e.ws, ".airlock"), filepath.Join(extra, ".git"), filepath.Join(extra, ".airlock")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s exists after the run", p)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(e.ws, "*.airlock-quarantine-*")); len(matches) > 0 {
		t.Errorf("the supervisor let something through that was then moved aside: %v", matches)
	}
}
