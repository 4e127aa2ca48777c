// Command airlock-sandbox-linux-launcher is the Linux backend's launcher on
// its own: the same hidden launch mode as airlock-sandbox-linux, built
// without the plugin SDK, so it starts in about a millisecond instead of
// spending several in gRPC's and protobuf's package initialisation. The backend's launch specs use it when it is
// installed beside the plugin, and the plugin binary itself otherwise.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/launcher"
)

func main() {
	if len(os.Args) < 2 || !launcher.IsLaunchArg(os.Args[1]) {
		os.Stderr.WriteString("airlock-sandbox-linux-launcher is started by airlock's sandbox, not by hand\n")
		os.Exit(125)
	}
	os.Exit(launcher.Run(os.Args[1:]))
}
