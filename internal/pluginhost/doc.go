// Package pluginhost finds, checks, starts and stops airlock's plugins.
//
// The host does not link go-plugin or gRPC: [Host] starts the
// airlock-broker helper on first need and reaches plugins through it, in
// JSON lines over a pipe; package broker holds the plugin side.
//
// Plugins are discovered next to the airlock binary, then in the user's
// plugin directory, then from [plugins.NAME] entries in the configuration;
// a later entry replaces an earlier one of the same name, which is how a
// user swaps a sandbox backend or an assessor. A plugin binary must be a
// regular file, owned by the user or root, not writable by group or others,
// in a directory others cannot write; a pinned SHA-256 is checked before
// every start. Plugins run with stdin from /dev/null, an explicit
// environment, their own process group, a private socket directory and a
// parent-death signal; their stderr goes to the host log. Every start and
// every call has a deadline, and every failure is an error: the host never
// falls back to running a command with less protection.
package pluginhost
