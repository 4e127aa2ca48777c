// Command airlock-assessor is airlock's built-in risk assessor plugin: an
// offline, deterministic rules engine over the parsed command line.
package main

import (
	"github.com/airlock-dev/airlock/plugins/assessor/internal/rules"
	"github.com/airlock-dev/airlock/sdk/assessor/assessorplugin"
)

func main() { assessorplugin.Serve(rules.New()) }
