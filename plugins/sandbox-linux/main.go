// Command airlock-sandbox-linux is airlock's Linux sandbox backend. Started
// by the host it serves the sandbox plugin protocol; started through a
// launch spec with the hidden launch argument it becomes the launcher that
// builds the sandbox and execs the command.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/launcher"
	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/linuxbox"
	"github.com/airlock-dev/airlock/sdk/sandbox/sandboxplugin"
)

func main() {
	if len(os.Args) > 1 && launcher.IsLaunchArg(os.Args[1]) {
		os.Exit(launcher.Run(os.Args[1:]))
	}
	sandboxplugin.Serve(linuxbox.New())
}
