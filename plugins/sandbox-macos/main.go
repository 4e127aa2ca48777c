// Command airlock-sandbox-macos is airlock's macOS sandbox backend: it
// turns a policy into a Seatbelt profile and a sandbox-exec launch spec.
package main

import (
	"github.com/airlock-dev/airlock/plugins/sandbox-macos/internal/seatbelt"
	"github.com/airlock-dev/airlock/sdk/sandbox/sandboxplugin"
)

func main() { sandboxplugin.Serve(seatbelt.New()) }
