// Package xdg resolves airlock's per-user directories from an environment
// map, following the XDG base directory specification on every Unix.
package xdg

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Dirs are airlock's directories for one user.
type Dirs struct {
	Home string
	// Config holds config.toml and rules/.
	Config string
	// Data holds user-installed plugins under plugins/.
	Data string
	// State holds the audit log and the host log.
	State string
	// Runtime holds session approvals and plugin sockets (mode 0700).
	Runtime string
	// RuntimeFallback is set when XDG_RUNTIME_DIR was unset and Runtime
	// lies in a per-user directory airlock made under TMPDIR or /tmp.
	RuntimeFallback bool
}

// Resolve computes the directories from env (KEY → value) and the uid used
// when XDG_RUNTIME_DIR is unset.
func Resolve(env map[string]string, uid int) (Dirs, error) {
	home := env["HOME"]
	if home == "" || !filepath.IsAbs(home) {
		return Dirs{}, fmt.Errorf("HOME is unset or not absolute; set HOME to your home directory")
	}
	pick := func(key, fallback string) string {
		if v := env[key]; v != "" && filepath.IsAbs(v) {
			return v
		}
		return fallback
	}
	d := Dirs{
		Home:    home,
		Config:  filepath.Join(pick("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "airlock"),
		Data:    filepath.Join(pick("XDG_DATA_HOME", filepath.Join(home, ".local", "share")), "airlock"),
		State:   filepath.Join(pick("XDG_STATE_HOME", filepath.Join(home, ".local", "state")), "airlock"),
		Runtime: filepath.Join(pick("XDG_RUNTIME_DIR", filepath.Join(pick("TMPDIR", "/tmp"), "airlock-"+strconv.Itoa(uid))), "airlock"),
	}
	d.RuntimeFallback = pick("XDG_RUNTIME_DIR", "") == ""
	return d, nil
}

// EnsurePrivate creates the runtime directory if needed and checks that it,
// and the per-user fallback directory above it when XDG_RUNTIME_DIR was
// unset, are directories (not links) owned by uid with no access for group
// or others. In a shared /tmp another user could otherwise create the
// directory first and swap what airlock puts in it.
func (d Dirs) EnsurePrivate(uid int) error {
	parent := filepath.Dir(d.Runtime)
	for _, dir := range []string{parent, d.Runtime} {
		if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
			return fmt.Errorf("runtime directory %s: %w", dir, err)
		}
	}
	check := []string{d.Runtime}
	if d.RuntimeFallback {
		check = append(check, parent)
	}
	for _, dir := range check {
		fi, err := os.Lstat(dir)
		if err != nil {
			return fmt.Errorf("runtime directory %s: %w", dir, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !fi.IsDir() || !ok || int(st.Uid) != uid || fi.Mode().Perm()&0o077 != 0 {
			return fmt.Errorf("runtime directory %s is not a private directory of yours (owner, mode 0700); remove it or set XDG_RUNTIME_DIR", dir)
		}
	}
	return nil
}
