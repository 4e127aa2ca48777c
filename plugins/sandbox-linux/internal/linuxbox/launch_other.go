//go:build !linux

package linuxbox

import (
	"context"
	"fmt"
	"os"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// RunLauncher reports that the launcher only exists on Linux.
func RunLauncher([]string) int {
	fmt.Fprintln(os.Stderr, "airlock: the Linux sandbox launcher only runs on Linux")
	return 125
}

func probeMachine(context.Context) *sandbox.ProbeResult {
	return &sandbox.ProbeResult{Mode: "none", Remedy: "use the sandbox backend for this OS"}
}
