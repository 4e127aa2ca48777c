package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/shellinit"
)

// runInit prints the shell integration: eval "$(airlock init zsh)".
func runInit(args []string, stdio Stdio, e env) error {
	if len(args) != 1 {
		return usagef("init: usage: eval \"$(airlock init zsh)\" or eval \"$(airlock init bash)\"")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("init: cannot tell where airlock is: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	script, err := shellinit.Render(args[0], bin, a.cfg.Shell.Mode)
	if err != nil {
		return usagef("init: %v", err)
	}
	_, err = fmt.Fprint(stdio.Out, script)
	return err
}
