// Command airlock-assessor is airlock's built-in risk assessor plugin: an
// offline, deterministic rules engine over the parsed command line, or,
// when airlock passes a model configuration, a model-backed assessor that
// falls back to those rules.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/plugins/assessor/internal/model"
	"github.com/airlock-dev/airlock/plugins/assessor/internal/rules"
	"github.com/airlock-dev/airlock/sdk/assessor/assessorplugin"
)

func main() {
	if cfg, ok := model.FromEnv(os.Getenv); ok {
		assessorplugin.Serve(model.New(cfg, rules.New()))
		return
	}
	assessorplugin.Serve(rules.New())
}
