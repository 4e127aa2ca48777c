// Package buildinfo reports airlock's version from the Go build information.
package buildinfo

import "runtime/debug"

// Version is the module version, or "dev" for a build from a work tree.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return "dev"
	}
	return bi.Main.Version
}
