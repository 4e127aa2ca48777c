// Package sandbox is the contract for airlock sandbox backends.
//
// A backend implements [Sandbox] and calls sandboxplugin.Serve from its main
// function.
// The host never hands a backend the user's byte stream: it asks Prepare to
// turn a command and a [Policy] into a [LaunchSpec], runs that spec itself on
// a PTY or on pipes, and afterwards asks Explain what, if anything, the
// sandbox blocked. Every backend therefore gets the same signal, resize and
// exit-status handling, and output never crosses the RPC boundary. A spec
// may ask the host to start it in new Linux namespaces
// ([LaunchSpec.Namespaces]), which saves a launcher the process it would
// otherwise spend creating them.
//
// Optional features are announced in [Info.Capabilities]; the host refuses a
// policy that needs a capability a backend does not list rather than run
// the command with less protection than asked.
//
// Test a backend with the conformance kit in
// github.com/airlock-dev/airlock/sdk/sandboxtest.
package sandbox
