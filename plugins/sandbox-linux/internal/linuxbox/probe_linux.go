package linuxbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/plugins/sandbox-linux/internal/launcher"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

func readSysctl(name string) string {
	b, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(name, ".", "/"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func probeMachine(ctx context.Context) *sandbox.ProbeResult {
	res := &sandbox.ProbeResult{}
	abi := launcher.LandlockABI()
	res.Features = append(res.Features, sandbox.Feature{Name: "landlock", Available: abi > 0, Detail: fmt.Sprintf("ABI %d", abi)})
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	res.Features = append(res.Features, sandbox.Feature{Name: "seccomp", Available: err == nil, Detail: "seccomp-bpf filters"})

	userns := sandbox.Feature{Name: "user_namespaces"}
	self, err := os.Executable()
	if err == nil {
		cmd := exec.CommandContext(ctx, self, launcher.InitArg, launcher.ProbeArg)
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Cloneflags:  unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWIPC,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
		}
		out, runErr := cmd.CombinedOutput()
		userns.Available = runErr == nil
		userns.Detail = "user, mount, PID, network and IPC namespaces with mounts inside"
		if runErr != nil {
			userns.Detail = fmt.Sprintf("refused: %v %s", runErr, strings.TrimSpace(string(out)))
		}
	}
	if v := readSysctl("user.max_user_namespaces"); v != "" {
		userns.Detail += "; user.max_user_namespaces=" + v
	}
	res.Features = append(res.Features, userns)

	switch {
	case userns.Available:
		res.Usable, res.Mode = true, "namespaces"
		if abi == 0 {
			res.Lost = append(res.Lost, "no Landlock second layer")
		}
	case abi > 0:
		res.Usable, res.Mode = true, "landlock-only"
		res.Lost = launcher.LostWithoutNamespaces
		res.Remedy = usernsRemedy()
	default:
		res.Mode = "none"
		res.Remedy = usernsRemedy()
	}
	return res
}

func usernsRemedy() string {
	if readSysctl("kernel.apparmor_restrict_unprivileged_userns") == "1" {
		return "AppArmor restricts user namespaces (Ubuntu 23.10+): install the profile from 'airlock doctor --apparmor' into /etc/apparmor.d/airlock and run 'sudo apparmor_parser -r /etc/apparmor.d/airlock'"
	}
	if readSysctl("user.max_user_namespaces") == "0" {
		return "user namespaces are disabled: run 'sudo sysctl -w user.max_user_namespaces=15000' (and persist it in /etc/sysctl.d/)"
	}
	if readSysctl("kernel.unprivileged_userns_clone") == "0" {
		return "unprivileged user namespaces are disabled: run 'sudo sysctl -w kernel.unprivileged_userns_clone=1'"
	}
	return "enable unprivileged user namespaces for this user (in a container, run it with a seccomp profile that allows unshare/clone of user namespaces)"
}
