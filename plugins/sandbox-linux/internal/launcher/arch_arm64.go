//go:build linux && arm64

package launcher

const (
	auditArch = 0xc00000b7 // AUDIT_ARCH_AARCH64
	x32Bit    = 0
)

// legacyPathCalls is empty: arm64 has only the *at forms.
var legacyPathCalls []pathCall
