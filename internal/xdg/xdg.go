// Package xdg resolves airlock's per-user directories from an environment
// map, following the XDG base directory specification on every Unix.
package xdg

import (
	"fmt"
	"path/filepath"
	"strconv"
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
	return d, nil
}
