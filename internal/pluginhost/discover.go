package pluginhost

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/airlock-dev/airlock/sdk/handshake"
)

// Sources of a discovered plugin, in increasing precedence.
const (
	SourceBuiltin = "builtin"
	SourceUser    = "user"
	SourceConfig  = "config"
)

// Entry is a discovered plugin binary.
type Entry struct {
	// Name is the binary name without "airlock-", or the config name.
	Name   string
	Kind   string
	Path   string
	Source string
	// SHA256 is the pinned digest, if configured.
	SHA256 string
	// Env is extra environment for this plugin only (for example the
	// built-in assessor's model settings), never shared with others.
	Env []string `json:",omitempty"`
}

// Configured is a [plugins.NAME] entry from the configuration.
type Configured struct {
	Kind   string
	Path   string
	SHA256 string
}

// ErrNotFound reports that no plugin has the requested name.
var ErrNotFound = errors.New("plugin not found")

// kindOf infers a plugin's kind from its binary name. Files named
// airlock-*-launcher are a plugin's helpers, never plugins themselves.
func kindOf(name string) string {
	switch {
	case strings.HasSuffix(name, "-launcher"):
		return ""
	case strings.HasPrefix(name, "sandbox-"):
		return handshake.KindSandbox
	case name == "assessor" || strings.HasPrefix(name, "assessor-"):
		return handshake.KindAssessor
	}
	return ""
}

// Discover lists plugins from the binary's directory, the user plugin
// directory and the configuration, later sources replacing earlier ones by
// name. It does not check the binaries; [Check] does, before a start.
func Discover(selfDir, userDir string, configured map[string]Configured) []Entry {
	byName := map[string]Entry{}
	for _, src := range []struct{ dir, source string }{{selfDir, SourceBuiltin}, {userDir, SourceUser}} {
		if src.dir == "" {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(src.dir, "airlock-*"))
		for _, m := range matches {
			name := strings.TrimPrefix(filepath.Base(m), "airlock-")
			kind := kindOf(name)
			if kind == "" {
				continue
			}
			if fi, err := os.Stat(m); err != nil || fi.IsDir() {
				continue
			}
			byName[name] = Entry{Name: name, Kind: kind, Path: m, Source: src.source}
		}
	}
	for name, c := range configured {
		byName[name] = Entry{Name: name, Kind: c.Kind, Path: c.Path, Source: SourceConfig, SHA256: c.SHA256}
	}
	out := make([]Entry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Find returns the entry named name of the given kind.
func Find(entries []Entry, kind, name string) (Entry, error) {
	for _, e := range entries {
		if e.Name == name {
			if e.Kind != kind {
				return Entry{}, fmt.Errorf("plugin %q is a %s plugin, not a %s plugin; check [plugins.%s] kind in your config", name, e.Kind, kind, name)
			}
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("%w: no %s plugin named %q; run 'airlock plugins list' to see what is installed", ErrNotFound, kind, name)
}

// Check verifies that the binary is safe to run: a regular executable file
// owned by uid or root, not writable by group or others, in a directory
// that others cannot write, and matching its pinned digest if it has one.
// It returns the resolved path to execute.
func Check(e Entry, uid int) (string, error) {
	path, err := filepath.EvalSymlinks(e.Path)
	if err != nil {
		return "", fmt.Errorf("plugin %s: %w", e.Name, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("plugin %s: %w", e.Name, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("plugin %s: %s is not a regular file", e.Name, path)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("plugin %s: %s is not executable; run 'chmod 0755 %s'", e.Name, path, path)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return "", fmt.Errorf("plugin %s: %s is writable by group or others; run 'chmod go-w %s'", e.Name, path, path)
	}
	if err := checkOwner(fi, uid, path); err != nil {
		return "", fmt.Errorf("plugin %s: %w", e.Name, err)
	}
	dir := filepath.Dir(path)
	if di, err := os.Stat(dir); err == nil && di.Mode().Perm()&0o002 != 0 && di.Mode()&os.ModeSticky == 0 {
		return "", fmt.Errorf("plugin %s: its directory %s is writable by everyone; move the plugin or run 'chmod o-w %s'", e.Name, dir, dir)
	}
	if e.SHA256 != "" {
		got, err := digest(path)
		if err != nil {
			return "", fmt.Errorf("plugin %s: %w", e.Name, err)
		}
		if got != e.SHA256 {
			return "", fmt.Errorf("plugin %s: %s has SHA-256 %s, but the config pins %s; reinstall the plugin or update the pin", e.Name, path, got, e.SHA256)
		}
	}
	return path, nil
}

func checkOwner(fi os.FileInfo, uid int, path string) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) != uid && st.Uid != 0 {
		return fmt.Errorf("%s is owned by uid %d, not by you or root; run 'chown %d %s' if you trust it", path, st.Uid, uid, path)
	}
	return nil
}

func digest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ErrStart wraps every failure to start a plugin or complete its handshake.
var ErrStart = errors.New("plugin failed to start")
