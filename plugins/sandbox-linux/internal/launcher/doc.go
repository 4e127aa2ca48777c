// Package launcher builds the Linux sandbox and runs the command in it. It
// is the hidden launch mode of the airlock-sandbox-linux binary, and it
// imports nothing from the plugin SDK.
//
// It runs in two stages. The outer stage is what the host starts on its
// PTY; it re-executes the binary into new user, mount, PID, IPC, UTS and
// (with network off) network namespaces and forwards signals. The init
// stage is PID 1 of the new PID namespace: it builds a read-only view of the
// host with private /tmp, /dev and /proc, binds the writable roots, keeps
// protected names read-only and hides denied paths, then drops every
// capability, applies Landlock and a seccomp filter as second layers, starts
// the command and reaps. When the init stage exits the kernel kills
// everything left in the namespace, so no process outlives the command.
// Without user namespaces, and only when the caller accepts it, a single
// stage confines the command with Landlock and seccomp alone.
package launcher
