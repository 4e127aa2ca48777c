// Command airlock-broker runs airlock's plugins for the airlock host: it
// speaks go-plugin and gRPC to them and JSON lines to the host on its
// standard input and output, so the airlock binary itself starts without
// linking gRPC. It is started by airlock, never by hand.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/airlock-dev/airlock/internal/broker"
)

func main() {
	if err := broker.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
