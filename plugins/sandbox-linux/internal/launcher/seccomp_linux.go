package launcher

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// filterOptions select the optional parts of the seccomp filter.
type filterOptions struct {
	// networkOff denies new AF_UNIX sockets (a path or abstract socket
	// reaches host services even across a network namespace) and datagram
	// socket pairs, whose sendmsg can name a host socket.
	networkOff bool
	// denyInet also denies IP, packet and netlink sockets, for the mode
	// without a network namespace.
	denyInet bool
	// selfOnlyPriority limits setpriority and ioprio_set to the caller
	// itself, for the mode without a PID namespace, where other processes
	// of the user are reachable.
	selfOnlyPriority bool
}

const (
	seccompRetAllow       = 0x7fff0000
	seccompRetErrno       = 0x00050000
	seccompRetKillProcess = 0x80000000
	seccompFilterTSync    = 1
	seccompSetModeFilter  = 1

	offNr   = 0
	offArch = 4
)

func offArg(i int) uint32 { return 16 + 8*uint32(i) } // low 32 bits, little endian

// deniedSyscalls fail with EPERM without a report: kernel keyrings, BPF and
// perf (large kernel attack surface), userfaultfd, io_uring (a path around
// seccomp) and file handles (a classic way out of a bind mount). Ordinary
// programs probe several of these (libuv tries io_uring, Kerberos the
// keyrings), so a refusal says nothing about why a command failed. The
// walls' own system calls are refused on the command's thread by the
// notify filter, which reports them (see reportedSyscalls).
var deniedSyscalls = []uintptr{
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
}

const nsFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// buildFilter assembles the classic-BPF program.
func buildFilter(o filterOptions) ([]bpf.RawInstruction, error) {
	a := &asm{}
	a.ld(offArch)
	a.jeq(auditArch, "", "kill")
	a.ld(offNr)
	if x32Bit != 0 {
		a.jset(x32Bit, "eperm", "")
	}
	for _, nr := range deniedSyscalls {
		a.jeq(uint32(nr), "eperm", "")
	}
	a.jeq(unix.SYS_CLONE3, "enosys", "")
	a.jeq(unix.SYS_CLONE, "clone", "")
	a.jeq(unix.SYS_IOCTL, "ioctl", "")
	if o.networkOff {
		a.jeq(unix.SYS_SOCKET, "socket", "")
		a.jeq(unix.SYS_SOCKETPAIR, "socketpair", "")
	}
	if o.selfOnlyPriority {
		a.jeq(unix.SYS_SETPRIORITY, "self", "")
		a.jeq(unix.SYS_IOPRIO_SET, "self", "")
	}
	a.ret(seccompRetAllow)

	if o.selfOnlyPriority {
		a.label("self")
		a.ld(offArg(1)) // who: 0 means the caller
		a.jeq(0, "", "eperm")
		a.ret(seccompRetAllow)
	}

	a.label("clone")
	a.ld(offArg(0))
	a.jset(nsFlags, "eperm", "")
	a.ret(seccompRetAllow)

	// TIOCSTI pushes input into a terminal and TIOCLINUX can too; neither
	// has a legitimate use inside a sandbox.
	a.label("ioctl")
	a.ld(offArg(1))
	a.jeq(unix.TIOCSTI, "eperm", "")
	a.jeq(unix.TIOCLINUX, "eperm", "")
	a.ret(seccompRetAllow)

	if o.networkOff {
		a.label("socket")
		a.ld(offArg(0))
		a.jeq(unix.AF_UNIX, "eperm", "")
		if o.denyInet {
			for _, fam := range []uint32{unix.AF_INET, unix.AF_INET6, unix.AF_PACKET, unix.AF_NETLINK} {
				a.jeq(fam, "eperm", "")
			}
		}
		a.ret(seccompRetAllow)

		a.label("socketpair")
		a.ld(offArg(1))
		a.and(0xf) // the socket type without SOCK_CLOEXEC / SOCK_NONBLOCK
		a.jeq(unix.SOCK_DGRAM, "eperm", "")
		a.ret(seccompRetAllow)
	}

	a.label("eperm")
	a.ret(seccompRetErrno | uint32(unix.EPERM))
	a.label("enosys")
	a.ret(seccompRetErrno | uint32(unix.ENOSYS))
	a.label("kill")
	a.ret(seccompRetKillProcess)
	return a.assemble()
}

// installSeccomp applies the filter to every thread of this process.
func installSeccomp(o filterOptions) error {
	prog, err := buildFilter(o)
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: (*unix.SockFilter)(unsafe.Pointer(&prog[0]))}
	r, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, seccompSetModeFilter, seccompFilterTSync, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return fmt.Errorf("install filter: %w", e)
	}
	if r != 0 {
		return fmt.Errorf("install filter: thread %d could not be synchronised", r)
	}
	return nil
}

// asm is a tiny classic-BPF assembler with symbolic jump targets; "" means
// fall through to the next instruction.
type asm struct {
	ins    []bpf.Instruction
	jumps  map[int][2]string
	labels map[string]int
}

func (a *asm) ld(off uint32) {
	a.ins = append(a.ins, bpf.LoadAbsolute{Off: off, Size: 4})
}

func (a *asm) and(v uint32) {
	a.ins = append(a.ins, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: v})
}

func (a *asm) ret(v uint32) { a.ins = append(a.ins, bpf.RetConstant{Val: v}) }

func (a *asm) jeq(v uint32, t, f string) { a.jump(bpf.JumpEqual, v, t, f) }

func (a *asm) jset(v uint32, t, f string) { a.jump(bpf.JumpBitsSet, v, t, f) }

func (a *asm) jump(c bpf.JumpTest, v uint32, t, f string) {
	if a.jumps == nil {
		a.jumps = map[int][2]string{}
	}
	a.jumps[len(a.ins)] = [2]string{t, f}
	a.ins = append(a.ins, bpf.JumpIf{Cond: c, Val: v})
}

func (a *asm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.ins)
}

func (a *asm) assemble() ([]bpf.RawInstruction, error) {
	for at, tf := range a.jumps {
		j := a.ins[at].(bpf.JumpIf)
		for i, name := range tf {
			skip := 0
			if name != "" {
				to, ok := a.labels[name]
				if !ok {
					return nil, fmt.Errorf("bpf: undefined label %q", name)
				}
				skip = to - at - 1
				if skip < 0 || skip > 255 {
					return nil, fmt.Errorf("bpf: jump to %q out of range", name)
				}
			}
			if i == 0 {
				j.SkipTrue = uint8(skip)
			} else {
				j.SkipFalse = uint8(skip)
			}
		}
		a.ins[at] = j
	}
	return bpf.Assemble(a.ins)
}
