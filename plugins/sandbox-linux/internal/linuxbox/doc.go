// Package linuxbox is the plugin side of the Linux sandbox backend: Info,
// Probe, Prepare (which resolves paths and encodes a launcher config into
// the launch spec) and Explain (which reads the launcher's report and, where
// it is silent, the command's output). The launcher package builds the
// sandbox itself when the host runs the spec.
package linuxbox
