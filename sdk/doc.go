// Package sdk is the public contract between airlock and its plugins.
//
// Everything a plugin author needs lives below this directory: the wire
// contract in proto/, the go-plugin handshake in [handshake], the sandbox
// interface and its Serve function in sandbox, the assessor interface in
// assessor, the shared command-line parser in shellparse, and conformance
// kits in sandboxtest and assessortest. Nothing here imports airlock's own
// internal packages, so a plugin built against sdk/ is built exactly as
// airlock's own plugins are.
package sdk
