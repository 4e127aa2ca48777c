//go:build linux && amd64

package launcher

import "golang.org/x/sys/unix"

const (
	auditArch = 0xc000003e // AUDIT_ARCH_X86_64
	// x32Bit marks x32 system call numbers, which reach the same kernel
	// code under different numbers and so must not slip past the filter.
	x32Bit = 0x40000000
)

// legacyPathCalls are the path system calls x86-64 keeps beside the *at
// forms; arm64 has only the *at forms.
var legacyPathCalls = []pathCall{
	{nr: unix.SYS_OPEN, name: "open", op: "open", refs: []pathRef{{dirfd: -1, path: 0}}, flags: 1},
	{nr: unix.SYS_CREAT, name: "creat", op: "create", refs: []pathRef{{dirfd: -1, path: 0, creates: true}}, flags: -1},
	{nr: unix.SYS_MKDIR, name: "mkdir", op: "mkdir", refs: []pathRef{{dirfd: -1, path: 0, creates: true}}, flags: -1},
	{nr: unix.SYS_MKNOD, name: "mknod", op: "create", refs: []pathRef{{dirfd: -1, path: 0, creates: true}}, flags: -1},
	{nr: unix.SYS_SYMLINK, name: "symlink", op: "symlink", refs: []pathRef{{dirfd: -1, path: 1, creates: true}}, flags: -1},
	{nr: unix.SYS_LINK, name: "link", op: "link", refs: []pathRef{{dirfd: -1, path: 1, creates: true}}, flags: -1},
	{nr: unix.SYS_RENAME, name: "rename", op: "rename", refs: []pathRef{{dirfd: -1, path: 0}, {dirfd: -1, path: 1, creates: true}}, flags: -1},
	{nr: unix.SYS_UNLINK, name: "unlink", op: "delete", refs: []pathRef{{dirfd: -1, path: 0}}, flags: -1},
	{nr: unix.SYS_RMDIR, name: "rmdir", op: "delete", refs: []pathRef{{dirfd: -1, path: 0}}, flags: -1},
	{nr: unix.SYS_CHMOD, name: "chmod", op: "chmod", refs: []pathRef{{dirfd: -1, path: 0}}, flags: -1},
}
