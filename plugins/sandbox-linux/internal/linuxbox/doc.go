// Package linuxbox implements the Linux sandbox backend: the plugin side
// (Info, Probe, Prepare, Explain) and the hidden launcher that the launch
// spec re-executes.
//
// The launcher runs in two stages. Stage one is what the host starts on its
// PTY; it re-executes the binary into new user, mount, PID, IPC, UTS and
// (with network off) network namespaces and forwards signals. Stage two is
// PID 1 of the new PID namespace: it builds a read-only view of the host
// with private /tmp, /dev and /proc, binds the writable roots, keeps
// protected names read-only and hides denied paths, then drops every
// capability, applies Landlock and a seccomp filter as second layers, starts
// the command and reaps. When stage two exits the kernel kills everything
// left in the namespace, so no process outlives the command.
package linuxbox
