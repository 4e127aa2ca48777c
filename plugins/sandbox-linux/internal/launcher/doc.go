// Package launcher builds the Linux sandbox and runs the command in it. It
// is the hidden launch mode of the airlock-sandbox-linux binary, and of the
// SDK it imports only the types (sdk/sandbox), never the gRPC adapters, so
// the lean launcher binary starts fast.
//
// The host normally starts it already in new user, mount, PID, IPC, UTS and
// (with network off) network namespaces, as the launch spec asks; it is then
// the init stage at once. Started without them, it is the outer stage: it
// re-executes the binary into those namespaces and forwards signals. The
// init stage is PID 1 of the new PID namespace: it builds a read-only view
// of the host with private /tmp, /dev and /proc, binds the writable roots,
// keeps protected names read-only and hides denied paths, then drops every
// capability, applies Landlock and two seccomp filters on the thread that
// starts the command, runs the supervisor (supervise_linux.go) on its other
// threads, starts the command and reaps. When the command exits it kills
// and reaps everything left in the namespace, moves aside protected names
// that appeared, and reports "done", so no process outlives the command.
// Without user namespaces, and only when the caller accepts it, a single
// stage confines the command with Landlock and seccomp alone.
package launcher
