// Command airlock-assessor-hello is the example assessor plugin from
// sdk/README.md: a few lines of rules behind airlock's plugin SDK. Build it,
// point a [plugins.hello] entry at it, and set assessor.backend = "hello".
package main

import (
	"github.com/airlock-dev/airlock/examples/assessor-hello/hello"
	"github.com/airlock-dev/airlock/sdk/assessor/assessorplugin"
)

func main() { assessorplugin.Serve(hello.Assessor{}) }
