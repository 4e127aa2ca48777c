package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/airlock-dev/airlock/internal/config"
)

func runConfig(args []string, stdio Stdio, e env) error {
	if len(args) == 1 && args[0] == "--keys" {
		w := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
		for _, k := range config.KeyDocs() {
			fmt.Fprintf(w, "%s\t%s\n", k[0], k[1])
		}
		return w.Flush()
	}
	if len(args) != 0 {
		return usagef("config: usage: airlock config [--keys]")
	}
	a, err := newApp(e, nil, nil)
	if err != nil {
		return err
	}
	defer a.close()
	w := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	for _, k := range a.cfg.Keys() {
		fmt.Fprintf(w, "%s = %s\t# %s\n", k, a.cfg.Value(k), a.cfg.Origin[k])
	}
	if a.cfg.ProjectRoot != "" {
		fmt.Fprintf(w, "# trusted project: %s\n", a.cfg.ProjectRoot)
	}
	return w.Flush()
}
