// Command airlock is the airlock host: it puts a command through rules, a
// sandbox plugin, a risk assessment and an inline approval. All logic lives
// in internal/cli; this is wiring only.
package main

import (
	"context"
	"os"

	"github.com/airlock-dev/airlock/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, os.Environ()))
}
