//go:build !linux

package launcher

import (
	"fmt"
	"os"
)

// Run reports that the launcher only exists on Linux.
func Run([]string) int {
	fmt.Fprintln(os.Stderr, "airlock: the Linux sandbox launcher only runs on Linux")
	return 125
}
