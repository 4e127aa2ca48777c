// Package term handles the user's terminal: detection, raw mode with an
// exact restore, and window size.
package term

import (
	"os"
	"sync"

	"github.com/mattn/go-isatty"
	xterm "golang.org/x/term"
)

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool {
	return f != nil && isatty.IsTerminal(f.Fd())
}

// State is a saved terminal mode. Its methods may be called from several
// goroutines; once Restore has run, the others do nothing.
type State struct {
	mu    sync.Mutex
	fd    int
	saved *xterm.State
}

// MakeRaw puts f in raw mode and returns the state to restore.
func MakeRaw(f *os.File) (*State, error) {
	s, err := xterm.MakeRaw(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	return &State{fd: int(f.Fd()), saved: s}, nil
}

// live runs f with the lock held if the state has not been restored for
// good; otherwise it does nothing and returns nil.
func (s *State) live(f func() error) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved == nil {
		return nil
	}
	return f()
}

// Suspend puts the terminal back as it was, keeping the saved mode so that
// Resume can make it raw again (for a job the user suspends).
func (s *State) Suspend() error {
	return s.live(func() error { return xterm.Restore(s.fd, s.saved) })
}

// Resume makes the terminal raw again after Suspend.
func (s *State) Resume() error {
	return s.live(func() error {
		_, err := xterm.MakeRaw(s.fd)
		return err
	})
}

// Reassert makes the terminal raw again if something switched it back to
// canonical mode, and reports whether it had to.
func (s *State) Reassert() bool {
	changed := false
	_ = s.live(func() error {
		if cur, err := xterm.GetState(s.fd); err == nil && isRaw(s.fd, cur) {
			return nil
		}
		changed = true
		_, err := xterm.MakeRaw(s.fd)
		return err
	})
	return changed
}

// Restore puts the terminal back exactly as it was. It is safe to call more
// than once and on a nil State; after it, the other methods do nothing.
func (s *State) Restore() error {
	return s.live(func() error {
		err := xterm.Restore(s.fd, s.saved)
		s.saved = nil
		return err
	})
}

// Size returns the terminal's columns and rows.
func Size(f *os.File) (cols, rows int, err error) {
	return xterm.GetSize(int(f.Fd()))
}
