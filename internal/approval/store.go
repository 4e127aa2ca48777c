// Package approval asks the user inline, on their terminal, whether a
// command may run, and remembers "yes for this session" answers.
//
// The prompt is a few lines printed on /dev/tty right below the command,
// answered with one key; keys typed before it appeared are discarded.
// Session approvals live in the private runtime directory, one file per
// shell session, scoped to the exact command and directory (or to a
// command prefix).
package approval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// Grant is what an approval allows beyond the policy.
type Grant struct {
	// AddDirs are extra writable roots.
	AddDirs []string `json:"add_dirs,omitempty"`
	// Network turns the network on.
	Network bool `json:"network,omitempty"`
	// Unsandboxed runs the command outside the sandbox.
	Unsandboxed bool `json:"unsandboxed,omitempty"`
}

// Describe lists a grant's parts for people.
func (g Grant) Describe() []string {
	var out []string
	for _, d := range g.AddDirs {
		out = append(out, "write "+d)
	}
	if g.Network {
		out = append(out, "network on")
	}
	if g.Unsandboxed {
		out = append(out, "no sandbox")
	}
	return out
}

// Merge adds other's parts to g.
func (g Grant) Merge(other Grant) Grant {
	for _, d := range other.AddDirs {
		if !slices.Contains(g.AddDirs, d) {
			g.AddDirs = append(g.AddDirs, d)
		}
	}
	g.Network = g.Network || other.Network
	g.Unsandboxed = g.Unsandboxed || other.Unsandboxed
	return g
}

// Entry is one remembered approval.
type Entry struct {
	// Argv and Cwd scope an exact-command approval.
	Argv []string `json:"argv,omitempty"`
	Cwd  string   `json:"cwd,omitempty"`
	// Prefix, when set, approves every command starting with it.
	Prefix []string  `json:"prefix,omitempty"`
	Grant  Grant     `json:"grant"`
	Time   time.Time `json:"time"`
}

func (e Entry) covers(argv []string, cwd string) bool {
	if len(e.Prefix) > 0 {
		return len(argv) >= len(e.Prefix) && slices.Equal(argv[:len(e.Prefix)], e.Prefix)
	}
	return e.Cwd == cwd && slices.Equal(e.Argv, argv)
}

// Store keeps session approvals in a private directory.
type Store struct{ dir string }

// NewStore returns the store in dir (created 0700 on first write).
func NewStore(dir string) *Store { return &Store{dir: dir} }

func (s *Store) file(session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:12])+".json")
}

type sessionFile struct {
	Session string  `json:"session"`
	Entries []Entry `json:"entries"`
}

// Lookup returns what the session approved for argv in cwd, merged over
// every entry that covers it.
func (s *Store) Lookup(session string, argv []string, cwd string) (Grant, bool) {
	sf, err := s.read(session)
	if err != nil {
		return Grant{}, false
	}
	var g Grant
	found := false
	for _, e := range sf.Entries {
		if e.covers(argv, cwd) {
			g, found = g.Merge(e.Grant), true
		}
	}
	return g, found
}

func (s *Store) read(session string) (*sessionFile, error) {
	b, err := os.ReadFile(s.file(session))
	if err != nil {
		return nil, err
	}
	var sf sessionFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return nil, fmt.Errorf("approvals: %s is damaged: %w", s.file(session), err)
	}
	if sf.Session != session {
		return nil, errors.New("approvals: session mismatch")
	}
	return &sf, nil
}

// Remember adds an entry for the session, under a lock, replacing the
// file atomically.
func (s *Store) Remember(session string, e Entry) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	path := s.file(session)
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("approvals: lock: %w", err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)
	sf, err := s.read(session)
	if err != nil {
		sf = &sessionFile{Session: session}
	}
	sf.Entries = append(sf.Entries, e)
	b, err := json.Marshal(sf)
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	tmp, err := os.CreateTemp(s.dir, ".session-*")
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("approvals: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	return nil
}
