package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Format renders a prefix_rule call for a rules file.
func Format(r *Rule) string {
	parts := make([]string, len(r.Pattern))
	for i, alts := range r.Pattern {
		if len(alts) == 1 {
			parts[i] = strconv.Quote(alts[0])
			continue
		}
		q := make([]string, len(alts))
		for j, a := range alts {
			q[j] = strconv.Quote(a)
		}
		parts[i] = "[" + strings.Join(q, ", ") + "]"
	}
	out := fmt.Sprintf("prefix_rule(pattern = [%s], decision = %q", strings.Join(parts, ", "), r.Decision.String())
	if r.Justification != "" {
		out += ", justification = " + strconv.Quote(r.Justification)
	}
	return out + ")\n"
}

// Append adds r to the rules file at path, creating it (and its
// directory) when needed. It holds a lock so concurrent writers never
// lose a rule, does nothing when the same pattern and decision are there
// already, checks that the result loads, and replaces the file atomically
// so a reader never sees half a rule. It reports whether it wrote.
func Append(path string, r *Rule, comment string) (bool, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("rules: %w", err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return false, fmt.Errorf("rules: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return false, fmt.Errorf("rules: lock %s: %w", path, err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)

	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("rules: %w", err)
	}
	existing := &Set{Hosts: map[string][]string{}}
	if err := existing.LoadSource(path, old); err != nil {
		return false, fmt.Errorf("%w (not changing it)", err)
	}
	for _, x := range existing.Rules {
		if x.Decision == r.Decision && slices.EqualFunc(x.Pattern, r.Pattern, slices.Equal) {
			return false, nil
		}
	}
	var b strings.Builder
	b.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	if comment != "" {
		for _, l := range strings.Split(comment, "\n") {
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString(Format(r))
	check := &Set{Hosts: map[string][]string{}}
	if err := check.LoadSource(path, []byte(b.String())); err != nil {
		return false, fmt.Errorf("rules: the new rule would not load: %w", err)
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rules-*")
	if err != nil {
		return false, fmt.Errorf("rules: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(b.String()); err != nil {
		tmp.Close()
		return false, fmt.Errorf("rules: %w", err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return false, fmt.Errorf("rules: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("rules: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("rules: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return false, fmt.Errorf("rules: %w", err)
	}
	return true, nil
}
