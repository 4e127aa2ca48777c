// Package shellinit renders the zsh and bash integration that
// `airlock init zsh|bash` prints: the embedded scripts with the airlock
// binary's absolute path and the configured default mode filled in.
package shellinit

import (
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/sdk/shellparse"
	shellintegration "github.com/airlock-dev/airlock/shell-integration"
)

// Shells lists the shells there is an integration for.
var Shells = []string{"zsh", "bash"}

// Render returns the integration for shell, calling the airlock binary at
// bin, with mode (on, guard or off) as the default for new shells.
func Render(shell, bin, mode string) (string, error) {
	b, err := shellintegration.Files.ReadFile("airlock." + shell)
	if err != nil {
		return "", fmt.Errorf("no integration for %q (want zsh or bash)", shell)
	}
	switch mode {
	case "on", "guard", "off":
	default:
		return "", fmt.Errorf("mode %q is not on, guard or off", mode)
	}
	r := strings.NewReplacer("@AIRLOCK_BIN@", shellparse.Quote(bin), "@AIRLOCK_DEFAULT_MODE@", mode)
	return r.Replace(string(b)), nil
}
