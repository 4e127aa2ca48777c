package launcher

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The supervisor explains what the sandbox blocks, as it happens. The
// command's thread of the init stage carries a second seccomp filter that
// hands selected system calls to a seccomp user-notification listener in
// the init stage:
//
//   - calls that write, create or delete by path; the supervisor works out
//     whether the kernel will refuse them (a read-only mount) and records a
//     structured denial, then lets the kernel run the call unchanged;
//   - calls that would create a protected name (.git, .airlock, …) directly
//     in a writable root where it does not exist yet; those it refuses,
//     because no mount can cover a name that does not exist;
//   - connect and sendto with an address while the network is off, to
//     record host and port (the network namespace refuses them);
//   - the walls' own system calls (mount, unshare, setns, …), refused.
//
// Except for the protected names, enforcement stays in the kernel: the
// supervisor only ever lets a call continue to meet the mounts, Landlock and
// the network namespace, so a race against it changes a report, never the
// outcome. The protected-name check reads the path from the command's memory
// and can be raced by a command that rewrites it meanwhile; the outer stage
// therefore also moves aside any protected name that appeared during the
// run (see quarantine).

// pathRef names one path argument of a system call: the argument holding
// the directory descriptor it is relative to (-1: the working directory),
// the argument holding the path, and whether the call creates that entry.
type pathRef struct {
	dirfd, path int
	creates     bool
}

// pathCall describes a system call the supervisor inspects.
type pathCall struct {
	nr   uintptr
	name string
	// op is the operation as reported: open, create, mkdir, …
	op   string
	refs []pathRef
	// flags is the argument holding open(2) flags, -1 when the call is
	// not an open, and flagsInHow when it is openat2's struct open_how.
	flags int
}

const flagsInHow = -2

// openWriteFlags are the open flags that make an open a write.
const openWriteFlags = unix.O_WRONLY | unix.O_RDWR | unix.O_CREAT | unix.O_TRUNC

var pathCalls = append(append([]pathCall{}, legacyPathCalls...),
	pathCall{nr: unix.SYS_OPENAT, name: "openat", op: "open", refs: []pathRef{{dirfd: 0, path: 1}}, flags: 2},
	pathCall{nr: unix.SYS_OPENAT2, name: "openat2", op: "open", refs: []pathRef{{dirfd: 0, path: 1}}, flags: flagsInHow},
	pathCall{nr: unix.SYS_MKDIRAT, name: "mkdirat", op: "mkdir", refs: []pathRef{{dirfd: 0, path: 1, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_MKNODAT, name: "mknodat", op: "create", refs: []pathRef{{dirfd: 0, path: 1, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_SYMLINKAT, name: "symlinkat", op: "symlink", refs: []pathRef{{dirfd: 1, path: 2, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_LINKAT, name: "linkat", op: "link", refs: []pathRef{{dirfd: 2, path: 3, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_RENAMEAT, name: "renameat", op: "rename", refs: []pathRef{{dirfd: 0, path: 1}, {dirfd: 2, path: 3, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_RENAMEAT2, name: "renameat2", op: "rename", refs: []pathRef{{dirfd: 0, path: 1}, {dirfd: 2, path: 3, creates: true}}, flags: -1},
	pathCall{nr: unix.SYS_UNLINKAT, name: "unlinkat", op: "delete", refs: []pathRef{{dirfd: 0, path: 1}}, flags: -1},
	pathCall{nr: unix.SYS_FCHMODAT, name: "fchmodat", op: "chmod", refs: []pathRef{{dirfd: 0, path: 1}}, flags: -1},
	pathCall{nr: unix.SYS_FCHMODAT2, name: "fchmodat2", op: "chmod", refs: []pathRef{{dirfd: 0, path: 1}}, flags: -1},
	pathCall{nr: unix.SYS_TRUNCATE, name: "truncate", op: "write", refs: []pathRef{{dirfd: -1, path: 0}}, flags: -1},
)

// reportedSyscalls are refused with EPERM and, with a listener, reported:
// a command reaching for them is trying to take the walls down, which a
// user wants to hear about. (The quietly refused ones are deniedSyscalls.)
var reportedSyscalls = map[uintptr]string{
	unix.SYS_MOUNT: "mount", unix.SYS_UMOUNT2: "umount2", unix.SYS_PIVOT_ROOT: "pivot_root",
	unix.SYS_CHROOT: "chroot", unix.SYS_OPEN_TREE: "open_tree", unix.SYS_MOVE_MOUNT: "move_mount",
	unix.SYS_FSOPEN: "fsopen", unix.SYS_FSCONFIG: "fsconfig", unix.SYS_FSMOUNT: "fsmount",
	unix.SYS_FSPICK: "fspick", unix.SYS_MOUNT_SETATTR: "mount_setattr",
	unix.SYS_UNSHARE: "unshare", unix.SYS_SETNS: "setns",
	unix.SYS_OPEN_BY_HANDLE_AT: "open_by_handle_at",
	unix.SYS_KEXEC_LOAD:        "kexec_load", unix.SYS_KEXEC_FILE_LOAD: "kexec_file_load",
	unix.SYS_INIT_MODULE: "init_module", unix.SYS_FINIT_MODULE: "finit_module",
	unix.SYS_DELETE_MODULE: "delete_module", unix.SYS_SWAPON: "swapon", unix.SYS_SWAPOFF: "swapoff",
	unix.SYS_ACCT: "acct", unix.SYS_REBOOT: "reboot",
}

// notifyOptions select what the command thread's filter hands over.
type notifyOptions struct {
	// listen hands calls to a listener; without it the reported system
	// calls are simply refused.
	listen bool
	// networkOff also hands over connect and sendto with an address.
	networkOff bool
}

// buildNotifyFilter assembles the command thread's filter. Calls of other
// architectures are left to the main filter, which refuses them.
func buildNotifyFilter(o notifyOptions) ([]bpf.RawInstruction, error) {
	deny := "eperm"
	if o.listen {
		deny = "notify"
	}
	a := &asm{}
	a.ld(offArch)
	a.jeq(auditArch, "", "allow")
	a.ld(offNr)
	// In order, so the filter is the same program on every run.
	for _, nr := range slices.Sorted(maps.Keys(reportedSyscalls)) {
		a.jeq(uint32(nr), deny, "")
	}
	if o.listen {
		for _, c := range pathCalls {
			switch c.flags {
			case -1, flagsInHow:
				a.jeq(uint32(c.nr), "notify", "")
			default:
				a.jeq(uint32(c.nr), "flags"+strconv.Itoa(c.flags), "")
			}
		}
		// Binding a unix socket creates a file; with the network off no
		// unix socket can be made at all.
		a.jeq(unix.SYS_BIND, "notify", "")
		if o.networkOff {
			a.jeq(unix.SYS_CONNECT, "notify", "")
			a.jeq(unix.SYS_SENDTO, "sendto", "")
		}
	}
	a.label("allow")
	a.ret(seccompRetAllow)
	if o.listen {
		for _, arg := range []int{1, 2} {
			a.label("flags" + strconv.Itoa(arg))
			a.ld(offArg(arg))
			a.jset(openWriteFlags, "notify", "pass")
		}
		if o.networkOff {
			// sendto on a connected socket passes no address; only one
			// naming a destination is of interest.
			a.label("sendto")
			a.ld(offArg(4))
			a.jset(0xffffffff, "notify", "")
			a.ld(offArg(4) + 4)
			a.jset(0xffffffff, "notify", "pass")
		}
		// Jumps only go forward, so the checks above need their own way
		// out.
		a.label("pass")
		a.ret(seccompRetAllow)
		a.label("notify")
		a.ret(unix.SECCOMP_RET_USER_NOTIF)
	}
	a.label("eperm")
	a.ret(seccompRetErrno | uint32(unix.EPERM))
	return a.assemble()
}

// installNotifyFilter applies the command thread's filter to the calling
// thread only; the init stage's other threads, which run the supervisor,
// stay free of it. It returns the listener, or -1 when the kernel offers
// none (before 5.0, or inside another sandbox that already listens).
func installNotifyFilter(o notifyOptions) (int, error) {
	// The supervisor lets calls continue (SECCOMP_USER_NOTIF_FLAG_CONTINUE),
	// which Linux 5.5 added; before it a listener could only emulate.
	o.listen = o.listen && kernelAtLeast(5, 5)
	for {
		prog, err := buildNotifyFilter(o)
		if err != nil {
			return -1, err
		}
		var flags uintptr
		if o.listen {
			flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER
		}
		fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: (*unix.SockFilter)(unsafe.Pointer(&prog[0]))}
		r, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, seccompSetModeFilter, flags, uintptr(unsafe.Pointer(&fprog)))
		if e == 0 {
			if !o.listen {
				return -1, nil
			}
			return int(r), nil
		}
		if o.listen && (e == unix.EBUSY || e == unix.EINVAL) {
			o.listen = false
			continue
		}
		return -1, fmt.Errorf("install command filter: %w", e)
	}
}

// Layouts of struct seccomp_notif and struct seccomp_notif_resp.
type seccompData struct {
	Nr   int32
	Arch uint32
	IP   uint64
	Args [6]uint64
}

type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Data  seccompData
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// maxReported bounds the denials one run reports; a build that hammers a
// read-only path would otherwise flood the report.
const maxReported = 48

type fileID struct{ dev, ino uint64 }

func idOf(p string) (fileID, bool) {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// supervisor answers the listener's notifications.
type supervisor struct {
	fd    int
	rep   *reporter
	names map[string]bool
	roots map[fileID]bool
	seen  map[string]bool
	count int
	calls map[uintptr]*pathCall
	// strict refuses a creating call whose path cannot be read: in the
	// namespace mode, where protected names are promised, the check must
	// not fail open. (The init stage holds CAP_SYS_PTRACE in its user
	// namespace for the reads, so this is a safety net.)
	strict bool
}

func newSupervisor(fd int, cfg *Config, rep *reporter, strict bool) *supervisor {
	s := &supervisor{fd: fd, rep: rep, names: map[string]bool{}, roots: map[fileID]bool{},
		seen: map[string]bool{}, calls: map[uintptr]*pathCall{}, strict: strict}
	for _, n := range cfg.ProtectedNames {
		s.names[n] = true
	}
	for _, r := range cfg.WritableRoots {
		if id, ok := idOf(r); ok {
			s.roots[id] = true
		}
	}
	for i := range pathCalls {
		s.calls[pathCalls[i].nr] = &pathCalls[i]
	}
	return s
}

// run answers notifications until the listener fails, which happens only
// when the init stage is going away. Closing the listener makes every
// pending and later notified call fail with ENOSYS, so a dead supervisor
// fails closed.
func (s *supervisor) run() {
	// Each notification is two wake-ups, the supervisor's and then the
	// caller's. Across CPUs they cost about 150 µs a call on a small VM,
	// which turned a build's file creations into seconds; woken on the
	// caller's CPU (Linux 6.6 and later) the round trip is a few µs. An
	// older kernel refuses the flag and keeps the slow path.
	_, _, _ = unix.Syscall(unix.SYS_IOCTL, uintptr(s.fd), unix.SECCOMP_IOCTL_NOTIF_SET_FLAGS, unix.SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)
	for {
		var n seccompNotif
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(s.fd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n)))
		if e == unix.EINTR || e == unix.ENOENT {
			continue // interrupted, or the caller died before we looked
		}
		if e != 0 {
			return
		}
		resp := s.answer(&n)
		_, _, e = unix.Syscall(unix.SYS_IOCTL, uintptr(s.fd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
		if e != 0 && e != unix.ENOENT {
			// ENOENT means the caller died or was interrupted meanwhile.
			// Anything else would leave callers waiting for an answer
			// that never comes: closing the listener fails them, and
			// every later notified call, with ENOSYS instead.
			unix.Close(s.fd)
			return
		}
	}
}

// kernelAtLeast reports whether the running kernel is major.minor or
// later.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var maj, mnr int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &maj, &mnr); err != nil {
		return false
	}
	return maj > major || maj == major && mnr >= minor
}

func (s *supervisor) answer(n *seccompNotif) seccompNotifResp {
	nr := uintptr(n.Data.Nr)
	if name, ok := reportedSyscalls[nr]; ok {
		s.report(ReportEvent{Event: "denied", Kind: "syscall", Syscall: name})
		return seccompNotifResp{ID: n.ID, Error: -int32(unix.EPERM)}
	}
	cont := seccompNotifResp{ID: n.ID, Flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
	switch nr {
	case unix.SYS_CONNECT:
		s.network(n, n.Data.Args[1], n.Data.Args[2], "connect")
		return cont
	case unix.SYS_SENDTO:
		s.network(n, n.Data.Args[4], n.Data.Args[5], "send")
		return cont
	case unix.SYS_BIND:
		if errno := s.bindUnix(n); errno != 0 {
			return seccompNotifResp{ID: n.ID, Error: -int32(errno)}
		}
		return cont
	}
	c := s.calls[nr]
	if c == nil {
		return cont
	}
	if errno := s.path(n, c); errno != 0 {
		return seccompNotifResp{ID: n.ID, Error: -int32(errno)}
	}
	return cont
}

// path inspects a path call and returns the errno to refuse it with, or 0
// to let the kernel decide.
func (s *supervisor) path(n *seccompNotif, c *pathCall) unix.Errno {
	pid := int(n.Pid)
	var openFlags uint64
	switch c.flags {
	case -1:
	case flagsInHow:
		b, err := readMem(pid, n.Data.Args[2], 8)
		if err != nil {
			return 0
		}
		openFlags = binary.LittleEndian.Uint64(b)
	default:
		openFlags = n.Data.Args[c.flags]
	}
	if c.flags != -1 && openFlags&openWriteFlags == 0 {
		return 0
	}
	for _, ref := range c.refs {
		p, err := readPath(pid, n.Data.Args[ref.path])
		if errors.Is(err, unix.EPERM) && s.strict && (ref.creates || openFlags&unix.O_CREAT != 0) && s.valid(n.ID) {
			s.report(ReportEvent{Event: "denied", Kind: "write", Op: "create", Syscall: c.name,
				Detail: "the sandbox could not inspect the path, so it refused to create it"})
			return unix.EACCES
		}
		if err != nil || p == "" {
			continue // the kernel will fail the call itself
		}
		dirfd := int32(unix.AT_FDCWD)
		if ref.dirfd >= 0 {
			dirfd = int32(n.Data.Args[ref.dirfd])
		}
		raw := p
		// Most calls name a path that is neither protected nor relative;
		// they cost a read of the path and a statfs, nothing more.
		protected := s.names[lastName(p)]
		if !filepath.IsAbs(p) || protected {
			base, err := baseDir(pid, dirfd, p)
			// The /proc lookups are only about the caller if the caller
			// is still the one that made the call.
			if err != nil || !s.valid(n.ID) {
				continue
			}
			if !filepath.IsAbs(p) {
				raw = base + "/" + p
			}
		}
		if protected {
			creates := ref.creates
			if !creates && c.flags != -1 && openFlags&unix.O_CREAT != 0 {
				var st unix.Stat_t
				creates = unix.Lstat(raw, &st) != nil
			}
			if creates && s.protectedName(raw) {
				s.report(ReportEvent{Event: "denied", Kind: "write", Path: filepath.Clean(raw), Op: "create", Syscall: c.name,
					Detail: "a protected name cannot be created in a writable root"})
				return unix.EACCES
			}
		}
		// An open of a missing file is looked up through its directory by
		// onReadOnlyMount itself.
		if onReadOnlyMount(raw, ref.creates || c.op == "delete" || c.op == "rename") {
			s.report(ReportEvent{Event: "denied", Kind: "write", Path: filepath.Clean(raw), Op: c.op, Syscall: c.name,
				Detail: "read-only in the sandbox"})
		}
	}
	return 0
}

// lastName is the final component of a path, trailing slashes ignored.
func lastName(p string) string {
	p = strings.TrimRight(p, "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}

// protectedName reports whether raw names a protected name directly in a
// writable root. The parent is looked up as the kernel will look it up,
// symbolic links and ".." included, and compared by identity. A parent
// reached through a magic link (/proc/self/cwd, /dev/fd/3, a symbolic link
// to either) resolves differently for the supervisor than for the command,
// so a protected name there is refused outright.
func (s *supervisor) protectedName(raw string) bool {
	trimmed := strings.TrimRight(raw, "/")
	i := strings.LastIndexByte(trimmed, '/')
	if i < 0 || !s.names[trimmed[i+1:]] {
		return false
	}
	parent := trimmed[:i]
	if parent == "" {
		parent = "/"
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, parent, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOSYS) {
		id, ok := idOf(parent) // before Linux 5.6
		return ok && s.roots[id]
	}
	if err != nil {
		// A missing parent fails the call in the kernel too; a magic link
		// (ELOOP) cannot be followed as the command would.
		return errors.Is(err, unix.ELOOP)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return true
	}
	return s.roots[fileID{uint64(st.Dev), st.Ino}]
}

// onReadOnlyMount reports whether a write at raw meets a read-only mount:
// the entry's own mount, or its directory's when the call adds or removes
// an entry. A missing directory is looked up through its nearest existing
// ancestor.
func onReadOnlyMount(raw string, entry bool) bool {
	target := raw
	if entry {
		target = filepath.Dir(strings.TrimRight(raw, "/"))
	}
	for {
		var st unix.Statfs_t
		err := unix.Statfs(target, &st)
		if err == nil {
			return st.Flags&unix.ST_RDONLY != 0
		}
		if !errors.Is(err, unix.ENOENT) || target == "/" || target == "." {
			return false
		}
		target = filepath.Dir(target)
	}
}

// bindUnix refuses a unix socket bound at a protected name: binding
// creates the file.
func (s *supervisor) bindUnix(n *seccompNotif) unix.Errno {
	size := min(n.Data.Args[2], 110)
	if n.Data.Args[1] == 0 || size < 3 {
		return 0
	}
	b, err := readMem(int(n.Pid), n.Data.Args[1], int(size))
	if err != nil || binary.LittleEndian.Uint16(b[0:2]) != unix.AF_UNIX || b[2] == 0 {
		return 0 // not a unix socket, or an abstract one
	}
	p := string(b[2:])
	if i := strings.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	raw := p
	if !filepath.IsAbs(p) {
		base, err := baseDir(int(n.Pid), unix.AT_FDCWD, p)
		if err != nil {
			return 0
		}
		raw = base + "/" + p
	}
	if s.valid(n.ID) && s.protectedName(raw) {
		s.report(ReportEvent{Event: "denied", Kind: "write", Path: filepath.Clean(raw), Op: "create", Syscall: "bind",
			Detail: "a protected name cannot be created in a writable root"})
		return unix.EACCES
	}
	return 0
}

// network records a connection attempt to anything but loopback; the
// network namespace refuses it.
func (s *supervisor) network(n *seccompNotif, addr, size uint64, op string) {
	if addr == 0 || size < 4 {
		return
	}
	b, err := readMem(int(n.Pid), addr, int(min(size, 28)))
	if err != nil {
		return
	}
	ap, ok := sockaddrAddrPort(b)
	if !ok || ap.Addr().IsLoopback() || ap.Addr().IsUnspecified() {
		return
	}
	s.report(ReportEvent{Event: "denied", Kind: "network", Host: ap.Addr().String(), Port: int(ap.Port()), Op: op,
		Detail: "the network is off in the sandbox"})
}

// sockaddrAddrPort decodes an IPv4 or IPv6 socket address.
func sockaddrAddrPort(b []byte) (netip.AddrPort, bool) {
	if len(b) < 4 {
		return netip.AddrPort{}, false
	}
	port := binary.BigEndian.Uint16(b[2:4])
	switch binary.LittleEndian.Uint16(b[0:2]) {
	case unix.AF_INET:
		if len(b) < 8 {
			return netip.AddrPort{}, false
		}
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte(b[4:8])), port), true
	case unix.AF_INET6:
		if len(b) < 24 {
			return netip.AddrPort{}, false
		}
		return netip.AddrPortFrom(netip.AddrFrom16([16]byte(b[8:24])).Unmap(), port), true
	}
	return netip.AddrPort{}, false
}

func (s *supervisor) valid(id uint64) bool {
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(s.fd), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id)))
	return e == 0
}

func (s *supervisor) report(ev ReportEvent) {
	key := ev.Kind + "\x00" + ev.Path + "\x00" + ev.Host + ":" + strconv.Itoa(ev.Port) + "\x00" + ev.Syscall
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.count++
	switch {
	case s.count < maxReported:
		// Short lines keep the whole report within a pipe's buffer,
		// should the reader fall behind.
		if len(ev.Path) > 512 {
			ev.Path = ev.Path[:512]
		}
		s.rep.emit(ev)
	case s.count == maxReported:
		s.rep.emit(ReportEvent{Event: "note", Detail: "more denials happened than are reported"})
	}
}

// baseDir is the directory a path of the caller's is relative to.
func baseDir(pid int, dirfd int32, p string) (string, error) {
	if filepath.IsAbs(p) {
		return "", nil
	}
	link := "/proc/" + strconv.Itoa(pid) + "/cwd"
	if dirfd != unix.AT_FDCWD {
		link = "/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(int(dirfd))
	}
	return os.Readlink(link)
}

// readMem reads n bytes of the caller's memory.
func readMem(pid int, addr uint64, n int) ([]byte, error) {
	buf := make([]byte, n)
	return buf, readInto(pid, addr, buf)
}

func readInto(pid int, addr uint64, buf []byte) error {
	got, err := unix.ProcessVMReadv(pid, []unix.Iovec{{Base: &buf[0], Len: uint64(len(buf))}},
		[]unix.RemoteIovec{{Base: uintptr(addr), Len: len(buf)}}, 0)
	if err != nil {
		return err
	}
	if got != len(buf) {
		return unix.EFAULT
	}
	return nil
}

// pathBuf is the supervisor's buffer for paths: one goroutine reads them.
var pathBuf [unix.PathMax]byte

// readPath reads a NUL-terminated path of at most PATH_MAX bytes. It reads
// a short piece first, as most paths are short, and never across a page
// boundary in one read, so that a string ending just before unmapped
// memory reads.
func readPath(pid int, addr uint64) (string, error) {
	const page = 4096
	n := 0
	for n < len(pathBuf) {
		chunk := min(page-int(addr%page), 256, len(pathBuf)-n)
		if err := readInto(pid, addr, pathBuf[n:n+chunk]); err != nil {
			return "", err
		}
		if i := indexNUL(pathBuf[n : n+chunk]); i >= 0 {
			return string(pathBuf[:n+i]), nil
		}
		n += chunk
		addr += uint64(chunk)
	}
	return "", unix.ENAMETOOLONG
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}
