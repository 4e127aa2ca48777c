// Package shellintegration holds airlock's zsh and bash integration, the
// scripts `airlock init zsh|bash` prints. They route every typed line
// through `airlock judge` at the line editor, the one place that sees the
// whole line before it runs and can stop it.
package shellintegration

import "embed"

// Files holds airlock.zsh and airlock.bash.
//
//go:embed airlock.zsh airlock.bash
var Files embed.FS
