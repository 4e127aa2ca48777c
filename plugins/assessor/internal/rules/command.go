package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// readOnly commands only read and print, whatever their arguments.
var readOnly = set("ls", "ll", "la", "dir", "cat", "bat", "batcat", "less", "more", "most", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack",
	"wc", "uniq", "cut", "paste", "column", "nl", "tac", "rev", "fold", "fmt", "expand", "unexpand", "join", "comm", "cmp", "diff", "diff3", "colordiff",
	"stat", "file", "du", "df", "tree", "which", "whereis", "type", "whence", "whoami", "id", "groups", "uname", "hostname", "uptime", "ps", "pgrep",
	"top", "htop", "btop", "free", "vmstat", "iostat", "lsof", "ss", "netstat", "echo", "printf", "true", "false", "pwd", "man", "tldr", "help", "info",
	"jq", "yq", "xxd", "od", "hexdump", "strings", "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "md5", "shasum", "locale",
	"lsblk", "lscpu", "lsusb", "lspci", "lsmod", "dmesg", "w", "who", "last", "lastlog", "finger", "arch", "nproc", "getconf", "tty", "basename",
	"dirname", "realpath", "readlink", "seq", "expr", "test", "[", "sleep", "cal", "bc", "dc", "factor", "numfmt", "look", "zcat", "zless", "zgrep",
	"bzcat", "xzcat", "lsattr", "getfacl", "namei", "pstree", "pidof", "nslookup", "dig", "host", "ping", "ping6", "traceroute", "tracepath",
	"mtr", "whois", "ip", "ifconfig", "iwconfig", "route", "arp", "getent", "timedatectl", "hostnamectl", "localectl", "loginctl", "systemd-analyze",
	"env", "printenv", "set", "declare", "typeset", "export", "alias", "history", "jobs", "fc", "cd", "pushd", "popd", "dirs", "exit", "clear", "reset",
	"tput", "stty", "sort", "shuf", "watch", "time", "date", "wget2", "xdg-open", "open", "code", "vim", "vi", "nvim", "nano", "emacs", "view", "pager",
	"glow", "mdcat", "fzf", "ncdu", "exa", "eza", "lsd", "fd", "fdfind", "locate", "mlocate", "whatis", "apropos", "sed", "awk", "gawk", "mawk",
	"tr", "tee", "read", "wait", "base64", "base32", "iconv", "gzip", "gunzip", "zip", "unzip", "tar", "xz", "bzip2", "7z", "cpio", "ar", "nm",
	"objdump", "readelf", "ldd", "gdb", "strace", "ltrace", "valgrind", "hexyl", "csvlook", "xsv", "mlr", "sqlite3", "pandoc", "convert", "ffprobe",
	"identify", "exiftool", "pdfinfo", "pdftotext", "keytool", "openssl", "ssh-keygen", "gpg", "journalctl", "systemctl", "service", "crontab",
	"kill", "sysctl", "mount", "umount", "findmnt", "blkid", "hdparm", "smartctl", "nmcli", "iptables", "ufw", "firewall-cmd", "getenforce", "sestatus",
	"aa-status", "lsns", "nsenter", "chroot", "ulimit", "umask", "true", "yes", "nohup", "cmp", "stdbuf", "command", "hash",
	"getcap", "showmount", "lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "lsof", "fuser", "iotop", "nethogs", "iftop")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// rateCommand rates one segment by its command and arguments.
func rateCommand(s shellparse.Segment, c ctx) finding {
	a := s.Argv
	name := versionless.ReplaceAllString(s.Name, "")
	args := a[1:]
	if strings.HasPrefix(name, "!") && s.Privileged {
		return mk(high, "sudo-last", "Runs a command from history again as root.", priv)
	}
	if s.ArgsFromInput && name == "rm" {
		args = append(slices.Clone(args), "{}")
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--version" || args[0] == "-V" || args[0] == "version" || args[0] == "help") || containsArg(args, "--help") {
		return mk(low, "help", fmt.Sprintf("Shows %s's help or version.", name))
	}
	if f, ok := shellEscape(s, name, args); ok {
		return f
	}
	if name == "busybox" && len(args) > 0 {
		inner := s
		inner.Argv, inner.Name = args, args[0]
		return rateCommand(inner, c)
	}
	if s.ShellFunction {
		return mk(low, "function-call", fmt.Sprintf("Calls the shell function %s, rated by its body.", name))
	}
	if f, ok := rateKnown(s, name, args, c); ok {
		return f
	}
	if readOnly[name] {
		return mk(low, "read-only", fmt.Sprintf("Runs %s, which only reads and prints.", name))
	}
	if strings.HasPrefix(name, "mkfs") {
		return mk(high, "mkfs", "Formats "+firstOperand(args)+", destroying everything on it.", del, sys)
	}
	if strings.Contains(a[0], "/") && !strings.HasPrefix(a[0], "/usr/") && !strings.HasPrefix(a[0], "/bin/") && !strings.HasPrefix(a[0], "/sbin/") {
		return mk(medium, "local-program", fmt.Sprintf("Runs the program %s from the project, whose effect cannot be known in advance.", a[0]))
	}
	if typo(name) {
		return mk(low, "typo", fmt.Sprintf("Runs %s, which is not a command (a typo or wrong case), so nothing happens.", name))
	}
	if verbRead(args) {
		return mk(low, "read-verb", fmt.Sprintf("Runs %s to list or show something.", name))
	}
	return mk(medium, "unknown-program", fmt.Sprintf("Runs %s, a program the rules do not know, so its effect cannot be predicted.", name))
}

var sedInPlace = regexp.MustCompile(`^-[a-zA-Z]*i`)

// versionless strips a version from an interpreter's name (python3.11).
var versionless = regexp.MustCompile(`(\d+(\.\d+)*)$`)

// rateKnown holds the rules for programs with more to them than reading.
func rateKnown(s shellparse.Segment, name string, args []string, c ctx) (finding, bool) {
	joined := strings.Join(args, " ")
	switch name {
	case "rm", "srm", "unlink", "rmdir":
		return rateRm(name, args, c), true
	case "shred", "wipe":
		return mk(high, "shred", "Overwrites "+firstOperand(args)+" so it cannot be recovered.", del), true
	case "wipefs", "fdisk", "sfdisk", "cfdisk", "parted", "gdisk", "sgdisk", "mkswap", "blkdiscard", "dmsetup", "mdadm", "lvremove", "vgremove", "pvremove", "cryptsetup":
		if name == "fdisk" && hasFlag(args, "-l") || name == "parted" && hasFlag(args, "-l", "--list") || name == "dmsetup" && len(args) > 0 && (args[0] == "ls" || args[0] == "info" || args[0] == "status") || name == "mdadm" && hasFlag(args, "--detail", "-D", "--examine", "-E") {
			return mk(low, "disk-read", "Lists disk partitions or devices."), true
		}
		return mk(high, "disk-destroy", "Rewrites disk partitions or signatures, destroying data on "+firstOperand(args)+".", del, sys), true
	case "dd":
		for _, x := range args {
			if t, ok := strings.CutPrefix(x, "of="); ok {
				if strings.HasPrefix(t, "/dev/") && t != "/dev/null" {
					return mk(high, "dd-device", "Writes raw data onto the device "+t+", destroying what is on it.", del, sys), true
				}
				sc := scopeOf(t, c.cwd)
				if sc >= scopeSystem {
					return mk(high, "dd-system", "Overwrites the system file "+t+".", del, sys), true
				}
				if strings.Contains(joined, "/dev/zero") || strings.Contains(joined, "/dev/urandom") {
					return mk(medium, "dd-fill", "Fills "+t+" with generated data.", res), true
				}
				return mk(medium, "dd-file", "Copies raw data into "+t+"."), true
			}
		}
		return mk(low, "dd-read", "Reads raw data to standard output."), true
	case "truncate":
		return mk(high, "truncate", "Shrinks or empties "+firstOperand(args)+", discarding its contents.", del), true
	case "mv":
		return rateMove(args, c), true
	case "cp", "install", "rsync", "ln", "touch", "mkdir", "mktemp", "tee", "patch":
		return rateCopy(name, args, c), true
	case "sed", "perl", "ruby":
		if name == "sed" {
			for _, x := range args {
				if sedInPlace.MatchString(x) || x == "--in-place" {
					return rateEdit("sed -i", operands(args), c), true
				}
			}
			return mk(low, "sed-print", "Filters text with sed and prints the result."), true
		}
		return rateInterpreter(s, name, args, c), true
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		return ratePermissions(name, args, c), true
	case "setcap":
		return mk(high, "setcap", "Grants Linux capabilities to a program, letting it act as root in part.", priv, sys), true
	case "find":
		return rateFind(args, c), true
	case "xargs", "parallel":
		return mk(low, "xargs", "Reads arguments from its input for another command."), true
	case "git":
		return rateGit(args, c), true
	case "curl", "wget", "http", "https", "xh", "aria2c":
		return rateFetch(name, args, c), true
	case "nc", "ncat", "netcat", "socat", "telnet", "cryptcat":
		return rateNetcat(name, args), true
	case "ssh", "mosh":
		return rateSSH(args, c), true
	case "scp", "sftp", "rclone", "gsutil", "s3cmd", "azcopy":
		return rateTransfer(name, args, c), true
	case "sudo", "doas", "su", "pkexec", "run0":
		// Left over only when no command follows: a root shell or a query.
		if hasFlag(args, "-l", "-L", "--list", "-v", "--validate", "-k", "-K") {
			return mk(low, "sudo-query", "Lists or refreshes your sudo rights.", priv), true
		}
		return mk(high, "root-shell", "Opens an interactive root shell.", priv), true
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh":
		if len(operands(args)) == 0 {
			return mk(medium, "shell", "Starts a new interactive shell."), true
		}
		return mk(medium, "script", "Runs the shell script "+firstOperand(args)+", whose effect is not on the line."), true
	case "python", "python2", "python3", "node", "nodejs", "deno", "bun", "php", "lua", "Rscript", "awk", "gawk", "mawk", "busybox", "pwsh", "osascript":
		return rateInterpreter(s, name, args, c), true
	case "eval", "exec", "source", ".":
		if name == "source" || name == "." {
			if ops := operands(args); len(ops) > 0 && (strings.HasPrefix(ops[0], "<(") || strings.HasPrefix(ops[0], "/dev/stdin")) {
				return mk(high, "source-download", "Runs shell code produced at run time in the current shell.", sys), true
			}
			return mk(medium, "source", "Runs "+firstOperand(args)+" in the current shell."), true
		}
		return mk(medium, "eval", "Runs text as shell code."), true
	case "docker", "podman", "nerdctl":
		return rateDocker(args, c), true
	case "docker-compose":
		return rateDocker(append([]string{"compose"}, args...), c), true
	case "kubectl", "oc", "k":
		return rateKubectl(args), true
	case "helm":
		return rateHelm(args), true
	case "terraform", "tofu", "terragrunt", "pulumi", "cdk", "sst":
		return rateTerraform(name, args), true
	case "aws", "gcloud", "az", "doctl", "linode-cli", "hcloud", "flyctl", "fly", "heroku", "vercel", "netlify", "wrangler", "firebase", "eb":
		return rateCloud(name, args), true
	case "gh", "glab", "hub":
		return rateGH(args), true
	case "npm", "yarn", "pnpm", "bun-x", "npx", "pip", "pip3", "pipx", "uv", "poetry", "pdm", "conda", "mamba", "gem", "bundle", "cargo", "go", "composer", "mvn", "gradle", "dotnet", "mix", "rustup", "cabal", "stack", "opam", "nix", "nix-env", "cpan", "cpanm":
		return ratePackage(name, args, c), true
	case "apt", "apt-get", "dpkg", "yum", "dnf", "zypper", "pacman", "apk", "brew", "port", "snap", "flatpak", "rpm", "emerge", "softwareupdate", "mas":
		return rateSystemPackage(name, args), true
	case "make", "cmake", "ninja", "meson", "bazel", "just", "task", "rake", "ant", "scons", "pytest", "tox", "nox", "jest", "vitest", "mocha", "tsc", "eslint", "prettier", "black", "ruff", "mypy", "gofmt", "rustfmt", "clang", "gcc", "g++", "cc", "javac", "java", "kotlinc", "swift", "swiftc", "rustc", "zig", "ldc", "ghc":
		if name == "make" && len(args) > 0 && (args[0] == "uninstall" || args[0] == "install") {
			l := medium
			cats := []assessor.Category{sys}
			if args[0] == "uninstall" {
				cats = append(cats, del)
			}
			return mk(l, "make-install", "Runs the project's make "+args[0]+", changing files outside the project.", cats...), true
		}
		if name == "make" && hasFlag(args, "-n", "--dry-run", "--just-print") {
			return mk(low, "make-dry", "Shows what make would run."), true
		}
		if name == "java" && strings.Contains(joined, "jenkins-cli") {
			return rateJenkins(args), true
		}
		return mk(medium, "build", fmt.Sprintf("Builds or tests the project with %s, running its code.", name)), true
	case "systemctl", "service", "launchctl", "rc-service", "sv":
		return rateService(name, args), true
	case "shutdown", "reboot", "halt", "poweroff", "init", "telinit":
		if name == "init" || name == "telinit" {
			if len(args) > 0 && (args[0] == "0" || args[0] == "6") {
				return mk(high, "power", "Shuts down or restarts the machine.", sys), true
			}
			return mk(medium, "init", "Changes the system run level.", sys), true
		}
		if hasFlag(args, "-c") {
			return mk(low, "shutdown-cancel", "Cancels a scheduled shutdown."), true
		}
		return mk(high, "power", "Shuts down or restarts the machine.", sys), true
	case "kill", "pkill", "killall", "killall5", "skill":
		return rateKill(name, args), true
	case "crontab":
		switch {
		case hasFlag(args, "-r"):
			return mk(high, "crontab-remove", "Deletes all of your cron jobs.", del, sys), true
		case hasFlag(args, "-l"):
			return mk(low, "crontab-list", "Lists your cron jobs."), true
		case hasFlag(args, "-e"):
			return mk(medium, "crontab-edit", "Edits your cron jobs.", sys), true
		}
		return mk(high, "crontab-replace", "Replaces your cron jobs with new ones.", sys), true
	case "at", "batch":
		if hasFlag(args, "-l", "-c") {
			return mk(low, "at-read", "Lists scheduled jobs."), true
		}
		return mk(medium, "at", "Schedules a command to run later.", sys), true
	case "history":
		if hasFlag(args, "-d") {
			return mk(medium, "history-delete", "Deletes entries from the shell history.", comp), true
		}
		if hasFlag(args, "-c", "-w") {
			return mk(high, "history-wipe", "Erases the shell history, hiding what was run.", comp), true
		}
		return mk(low, "history", "Shows the shell history."), true
	case "unset":
		if strings.Contains(joined, "HISTFILE") {
			return mk(high, "history-off", "Turns shell history off, hiding what is run next.", comp), true
		}
		return mk(low, "unset", "Unsets shell variables."), true
	case "export", "set", "declare", "typeset", "alias", "env", "printenv", "echo", "printf":
		return rateShellState(s, name, args), true
	case "cat", "less", "more", "head", "tail", "bat", "nl", "tac", "strings", "od", "hexdump", "base64", "grep", "rg", "vim", "vi", "nano", "view":
		for _, op := range operands(args) {
			if secretPath(op) {
				return mk(medium, "read-secret", "Prints the credentials in "+op+" where the transcript and logs can see them.", exf), true
			}
		}
		if name == "base64" {
			if _, ok := flagValue(args, "-o", "--output"); ok {
				return mk(medium, "write-file", "Writes decoded or encoded data to a file."), true
			}
		}
		if name == "rg" && hasFlag(args, "--pre", "--hostname-bin") {
			return mk(medium, "rg-pre", "Makes ripgrep run another program on every file."), true
		}
		if name == "grep" || name == "rg" {
			if pat := firstOperand(args); secretName(pat) && (hasFlag(args, "-r", "-R", "--recursive") || name == "rg" || containsArg(operands(args), "/")) {
				return mk(medium, "grep-secrets", "Searches files for "+pat+", printing any secrets it finds.", exf), true
			}
		}
		if name == "cat" || name == "tail" {
			for _, op := range operands(args) {
				if op == "/dev/urandom" || op == "/dev/zero" || op == "/dev/random" {
					return mk(medium, "endless-output", "Prints an endless stream of data.", res), true
				}
			}
		}
		return mk(low, "read-only", fmt.Sprintf("Runs %s, which only reads and prints.", name)), true
	case "yes":
		return mk(medium, "endless-output", "Prints the same line forever.", res), true
	case "date", "timedatectl", "hwclock":
		if name == "date" && len(operands(args)) > 0 && reDateDigits.MatchString(operands(args)[0]) {
			return mk(medium, "set-clock", "Sets the system clock.", sys), true
		}
		if hasFlag(args, "-s", "--set") || name != "date" && len(args) > 0 && (args[0] == "set-time" || args[0] == "set-timezone" || strings.HasPrefix(args[0], "--set")) {
			return mk(high, "set-clock", "Changes the system clock, which falsifies log times.", comp, sys), true
		}
		return mk(low, "date", "Shows the date and time."), true
	case "useradd", "adduser", "usermod", "userdel", "deluser", "groupadd", "groupdel", "gpasswd", "passwd", "chpasswd", "visudo", "vipw":
		return rateUsers(name, args), true
	case "setenforce":
		if len(args) > 0 && (args[0] == "0" || strings.EqualFold(args[0], "permissive")) {
			return mk(high, "selinux-off", "Switches SELinux off (permissive), disabling a security control.", sys), true
		}
		return mk(medium, "setenforce", "Changes the SELinux mode.", sys), true
	case "ufw", "iptables", "ip6tables", "nft", "firewall-cmd", "pfctl":
		return rateFirewall(name, args), true
	case "ip", "ifconfig", "route", "ifdown", "ifup", "nmcli":
		return rateNetwork(name, args), true
	case "mount", "umount", "swapoff", "swapon", "sysctl", "tune2fs", "ldconfig":
		return rateSystem(name, args), true
	case "tar", "zip", "unzip", "gzip", "gunzip", "7z", "xz", "bzip2":
		return rateArchive(name, args, c), true
	case "psql", "mysql", "mariadb", "sqlite3", "mongo", "mongosh", "redis-cli", "cqlsh", "clickhouse-client", "dropdb", "createdb", "pg_dump", "pg_dumpall", "mysqldump", "mongodump", "pg_restore", "mysqladmin", "influx", "etcdctl", "consul", "vault", "doppler", "op", "bw", "lpass", "kafka-topics", "kafka-console-producer", "kafka-console-consumer", "rabbitmqctl", "nats", "restic", "borg", "kopia", "duplicity":
		return rateData(name, args, joined), true
	case "nmap", "masscan", "zmap", "nikto", "gobuster", "dirb", "ffuf", "wfuzz", "hydra", "medusa", "sqlmap", "john", "hashcat", "tcpdump", "tshark", "wireshark", "ettercap", "responder", "enum4linux", "smbclient", "rpcclient", "crackmapexec", "netexec", "msfconsole", "msfvenom", "searchsploit", "linpeas", "linpeas.sh", "pspy", "chisel", "ligolo":
		return rateOffensive(name, args), true
	case "stress", "stress-ng", "fallocate", "ab", "wrk", "hey", "siege", "locust", "k6", "vegeta":
		return mk(medium, "load", "Generates heavy load ("+name+") on purpose.", res), true
	case "xxd":
		if hasFlag(args, "-r") {
			return mk(medium, "write-file", "Turns a hex dump back into a file."), true
		}
		return mk(low, "read-only", "Shows a hex dump."), true
	case "screen", "tmux":
		if hasFlag(args, "-ls", "-list") || len(args) > 0 && (args[0] == "ls" || args[0] == "list-sessions") {
			return mk(low, "sessions-read", "Lists terminal sessions."), true
		}
		return mk(medium, name, "Runs a terminal multiplexer session."), true
	case "ss":
		if hasFlag(args, "-K", "--kill") {
			return mk(medium, "ss-kill", "Closes network connections.", net, sys), true
		}
		return mk(low, "read-only", "Lists sockets."), true
	case "modprobe", "insmod", "rmmod":
		if hasFlag(args, "-n", "--dry-run", "-c", "--showconfig") {
			return mk(low, "modprobe-dry", "Shows what modprobe would do."), true
		}
		return rateSystem(name, args), true
	case "btrfs", "zfs", "zpool", "lvm":
		j := strings.Join(args, " ")
		if reVolumeDelete.MatchString(j) {
			return mk(high, "volume-delete", "Deletes a volume, snapshot or pool with its data.", del), true
		}
		if reVolumeRead.MatchString(j) {
			return mk(low, "volume-read", "Shows volumes."), true
		}
		return mk(medium, "volume-change", "Changes volumes or snapshots.", sys), true
	case "gpg", "gpg2":
		if hasFlag(args, "--export-secret-keys", "--export-secret-subkeys") {
			return mk(medium, "export-secret", "Exports private keys where the transcript can see them.", exf), true
		}
		if hasFlag(args, "--delete-secret-keys", "--delete-keys", "--delete-secret-and-public-key") {
			return mk(high, "gpg-delete", "Deletes keys from the keyring.", del), true
		}
		if hasFlag(args, "--gen-key", "--full-gen-key", "--full-generate-key", "--generate-key", "--import", "--quick-gen-key", "--edit-key", "--sign-key") {
			return mk(medium, "gpg-keys", "Creates, imports or edits keys in the keyring."), true
		}
		return mk(low, "gpg", "Runs gpg."), true
	case "ssh-keygen":
		if hasFlag(args, "-R") {
			return mk(medium, "known-hosts", "Edits known_hosts."), true
		}
		if hasFlag(args, "-l", "-y", "-F") {
			return mk(low, "ssh-keygen-read", "Shows key fingerprints."), true
		}
		return mk(medium, "ssh-keygen", "Creates an SSH key pair."), true
	case "ssh-add", "ssh-copy-id", "ssh-agent":
		return mk(medium, name, "Manages SSH keys and agents.", net), true
	case "openssl":
		if len(args) > 0 && args[0] == "s_client" {
			return mk(low, "tls-probe", "Connects to a TLS server to inspect it.", net), true
		}
		if _, ok := flagValue(args, "-out"); ok || len(args) > 0 && (args[0] == "genrsa" || args[0] == "genpkey" || args[0] == "req") {
			return mk(medium, "openssl-write", "Creates keys or certificates."), true
		}
		return mk(low, "openssl", "Runs openssl."), true
	case "journalctl":
		if hasFlag(args, "--vacuum-time", "--vacuum-size", "--vacuum-files", "--rotate") {
			return mk(high, "logs-delete", "Deletes system logs.", del, comp), true
		}
		return mk(low, "journalctl", "Shows system logs."), true
	case "chsh", "chfn":
		return mk(medium, name, "Changes your login shell or user information.", sys), true
	case "xattr":
		if strings.Contains(joined, "quarantine") && hasFlag(args, "-d", "-c", "-r") {
			return mk(high, "quarantine-off", "Removes macOS's quarantine mark, skipping its check of downloaded programs.", sys), true
		}
		return mk(low, "xattr", "Shows extended attributes."), true
	case "spctl", "csrutil":
		if strings.Contains(joined, "disable") || strings.Contains(joined, "--master-disable") {
			return mk(high, "gatekeeper-off", "Turns a macOS security control off.", sys), true
		}
		return mk(low, name, "Shows macOS security settings."), true
	case "ulimit":
		return mk(low, "ulimit", "Shows or sets resource limits for this shell."), true
	case "nohup", "setsid", "disown":
		return mk(medium, name, "Runs a program detached from the terminal."), true
	case "python -m http.server", "php -S":
	}
	return finding{}, false
}

// knownCommands are the names a typo is measured against.
var knownCommands = []string{"rm", "find", "git", "aws", "crontab", "dd", "chmod", "chown", "mkfs", "kill", "sudo", "docker", "kubectl", "terraform", "curl", "wget", "shred", "mv", "cp"}

// typo reports whether name is a near miss of a well-known command (one
// edit away, or in upper case), which the shell would not find.
func typo(name string) bool {
	if name != strings.ToLower(name) && strings.ToLower(name) != name && len(name) > 1 {
		for _, k := range knownCommands {
			if strings.EqualFold(name, k) {
				return true
			}
		}
		if strings.ToUpper(name) == name {
			return true
		}
	}
	for _, k := range knownCommands {
		if name != k && editDistance1(name, k) {
			return true
		}
	}
	return strings.HasPrefix(name, "crontab-") || strings.HasPrefix(name, "rm-")
}

func editDistance1(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	if la > lb {
		a, b, la, lb = b, a, lb, la
	}
	if lb-la > 1 || la < 2 {
		return false
	}
	i, j, edits := 0, 0, 0
	for i < la && j < lb {
		if a[i] == b[j] {
			i++
			j++
			continue
		}
		edits++
		if edits > 1 {
			return false
		}
		if la == lb {
			i++
		}
		j++
	}
	return edits+(lb-j)+(la-i) <= 1
}

var readVerbs = set("list", "ls", "info", "show", "get", "status", "whoami", "describe", "validate", "version", "view", "inspect", "check", "stats", "cat", "print", "search", "top", "logs", "history", "-l", "--list", "-ls")
var writeVerbs = set("delete", "del", "rm", "remove", "destroy", "purge", "drop", "create", "add", "set", "put", "update", "apply", "install", "uninstall", "run", "exec", "start", "stop", "restart", "kill", "reset", "unregister", "register", "write", "push", "deploy", "clear", "flush", "revoke", "disable", "enable")

// verbRead reports whether an unknown tool is asked only to list or show.
func verbRead(args []string) bool {
	read := false
	for _, a := range args {
		l := strings.ToLower(a)
		if writeVerbs[l] {
			return false
		}
		if readVerbs[l] {
			read = true
		}
	}
	return read
}

// shellEscape catches programs made to start a shell (GTFOBins "shell"
// entries), which escape command allowlists and, under sudo or setuid,
// give root.
func shellEscape(s shellparse.Segment, name string, args []string) (finding, bool) {
	wrapped := false
	for _, w := range s.Wrappers {
		if !strings.HasPrefix(w, "alias ") && !strings.HasPrefix(w, "function ") && !strings.HasSuffix(w, " -c") && w != "eval" {
			wrapped = true
		}
	}
	isShell := shellNames[name]
	switch {
	case isShell && s.Privileged:
		return mk(high, "root-shell", "Starts a shell as root.", priv), true
	case isShell && (hasFlag(args, "-p") || wrapped):
		return mk(high, "shell-escape", "Starts a shell through another program, escaping command restrictions.", priv), true
	case strings.HasPrefix(s.Argv[0], "./") && gtfoNames[name]:
		return mk(high, "local-system-tool", "Runs a local copy of "+name+", the way setuid binaries are abused.", priv), true
	}
	if name == "echo" || name == "printf" || name == "grep" || name == "rg" || name == "git" && len(args) > 0 && args[0] == "commit" {
		return finding{}, false
	}
	if name == "git" && s.Privileged && (hasFlag(args, "--exec-path") || containsArg(args, "-c")) {
		return mk(high, "shell-escape", "Runs git as root with a changed program path or configuration, which can start a shell.", priv), true
	}
	for _, a := range args {
		if shellArg.MatchString(a) {
			return mk(high, "shell-escape", name+" is made to start a shell, escaping command restrictions.", priv), true
		}
	}
	return finding{}, false
}

var shellNames = set("sh", "bash", "zsh", "dash", "ksh", "csh", "tcsh", "fish", "ash")
var gtfoNames = set("busybox", "find", "timeout", "chown", "chmod", "cp", "env", "nice", "tee", "dd", "vi", "vim", "less", "more", "python", "python3", "perl", "bash", "sh", "awk", "tar", "zip", "nmap", "strace", "taskset", "stdbuf", "xargs", "docker", "systemctl", "base64", "cat", "ionice", "setarch", "flock", "time")
var shellArg = regexp.MustCompile(`(^|[\s'"=;{(])(/bin/|/usr/bin/)?(ba|da|z|k|c|tc)?sh(\s+-[a-z]*[cip]\b|\s*[<;"'}]|$)|(^|[^\w/.-])/bin/(ba|da|z|k|c|tc)?sh\b|^\.shell\b|:!/bin|!/bin/sh|exec\s+sh\b`)

func rateRm(name string, args []string, c ctx) finding {
	recursive := hasFlag(args, "-r", "-R", "--recursive") || name == "rmdir"
	force := hasFlag(args, "-f", "--force")
	targets := operands(args)
	if len(targets) == 0 {
		return mk(low, "rm-nothing", "Runs rm with nothing to delete.")
	}
	what := strings.Join(targets, ", ")
	worst := scopeNone
	whole := false
	for _, t := range targets {
		sc := scopeOf(t, c.cwd)
		if sc > worst {
			worst = sc
		}
		if isWholeTree(t) {
			whole = true
		}
	}
	if name == "srm" {
		return mk(high, "srm", "Securely erases "+what+" beyond recovery.", del)
	}
	everything := " and everything in it"
	if !recursive {
		everything = ""
	}
	switch {
	case worst == scopeRoot && recursive:
		return mk(high, "rm-root", "Deletes every file on the machine.", del, sys)
	case worst == scopeRoot:
		return mk(low, "rm-root-noop", "Runs rm on / without -r, which deletes nothing.")
	case worst == scopeSystem:
		return mk(high, "rm-system", "Deletes the system path "+what+everything+".", del, sys)
	case whole && recursive:
		return mk(high, "rm-tree", "Deletes "+what+everything+".", del)
	case recursive && containsArg(targets, "{}"):
		if force {
			return mk(high, "rm-each", "Force-deletes every file it is handed, recursively.", del)
		}
		return mk(medium, "rm-each", "Deletes the files it is handed.", del)
	case worst == scopeHome || worst == scopeOutside:
		if recursive {
			return mk(high, "rm-outside", "Deletes "+what+everything+", outside the project.", del)
		}
		return mk(medium, "rm-file-outside", "Deletes "+what+", outside the project.", del)
	case worst == scopeTmp:
		return mk(medium, "rm-tmp", "Deletes "+what+everything+" from a temporary directory.", del)
	}
	if recursive && force && !regenerable(targets) {
		return mk(high, "rm-project-source", "Force-deletes "+what+everything+", which is not a rebuildable output.", del)
	}
	return mk(medium, "rm-project", "Deletes "+what+everything+" in the project.", del)
}

var regenerableNames = set("build", "dist", "out", "target", "node_modules", ".cache", "cache", "__pycache__", "coverage", ".coverage", "tmp", "temp", ".next", ".nuxt", ".turbo", ".parcel-cache", "bin", "obj", ".pytest_cache", ".mypy_cache", ".tox", ".venv", "venv", "vendor", ".gradle", "_build", "deps", ".terraform", "logs", "log", "*.pyc", "*.o", "*.log", "*.tmp", ".eggs", "site", "public", "generated", "gen", "artifacts", "htmlcov", ".DS_Store")

// regenerable reports whether every target is a build output or cache
// that a build would recreate.
func regenerable(targets []string) bool {
	for _, t := range targets {
		b := strings.TrimSuffix(strings.TrimPrefix(strings.Trim(t, `"'`), "./"), "/")
		if i := strings.LastIndexByte(b, '/'); i >= 0 {
			b = b[i+1:]
		}
		if !regenerableNames[b] && !strings.HasSuffix(b, ".egg-info") {
			return false
		}
	}
	return true
}

func rateMove(args []string, c ctx) finding {
	ops := operands(args)
	for _, o := range ops {
		if o == "/dev/null" {
			return mk(high, "mv-devnull", "Moves files onto /dev/null, destroying them.", del)
		}
	}
	if len(ops) > 0 {
		dst := ops[len(ops)-1]
		if privilegePath(dst) || persistencePath(dst) {
			return mk(high, "mv-privilege", "Replaces "+dst+".", priv, sys)
		}
		for _, o := range ops {
			if sc := scopeOf(o, c.cwd); sc >= scopeSystem || isWholeTree(o) && sc != scopeWorkspace {
				return mk(high, "mv-system", "Moves "+o+", breaking the system or your home directory.", del, sys)
			}
		}
	}
	return mk(medium, "mv", "Moves or renames "+strings.Join(ops, ", ")+".")
}

func rateCopy(name string, args []string, c ctx) finding {
	ops := operands(args)
	if name == "rsync" {
		if hasFlag(args, "-n", "--dry-run") {
			return mk(low, "rsync-dry", "Shows what rsync would copy.")
		}
		cats := []assessor.Category{}
		for _, o := range ops {
			if strings.Contains(o, ":") && !strings.HasPrefix(o, "/") {
				cats = append(cats, net)
				break
			}
		}
		if hasFlag(args, "--delete", "--delete-before", "--delete-after", "--delete-during", "--remove-source-files") {
			return mk(high, "rsync-delete", "Mirrors files and deletes whatever the source lacks.", append(cats, del)...)
		}
		return mk(medium, "rsync", "Copies files with rsync.", cats...)
	}
	if name == "install" && (hasFlag(args, "-m") && strings.ContainsAny(strings.Join(args, " "), "4567") && reInstallSetuid.MatchString(strings.Join(args, " "))) {
		return mk(high, "install-setuid", "Installs a program with the setuid bit, so it runs as its owner.", priv, sys)
	}
	if name == "touch" && hasFlag(args, "-t", "-r", "-d", "--date", "--reference") {
		return mk(medium, "timestomp", "Sets file timestamps to chosen values.", comp)
	}
	if len(ops) > 0 {
		dst := ops[len(ops)-1]
		if name == "touch" || name == "mkdir" {
			for _, o := range ops {
				if f := writeTarget(name, o, c); f.level != 0 {
					if !persistencePath(o) && !privilegePath(o) {
						f.level, f.cats = medium, []assessor.Category{sys}
					}
					return f
				}
			}
		} else if name == "tee" {
			for _, o := range ops {
				if f := writeTarget(name, o, c); f.level != 0 {
					return f
				}
			}
		} else if f := writeTarget(name, dst, c); f.level != 0 {
			return f
		}
		if name == "cp" {
			for _, o := range ops[:len(ops)-1] {
				if secretPath(o) {
					return mk(medium, "copy-secret", "Copies the credentials in "+o+".", exf)
				}
			}
		}
	}
	verbs := map[string]string{"cp": "Copies", "install": "Installs", "ln": "Links", "touch": "Creates or touches", "mkdir": "Creates the directory", "mktemp": "Creates a temporary file", "tee": "Writes", "patch": "Patches"}
	return mk(medium, name, verbs[name]+" "+strings.Join(ops, ", ")+".")
}

// writeTarget rates writing to p outside the project.
func writeTarget(name, p string, c ctx) finding {
	switch {
	case privilegePath(p):
		return mk(high, "write-privilege-file", name+" writes "+p+", which controls who has root.", priv, sys)
	case persistencePath(p):
		return mk(high, "persistence", name+" writes "+p+", which runs again later.", sys)
	}
	switch scopeOf(p, c.cwd) {
	case scopeSystem, scopeRoot:
		return mk(high, "write-system", strings.ToUpper(name[:1])+name[1:]+" writes the system path "+p+".", sys)
	}
	return finding{}
}

func rateEdit(what string, ops []string, c ctx) finding {
	for _, o := range ops {
		if f := writeTarget(what, o, c); f.level != 0 {
			return f
		}
	}
	return mk(medium, "edit-in-place", "Edits "+strings.Join(ops[min(1, len(ops)):], ", ")+" in place.")
}

var modeWorld = regexp.MustCompile(`^(0?[0-7]?[0-7][0-7][2367]|a\+w|o\+w|\+w|777|a=rwx|ugo\+rwx)$`)
var modeSetuid = regexp.MustCompile(`^(0?[4-7][0-7]{3}|[ugoa]*\+[rwx]*s[rwx]*|\+s|u\+s|g\+s)$`)

func ratePermissions(name string, args []string, c ctx) finding {
	ops := operands(args)
	recursive := hasFlag(args, "-R", "--recursive")
	mode := ""
	targets := ops
	if (name == "chmod" || name == "chown" || name == "chgrp") && len(ops) > 0 {
		mode, targets = ops[0], ops[1:]
	}
	worst := scopeNone
	for _, t := range targets {
		if sc := scopeOf(t, c.cwd); sc > worst {
			worst = sc
		}
	}
	if len(targets) == 0 && name != "chattr" && name != "setfacl" {
		return mk(low, name+"-invalid", "Runs "+name+" without a file to change, which does nothing.")
	}
	if name == "chmod" && modeSetuid.MatchString(mode) {
		return mk(high, "setuid", "Sets the setuid or setgid bit, so the program runs with its owner's rights.", priv, sys)
	}
	if name == "chattr" {
		if worst >= scopeSystem || recursive && worst >= scopeHome {
			return mk(high, "chattr-system", "Changes file attributes on system files.", sys)
		}
		return mk(medium, "chattr", "Changes file attributes (such as immutability).", sys)
	}
	switch {
	case worst >= scopeSystem && (recursive || worst == scopeRoot):
		return mk(high, name+"-system-tree", "Changes ownership or permissions of the whole system tree under "+strings.Join(targets, ", ")+".", sys)
	case worst >= scopeSystem && name == "chmod" && modeWorld.MatchString(mode):
		return mk(high, "chmod-world-system", "Makes the system path "+strings.Join(targets, ", ")+" writable by everyone.", sys)
	case worst >= scopeSystem:
		return mk(high, name+"-system", "Changes ownership or permissions of the system path "+strings.Join(targets, ", ")+".", sys)
	case worst == scopeHome && recursive && anyWhole(targets):
		return mk(high, name+"-home-tree", "Changes ownership or permissions of everything under "+strings.Join(targets, ", ")+".", sys)
	case worst == scopeHome && recursive:
		return mk(medium, name+"-home", "Changes ownership or permissions under "+strings.Join(targets, ", ")+".", sys)
	case name == "chmod" && modeWorld.MatchString(mode) && recursive:
		return mk(medium, "chmod-world", "Makes "+strings.Join(targets, ", ")+" writable by everyone.", sys)
	}
	if name == "chown" || name == "chgrp" {
		return mk(medium, name, "Changes the owner of "+strings.Join(targets, ", ")+".")
	}
	return mk(medium, name, "Changes the permissions of "+strings.Join(targets, ", ")+".")
}

var findWithValue = set("-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-type", "-newer", "-user", "-group", "-perm", "-size", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-maxdepth", "-mindepth", "-uid", "-gid", "-links", "-inum", "-samefile", "-lname", "-ilname", "-printf", "-fstype", "-used", "-context")

// where names a directory for a sentence.
func where(dir string) string {
	if dir == "." || dir == "./" {
		return "the current directory"
	}
	return dir
}

func anyWhole(list []string) bool {
	for _, t := range list {
		if isWholeTree(t) {
			return true
		}
	}
	return false
}

func rateFind(args []string, c ctx) finding {
	root := "."
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "(" && args[0] != "!" {
		root = args[0]
	}
	sc := scopeOf(root, c.cwd)
	tested := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-delete":
			if sc >= scopeHome || isWholeTree(root) && sc != scopeWorkspace {
				return mk(high, "find-delete-wide", "Deletes every matching file under "+root+".", del)
			}
			if !tested {
				return mk(high, "find-delete-all", "Deletes everything under "+root+": -delete comes before any test.", del)
			}
			return mk(medium, "find-delete", "Deletes the matching files under "+where(root)+".", del)
		case a == "-fprint" || a == "-fprint0" || a == "-fprintf" || a == "-fls":
			if i+1 < len(args) && (privilegePath(args[i+1]) || persistencePath(args[i+1])) {
				return mk(high, "find-overwrite", "Overwrites "+args[i+1]+" with a file listing.", sys)
			}
			return mk(medium, "find-write", "Writes the list of matching files into a file.")
		case findWithValue[a]:
			tested = true
			i++
		case strings.HasPrefix(a, "-") && a != "-print" && a != "-print0" && a != "-ls":
			tested = true
		}
	}
	// -exec commands are their own segments.
	if sc >= scopeSystem {
		return mk(low, "find-read", "Searches "+root+" for files.")
	}
	return mk(low, "find-read", "Searches for files under "+where(root)+".")
}
