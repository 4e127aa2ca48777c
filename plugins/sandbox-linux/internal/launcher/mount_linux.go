package launcher

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Paths inside the launcher's scratch root while the new root is built.
const (
	newRoot = "/newroot"
	oldRoot = "/oldroot"
)

// buildRoot builds the sandbox's file system view and pivots into it. It
// runs in the init stage, which holds every capability of its own user
// namespace and nothing outside it.
func buildRoot(cfg *Config) error {
	ttyPath := ""
	if cfg.TTY {
		if p, err := os.Readlink("/proc/self/fd/0"); err == nil && strings.HasPrefix(p, "/dev/pts/") {
			ttyPath = p
		}
	}
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	// A scratch tmpfs becomes the root for a moment, so the host's tree can
	// be reached under /oldroot while the new one is assembled under
	// /newroot (the technique bubblewrap uses).
	base, err := scratchBase()
	if err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", base, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mount scratch tmpfs: %w", err)
	}
	for _, d := range []string{"newroot", "oldroot"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount(base+"/newroot", base+"/newroot", "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind new root: %w", err)
	}
	if err := unix.PivotRoot(base, base+"/oldroot"); err != nil {
		return fmt.Errorf("pivot to scratch root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Mount(oldRoot, newRoot, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind host root: %w", err)
	}
	if err := setAttrRecursive(newRoot, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID); err != nil {
		return fmt.Errorf("make host root read-only: %w", err)
	}
	if err := mountPrivateAreas(ttyPath); err != nil {
		return err
	}
	for _, r := range cfg.WritableRoots {
		if err := bindWritable(r); err != nil {
			return fmt.Errorf("writable root %s: %w", r, err)
		}
	}
	for _, p := range cfg.Protected {
		if err := protect(p); err != nil {
			return fmt.Errorf("protect %s: %w", p, err)
		}
	}
	for _, d := range cfg.DenyRead {
		if err := hide(d); err != nil {
			return fmt.Errorf("hide %s: %w", d, err)
		}
	}
	// pivot_root(".", ".") stacks the old root on top of the new one, and
	// the lazy unmount then drops it and everything under it.
	if err := os.Chdir(newRoot); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot to sandbox root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach host root: %w", err)
	}
	return os.Chdir("/")
}

func scratchBase() (string, error) {
	for _, d := range []string{"/tmp", "/run", "/mnt", "/var/tmp"} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d, nil
		}
	}
	return "", errors.New("no directory to build the sandbox root in (/tmp, /run, /mnt)")
}

// mountPrivateAreas gives the sandbox its own /tmp, /dev and /proc.
func mountPrivateAreas(ttyPath string) error {
	if isDir(newRoot + "/tmp") {
		if err := unix.Mount("tmpfs", newRoot+"/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("private /tmp: %w", err)
		}
	}
	if err := mountDev(ttyPath); err != nil {
		return fmt.Errorf("private /dev: %w", err)
	}
	if err := unix.Mount("proc", newRoot+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("private /proc: %w", err)
	}
	return nil
}

func mountDev(ttyPath string) error {
	dev := newRoot + "/dev"
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return err
	}
	for _, n := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if err := bindFile(oldRoot+"/dev/"+n, dev+"/"+n); err != nil {
			return fmt.Errorf("/dev/%s: %w", n, err)
		}
	}
	links := [][2]string{{"/proc/self/fd", "fd"}, {"/proc/self/fd/0", "stdin"}, {"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"}}
	for _, l := range links {
		if err := os.Symlink(l[0], dev+"/"+l[1]); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/shm", 0o1777); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	if err := os.Mkdir(dev+"/pts", 0o755); err != nil {
		return err
	}
	if ttyPath != "" {
		// Only the command's own terminal is visible, at its usual path, so
		// ttyname works and no other terminal of the user can be read.
		if err := unix.Mount("tmpfs", dev+"/pts", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=4k"); err != nil {
			return err
		}
		return bindFile(oldRoot+ttyPath, newRoot+ttyPath)
	}
	// Without a terminal the sandbox gets its own pseudo-terminal instance,
	// so script, tmux and expect work inside.
	if err := unix.Mount("devpts", dev+"/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return err
	}
	return os.Symlink("pts/ptmx", dev+"/ptmx")
}

func bindFile(src, dst string) error {
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	f.Close()
	return unix.Mount(src, dst, "", unix.MS_BIND, "")
}

func bindWritable(r string) error {
	dst := newRoot + r
	if err := ensureMountpoint(dst, true); err != nil {
		return err
	}
	if err := unix.Mount(oldRoot+r, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	return setAttrRecursive(dst, unix.MOUNT_ATTR_NOSUID)
}

// ensureMountpoint creates a missing mount point, which is only possible
// inside the sandbox's own tmpfs areas (a writable root under /tmp).
func ensureMountpoint(p string, dir bool) error {
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	if dir {
		return os.MkdirAll(p, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	return f.Close()
}

func protect(p string) error {
	dst := newRoot + p
	fi, err := os.Lstat(dst)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return nil // gone since Prepare, or a link whose target is protected on its own
	}
	if err := unix.Mount(dst, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	return setAttrRecursive(dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID)
}

// hide makes a path unreadable: an empty, read-only, mode-0 tmpfs over a
// directory, or an empty mode-0 file over anything else.
func hide(p string) error {
	dst := newRoot + p
	fi, err := os.Lstat(dst)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return nil
	}
	if fi.IsDir() {
		return unix.Mount("tmpfs", dst, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=000,size=4k")
	}
	const empty = "/denied"
	if _, err := os.Lstat(empty); err != nil {
		f, err := os.OpenFile(empty, os.O_CREATE|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		f.Close()
	}
	if err := unix.Mount(empty, dst, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	return setAttrRecursive(dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC|unix.MOUNT_ATTR_NODEV)
}

// setAttrRecursive sets mount attributes on a mount and all mounts below it.
func setAttrRecursive(p string, set uint64) error {
	attr := &unix.MountAttr{Attr_set: set}
	err := unix.MountSetattr(-1, p, unix.AT_RECURSIVE|unix.AT_SYMLINK_NOFOLLOW, attr)
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	return remountEach(p, set)
}

// remountEach is the fallback for kernels before 5.12: remount every mount
// under p, keeping the flags the kernel locks in a user namespace.
func remountEach(p string, set uint64) error {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMount(f[4])
		if mp != p && !strings.HasPrefix(mp, p+"/") {
			continue
		}
		var st unix.Statfs_t
		if err := unix.Statfs(mp, &st); err != nil {
			continue
		}
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT)
		keep := map[int64]uintptr{unix.ST_RDONLY: unix.MS_RDONLY, unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV,
			unix.ST_NOEXEC: unix.MS_NOEXEC, unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME}
		for st0, ms := range keep {
			if st.Flags&st0 != 0 {
				flags |= ms
			}
		}
		if set&unix.MOUNT_ATTR_RDONLY != 0 {
			flags |= unix.MS_RDONLY
		}
		if set&unix.MOUNT_ATTR_NOSUID != 0 {
			flags |= unix.MS_NOSUID
		}
		if set&unix.MOUNT_ATTR_NOEXEC != 0 {
			flags |= unix.MS_NOEXEC
		}
		if set&unix.MOUNT_ATTR_NODEV != 0 {
			flags |= unix.MS_NODEV
		}
		if err := unix.Mount("none", mp, "", flags, ""); err != nil && !errors.Is(err, unix.EACCES) {
			return fmt.Errorf("remount %s: %w", mp, err)
		}
	}
	return nil
}

func unescapeMount(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
