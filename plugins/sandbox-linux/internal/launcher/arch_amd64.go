//go:build linux && amd64

package launcher

const (
	auditArch = 0xc000003e // AUDIT_ARCH_X86_64
	// x32Bit marks x32 system call numbers, which reach the same kernel
	// code under different numbers and so must not slip past the filter.
	x32Bit = 0x40000000
)
