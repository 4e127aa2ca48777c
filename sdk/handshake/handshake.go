// Package handshake holds the values both sides of an airlock plugin
// connection must agree on before any RPC: the magic cookie, the wire
// protocol versions and the plugin kind names.
//
// The magic cookie only keeps a plugin binary from being run by mistake as
// an ordinary program; it is not a security measure. Trust in a plugin comes
// from the host's ownership, mode and checksum checks.
package handshake

// Plugin kinds, used as the go-plugin plugin-set keys.
const (
	// KindSandbox names sandbox backends.
	KindSandbox = "sandbox"
	// KindAssessor names risk assessors.
	KindAssessor = "assessor"
)

// ProtocolVersion is the current wire major version. A host serves every
// version it still speaks through go-plugin's VersionedPlugins, so plugins
// built against an older SDK keep working until that version is dropped.
const ProtocolVersion = 1

// Environment variables the host sets for its plugins.
const (
	// MagicCookieKey is the environment variable carrying the cookie.
	MagicCookieKey = "AIRLOCK_PLUGIN_MAGIC_COOKIE"
	// MagicCookieValue is the cookie's value.
	MagicCookieValue = "b6f6a2c1-airlock-plugin-9d3e"
	// EnvParentPID carries the host's pid so a plugin can exit when the host
	// dies, even if the host was killed with SIGKILL.
	EnvParentPID = "AIRLOCK_PARENT_PID"
	// EnvLogLevel carries the host's log level (trace, debug, info, warn, error).
	EnvLogLevel = "AIRLOCK_PLUGIN_LOG_LEVEL"
)
