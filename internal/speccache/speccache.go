// Package speccache keeps sandbox launch-spec templates, so that a command
// under a policy airlock has run before starts without the sandbox plugin:
// the host instantiates the template for the new command and runs it, and
// starts the plugin only if it has to explain a failure. Starting a plugin
// costs more than everything else on the exec path together.
//
// An entry is keyed by the plugin binary's identity (device, inode, size,
// modification and change times), its pinned digest, the policy, the
// working directory and whether a terminal is used; any change to the
// binary changes its change time and so misses. Entries live in the user's
// private runtime directory and are ignored unless owned by the user and
// unreadable to others. Backends only mark specs as templates when they do
// not depend on the file system's state, so an entry never goes stale.
package speccache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// format changes whenever Entry's meaning does.
const format = 1

// maxEntries bounds the directory; the oldest entries go first.
const maxEntries = 256

// Key identifies the situation an entry is valid for.
type Key struct {
	Plugin   string // the resolved plugin binary
	Identity string // see Identity
	Pin      string // pinned SHA-256, if any
	Policy   sandbox.Policy
	Cwd      string
	TTY      bool
}

func (k Key) id() (string, error) {
	b, err := json.Marshal(struct {
		Format int
		Key
	}{format, k})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Entry is what a hit returns.
type Entry struct {
	Info sandbox.Info
	Spec sandbox.LaunchSpec
	// Launcher is the identity of Spec.Argv[0] when it is not the plugin
	// binary but a helper beside it; Load checks it again.
	Launcher string
}

// Cache is a directory of entries.
type Cache struct {
	dir string
	uid int
}

// New returns a cache in dir, for files owned by uid.
func New(dir string, uid int) *Cache { return &Cache{dir: dir, uid: uid} }

// Load returns the entry for k, if a trustworthy, valid one exists.
func (c *Cache) Load(k Key) (*Entry, bool) {
	id, err := k.id()
	if err != nil {
		return nil, false
	}
	f, err := os.Open(filepath.Join(c.dir, id+".json"))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 || fi.Size() > 64<<10 {
		return nil, false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != c.uid {
		return nil, false
	}
	var e Entry
	if err := json.NewDecoder(f).Decode(&e); err != nil {
		return nil, false
	}
	if !e.Spec.Template || e.Spec.Validate() != nil || !ownProgram(k.Plugin, e.Spec.Argv[0]) {
		return nil, false
	}
	if e.Spec.Argv[0] != k.Plugin {
		if id, err := Identity(e.Spec.Argv[0]); err != nil || id != e.Launcher {
			return nil, false
		}
	}
	return &e, true
}

// ownProgram reports whether a spec runs the plugin binary or its launcher
// helper: nothing else is reused without asking the plugin.
func ownProgram(plugin, prog string) bool {
	return prog == plugin || prog == plugin+"-launcher"
}

// Store saves e for k atomically. Only templates whose program is the
// plugin binary or its launcher helper are kept.
func (c *Cache) Store(k Key, e *Entry) error {
	if !e.Spec.Template || e.Spec.Validate() != nil || !ownProgram(k.Plugin, e.Spec.Argv[0]) {
		return errors.New("speccache: only templates that run the plugin binary are cached")
	}
	if e.Spec.Argv[0] != k.Plugin {
		id, err := Identity(e.Spec.Argv[0])
		if err != nil {
			return err
		}
		e.Launcher = id
	}
	id, err := k.id()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(c.dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(c.dir, id+".json")); err != nil {
		return err
	}
	c.prune()
	return nil
}

func (c *Cache) prune() {
	entries, err := os.ReadDir(c.dir)
	if err != nil || len(entries) <= maxEntries {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var all []aged
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod < all[j].mod })
	for _, a := range all[:len(all)-maxEntries] {
		_ = os.Remove(filepath.Join(c.dir, a.name))
	}
}
