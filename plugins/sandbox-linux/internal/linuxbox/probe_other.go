//go:build !linux

package linuxbox

import (
	"context"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func probeMachine(context.Context) *sandbox.ProbeResult {
	return &sandbox.ProbeResult{Mode: "none", Remedy: "use the sandbox backend for this OS"}
}
