package launcher

import (
	"os"
	"path/filepath"
	"sort"
)

// coverage computes where access may be granted so that it reaches
// everything under the roots except the denied paths. Landlock can only
// allow, and a rule covers a whole hierarchy, so a directory holding a
// denied path is not granted itself; its other entries are, one by one.
// Directories on the way down stay unlistable, which is the price of the
// mode without namespaces.
type coverage struct {
	Dirs  []string
	Files []string
}

func complement(roots, denied []string) coverage {
	var c coverage
	for _, r := range roots {
		c.cover(filepath.Clean(r), denied, 0)
	}
	sort.Strings(c.Dirs)
	sort.Strings(c.Files)
	return c
}

// maxCoverDepth bounds the walk; deny paths are a handful of levels deep.
const maxCoverDepth = 16

func (c *coverage) cover(p string, denied []string, depth int) {
	inside := false
	for _, d := range denied {
		if Within(p, d) {
			return // p is denied, or below a denied path
		}
		if Within(d, p) {
			inside = true
		}
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return // the target is covered (or not) where it lives
	case !fi.IsDir():
		c.Files = append(c.Files, p)
		return
	case !inside || depth >= maxCoverDepth:
		c.Dirs = append(c.Dirs, p)
		return
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return
	}
	for _, e := range entries {
		c.cover(filepath.Join(p, e.Name()), denied, depth+1)
	}
}
