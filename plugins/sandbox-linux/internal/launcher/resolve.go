package launcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// resolve turns the requested policy into the paths to mount, on the file
// system as it is at launch: real paths of the writable roots, every
// protected entry that exists now (including nested repositories and the
// real git directory of a worktree), and denied paths with and without
// their symbolic links resolved. Doing this at launch rather than in
// Prepare keeps a launch spec valid for reuse when files appear later.
func (c *Config) resolve() error {
	if c.Mode == "workspace-write" {
		c.WritableRoots = resolveRoots(c.WritableRoots)
		c.Protected = protectedPaths(c.WritableRoots, c.ProtectedNames)
		c.Missing = missingProtected(c.WritableRoots, c.ProtectedNames)
	} else {
		c.WritableRoots = nil
	}
	var denied []string
	for _, p := range c.DenyRead {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			denied = appendUnique(denied, real)
		}
		// A path that does not exist has nothing to hide today; it is kept
		// so that one created later under a writable root stays hidden.
		denied = appendUnique(denied, p)
	}
	c.DenyRead = denied
	cwd, err := filepath.EvalSymlinks(c.Cwd)
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	for _, d := range c.DenyRead {
		if Within(cwd, d) {
			return fmt.Errorf("the working directory %s is inside the denied path %s", c.Cwd, d)
		}
	}
	return nil
}

func resolveRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue // a root that does not exist cannot be bound
		}
		out = appendUnique(out, real)
	}
	return out
}

// protectedPaths lists the existing protected entries under each writable
// root, plus the real git directory a worktree or submodule's .git file
// points at. A protected path the user made a writable root of its own
// (--add-dir .git, to let git commit) stays writable.
func protectedPaths(roots, names []string) []string {
	return dropExplicit(existingProtected(roots, names), roots)
}

func existingProtected(roots, names []string) []string {
	var out []string
	for _, r := range roots {
		for _, g := range nestedGitDirs(r) {
			out = appendUnique(out, g)
			if fi, err := os.Lstat(g); err == nil && fi.Mode().IsRegular() {
				if gd := gitdirOf(g); gd != "" {
					out = appendUnique(out, gd)
				}
			}
		}
	}
	for _, r := range roots {
		for _, n := range names {
			p := filepath.Join(r, n)
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			out = appendUnique(out, p)
			if n == ".git" && fi.Mode().IsRegular() {
				if gd := gitdirOf(p); gd != "" {
					out = appendUnique(out, gd)
				}
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				if real, err := filepath.EvalSymlinks(p); err == nil {
					out = appendUnique(out, real)
				}
			}
		}
	}
	return out
}

// missingProtected lists the protected names that do not exist directly
// in a writable root.
func missingProtected(roots, names []string) []string {
	var out []string
	for _, r := range roots {
		for _, n := range names {
			p := filepath.Join(r, n)
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				out = appendUnique(out, p)
			}
		}
	}
	return out
}

func dropExplicit(protected, roots []string) []string {
	kept := protected[:0]
	for _, p := range protected {
		explicit := false
		for _, r := range roots {
			explicit = explicit || Within(r, p)
		}
		if !explicit {
			kept = append(kept, p)
		}
	}
	return kept
}

// Bounds of the walk for nested repositories: deep enough for a directory
// of clones or a vendored checkout, cheap enough to run per command.
const (
	nestedGitDepth   = 4
	nestedGitEntries = 20000
)

// nestedGitDirs finds .git entries of repositories nested below root (not
// root's own). It does not descend into .git directories, node_modules or
// symbolic links, and stops after nestedGitEntries entries.
func nestedGitDirs(root string) []string {
	var out []string
	budget := nestedGitEntries
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > nestedGitDepth || budget <= 0 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		budget -= len(entries)
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			if name == ".git" {
				if depth > 0 {
					out = append(out, p)
				}
				continue
			}
			if e.IsDir() && name != "node_modules" {
				walk(p, depth+1)
			}
		}
	}
	walk(root, 0)
	return out
}

// gitdirOf reads a "gitdir: PATH" pointer file.
func gitdirOf(file string) string {
	b, err := os.ReadFile(file)
	if err != nil || len(b) > 4096 {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(file), dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	return real
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
