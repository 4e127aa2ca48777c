package launcher

import "strings"

// Within reports whether path p is root or below it. Both are clean and
// absolute.
func Within(p, root string) bool {
	if root == "/" {
		return true
	}
	return p == root || strings.HasPrefix(p, root+"/")
}
