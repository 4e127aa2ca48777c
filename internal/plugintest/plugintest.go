// Package plugintest builds airlock's real binaries once per test process,
// for end-to-end tests, and decides whether a test that needs a machine
// feature skips (locally) or fails (in CI, where AIRLOCK_REQUIRE names it).
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// EnvRequire lists features whose absence fails a test instead of skipping
// it: a comma-separated subset of userns, pty, root, zsh, bash, or "all".
const EnvRequire = "AIRLOCK_REQUIRE"

// Require skips t unless ok; when AIRLOCK_REQUIRE names feature, it fails
// instead, so CI proves what a developer's machine may lack.
func Require(t testing.TB, feature string, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	for _, f := range strings.Split(os.Getenv(EnvRequire), ",") {
		if f = strings.TrimSpace(f); f == feature || f == "all" {
			t.Fatalf("required feature %q is missing: %s", feature, why)
		}
	}
	t.Skipf("needs %s: %s (set %s=%s to make this a failure)", feature, why, EnvRequire, feature)
}

var (
	usernsOnce sync.Once
	usernsOK   bool
	usernsWhy  string
)

// UserNS reports whether unprivileged user namespaces work here.
func UserNS() (bool, string) {
	usernsOnce.Do(func() {
		if runtime.GOOS != "linux" {
			usernsWhy = "not Linux"
			return
		}
		cmd := exec.Command("/bin/true")
		cmd.SysProcAttr = userNSAttr()
		if err := cmd.Run(); err != nil {
			usernsWhy = "cannot create a user namespace: " + err.Error()
			return
		}
		usernsOK = true
	})
	return usernsOK, usernsWhy
}

// RequireUserNS skips or fails t when user namespaces are unavailable.
func RequireUserNS(t testing.TB) {
	t.Helper()
	ok, why := UserNS()
	Require(t, "userns", ok, why)
}

// RequireRoot skips or fails t unless it runs as root.
func RequireRoot(t testing.TB) {
	t.Helper()
	Require(t, "root", unix.Geteuid() == 0, "not running as root")
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	buildLog  string
)

// Binaries maps a binary name to the package it is built from.
var Binaries = map[string]string{
	"airlock":                        "./cmd/host",
	"airlock-broker":                 "./cmd/broker",
	"airlock-sandbox-linux":          "./plugins/sandbox-linux",
	"airlock-sandbox-linux-launcher": "./plugins/sandbox-linux/launcher",
	"airlock-assessor":               "./plugins/assessor",
	"airlock-assessor-hello":         "./examples/assessor-hello",
	"badplugin":                      "./internal/plugintest/badplugin",
}

// Dir builds every binary in [Binaries] once, static and without cgo as
// `make build` does, and returns the directory holding them.
func Dir(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "airlock-bin-")
		if buildErr != nil {
			return
		}
		_ = os.Chmod(buildDir, 0o755)
		args := []string{"build", "-trimpath", "-o", buildDir + "/"}
		pkgs := make([]string, 0, len(Binaries))
		for _, p := range Binaries {
			pkgs = append(pkgs, p)
		}
		cmd := exec.Command("go", append(args, pkgs...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		buildLog = string(out)
		if err != nil {
			buildErr = err
			return
		}
		// go build names binaries after their directories.
		renames := map[string]string{"host": "airlock", "broker": "airlock-broker", "sandbox-linux": "airlock-sandbox-linux", "assessor": "airlock-assessor", "assessor-hello": "airlock-assessor-hello", "launcher": "airlock-sandbox-linux-launcher"}
		for from, to := range renames {
			if err := os.Rename(filepath.Join(buildDir, from), filepath.Join(buildDir, to)); err != nil {
				buildErr = err
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatalf("build binaries: %v\n%s", buildErr, buildLog)
	}
	return buildDir
}

// Cleanup removes the built binaries; call it from TestMain.
func Cleanup() {
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}
