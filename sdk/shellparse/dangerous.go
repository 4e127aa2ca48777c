package shellparse

import (
	"path"
	"strings"
)

// dangerous returns why a segment destroys data, changes the system or
// escalates privileges, or "".
func dangerous(s Segment) string {
	for _, r := range s.Redirects {
		if r.Writes() && isDevice(r.Target) {
			return "writes to device " + r.Target
		}
	}
	a := s.Argv
	switch s.Name {
	case "rm":
		return rmDanger(a[1:])
	case "git":
		return gitDanger(a)
	case "dd":
		for _, x := range a[1:] {
			if strings.HasPrefix(x, "of=") {
				return "dd writes " + strings.TrimPrefix(x, "of=")
			}
		}
	case "shred", "wipefs", "fdisk", "sfdisk", "cfdisk", "parted", "mkswap", "blkdiscard":
		return s.Name + " destroys data on a disk or file"
	case "shutdown", "reboot", "halt", "poweroff":
		return s.Name + " stops the machine"
	case "chmod", "chown", "chgrp":
		if hasShort(a[1:], 'R', "--recursive") && anyTarget(a[1:], criticalPath) {
			return s.Name + " -R on " + firstTarget(a[1:], criticalPath)
		}
		if s.Name == "chmod" && anyTarget(a[1:], criticalPath) {
			return "chmod on " + firstTarget(a[1:], criticalPath)
		}
	case "mv":
		for _, x := range a[1:] {
			if x == "/dev/null" || criticalPath(x) {
				return "mv involving " + x
			}
		}
	case "truncate":
		return "truncate discards file contents"
	case "kill", "pkill", "killall":
		for _, x := range a[1:] {
			if x == "-1" && s.Name == "kill" {
				return "kill -1 signals every process"
			}
		}
		if s.Name == "killall" {
			return "killall signals processes by name"
		}
	case "crontab":
		if hasShort(a[1:], 'r', "--remove") {
			return "crontab -r deletes the crontab"
		}
	case "history":
		if hasShort(a[1:], 'c', "") || hasShort(a[1:], 'd', "") {
			return "history wiping"
		}
	case "iptables", "ip6tables", "nft":
		if hasShort(a[1:], 'F', "--flush") || anyOpt(a[1:], "flush") {
			return "flushes the firewall"
		}
	case "ufw":
		if len(a) > 1 && (a[1] == "disable" || a[1] == "reset") {
			return "disables the firewall"
		}
	case "setenforce":
		if len(a) > 1 && a[1] == "0" {
			return "disables SELinux"
		}
	}
	if strings.HasPrefix(s.Name, "mkfs") {
		return s.Name + " formats a file system"
	}
	return ""
}

// rmDanger follows Codex: a forced rm is dangerous; so is a recursive rm
// of a critical path.
func rmDanger(args []string) string {
	force, recursive := false, false
	var targets []string
	opts := true
	for _, x := range args {
		switch {
		case opts && x == "--":
			opts = false
		case opts && x == "--force":
			force = true
		case opts && (x == "--recursive" || x == "-R"):
			recursive = true
		case opts && strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && len(x) > 1:
			force = force || strings.ContainsRune(x, 'f')
			recursive = recursive || strings.ContainsAny(x, "rR")
		default:
			targets = append(targets, x)
		}
	}
	for _, t := range targets {
		if recursive && criticalPath(t) {
			return "recursive delete of " + t
		}
	}
	if force {
		return "forced delete"
	}
	return ""
}

func gitDanger(a []string) string {
	i := 1
	for ; i < len(a); i++ {
		x := a[i]
		if x == "-C" || x == "-c" || x == "--git-dir" || x == "--work-tree" || x == "--namespace" {
			i++
			continue
		}
		if !strings.HasPrefix(x, "-") {
			break
		}
	}
	if i >= len(a) {
		return ""
	}
	sub, args := a[i], a[i+1:]
	switch sub {
	case "reset":
		if anyOpt(args, "--hard", "--merge", "--keep") {
			return "git reset discards uncommitted work"
		}
	case "clean":
		if (hasShort(args, 'f', "--force")) && !hasShort(args, 'n', "--dry-run") {
			return "git clean deletes untracked files"
		}
	case "push":
		if anyOpt(args, "--force", "--mirror", "--delete", "--prune") || hasShort(args, 'f', "") || hasShort(args, 'd', "") {
			return "git push rewrites or deletes remote history"
		}
		for _, x := range args {
			if strings.HasPrefix(x, "+") || strings.HasPrefix(x, ":") {
				return "git push rewrites or deletes remote history"
			}
		}
	case "branch":
		if hasShort(args, 'D', "") || (hasShort(args, 'd', "--delete") && hasShort(args, 'f', "--force")) {
			return "git branch -D deletes an unmerged branch"
		}
	case "checkout":
		if hasShort(args, 'f', "--force") || contains(args, "--") {
			return "git checkout discards uncommitted changes"
		}
	case "switch":
		if hasShort(args, 'f', "--force") || anyOpt(args, "--discard-changes") {
			return "git switch discards uncommitted changes"
		}
	case "restore":
		if !anyOpt(args, "--staged", "-S") || anyOpt(args, "--worktree", "-W") {
			return "git restore discards uncommitted changes"
		}
	case "stash":
		if len(args) > 0 && (args[0] == "drop" || args[0] == "clear") {
			return "git stash " + args[0] + " deletes stashed work"
		}
	case "filter-branch", "filter-repo":
		return "rewrites repository history"
	case "update-ref":
		if hasShort(args, 'd', "") {
			return "git update-ref -d deletes a ref"
		}
	case "worktree":
		if len(args) > 0 && args[0] == "remove" && hasShort(args[1:], 'f', "--force") {
			return "git worktree remove --force discards changes"
		}
	case "reflog":
		if len(args) > 0 && (args[0] == "expire" || args[0] == "delete") {
			return "git reflog " + args[0] + " deletes recovery points"
		}
	case "gc":
		if anyOpt(args, "--prune=now", "--prune=all") {
			return "git gc --prune=now deletes unreachable objects"
		}
	}
	return ""
}

// hasShort reports whether args set the short option c (alone or in a
// cluster) or the long option long.
func hasShort(args []string, c rune, long string) bool {
	for _, x := range args {
		if x == "--" {
			return false
		}
		if long != "" && (x == long || strings.HasPrefix(x, long+"=")) {
			return true
		}
		if len(x) > 1 && x[0] == '-' && x[1] != '-' && strings.ContainsRune(x[1:], c) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// criticalPath reports whether deleting or re-permissioning p recursively
// would destroy far more than a project: the root, home directories,
// system directories, or everything in the current directory.
func criticalPath(p string) bool {
	switch p {
	case "/", "/*", "~", "~/", "~/*", "$HOME", "${HOME}", "$HOME/", "$HOME/*", "*", ".", "./", "..", "../", ".*", "./*":
		return true
	}
	c := path.Clean(p)
	if c == "/" {
		return true
	}
	for _, d := range []string{"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Library", "/Applications"} {
		if c == d || c == d+"/*" {
			return true
		}
	}
	// A home directory itself: /home/NAME, /Users/NAME.
	if parts := strings.Split(strings.Trim(c, "/"), "/"); len(parts) == 2 && (parts[0] == "home" || parts[0] == "Users") {
		return true
	}
	return false
}

func anyTarget(args []string, pred func(string) bool) bool { return firstTarget(args, pred) != "" }

func firstTarget(args []string, pred func(string) bool) string {
	for _, x := range args {
		if !strings.HasPrefix(x, "-") && pred(x) {
			return x
		}
	}
	return ""
}

func isDevice(t string) bool {
	for _, p := range []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/mem", "/dev/kmem", "/dev/port"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
