package rules

import (
	"encoding/base64"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// scope is where a path points, from least to most consequential.
type scope int

const (
	scopeNone      scope = iota
	scopeWorkspace       // relative, or under the working directory
	scopeTmp             // /tmp, /var/tmp
	scopeOutside         // absolute, elsewhere
	scopeHome            // ~, a home directory or what is in it
	scopeSystem          // /etc, /usr, /var, … and devices
	scopeRoot            // / itself, everything
)

var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/var", "/opt", "/srv", "/sys", "/proc", "/dev", "/root", "/System", "/Library", "/Applications", "/private"}

// scopeOf classifies p, given the working directory.
func scopeOf(p, cwd string) scope {
	p = strings.Trim(p, `"'`)
	switch {
	case p == "":
		return scopeNone
	case p == "/" || p == "/*" || p == "/.":
		return scopeRoot
	case p == "*" || p == "." || p == "./" || p == "./*" || p == ".*" || p == "..":
		return scopeWorkspace
	case strings.HasPrefix(p, "$TMPDIR") || strings.HasPrefix(p, "${TMPDIR"):
		return scopeTmp
	case strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$HOME") || strings.HasPrefix(p, "${HOME}"):
		return scopeHome
	case strings.HasPrefix(p, "$"):
		return scopeOutside
	}
	if !strings.HasPrefix(p, "/") {
		if strings.HasPrefix(path.Clean(p), "..") {
			return scopeOutside
		}
		return scopeWorkspace
	}
	c := path.Clean(p)
	if c == "/" {
		return scopeRoot
	}
	if cwd != "" && (c == cwd || strings.HasPrefix(c, cwd+"/")) {
		return scopeWorkspace
	}
	if strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/var/tmp/") || c == "/tmp" || c == "/var/tmp" {
		return scopeTmp
	}
	if c == "/home" || strings.HasPrefix(c, "/home/") || c == "/Users" || strings.HasPrefix(c, "/Users/") {
		return scopeHome
	}
	// Locally installed software, not the operating system.
	if strings.HasPrefix(c, "/usr/local/") || strings.HasPrefix(c, "/opt/") {
		return scopeOutside
	}
	for _, d := range systemDirs {
		if c == d || strings.HasPrefix(c, d+"/") {
			return scopeSystem
		}
	}
	return scopeOutside
}

// isWholeTree reports whether p names a whole tree rather than something in
// it: /, ~, a home directory, a top-level system directory, or a wildcard
// over the current directory.
func isWholeTree(p string) bool {
	p = strings.Trim(p, `"'`)
	switch p {
	case "/", "/*", "~", "~/", "~/*", "$HOME", "${HOME}", "$HOME/", "$HOME/*", "*", ".", "./", "./*", ".*", "..", "../", "/home", "/Users":
		return true
	}
	c := path.Clean(p)
	for _, d := range systemDirs {
		if c == d || c == d+"/*" {
			return true
		}
	}
	parts := strings.Split(strings.Trim(c, "/"), "/")
	return len(parts) == 2 && (parts[0] == "home" || parts[0] == "Users")
}

// secretPath reports whether p names a credential store.
func secretPath(p string) bool {
	p = strings.Trim(p, `"'`)
	base := path.Base(p)
	switch {
	case strings.Contains(p, ".ssh/id_") && !strings.HasSuffix(p, ".pub"),
		strings.Contains(p, ".aws/credentials"), strings.Contains(p, ".aws/config"),
		strings.Contains(p, ".netrc"), strings.Contains(p, ".git-credentials"),
		strings.Contains(p, ".docker/config.json"), strings.Contains(p, ".kube/config"),
		strings.Contains(p, ".npmrc"), strings.Contains(p, ".pypirc"),
		strings.Contains(p, ".config/gcloud"), strings.Contains(p, ".azure/"),
		strings.Contains(p, ".gnupg/"), strings.Contains(p, ".password-store"),
		p == "/etc/shadow", p == "/etc/gshadow", strings.HasPrefix(p, "/etc/ssh/ssh_host_") && !strings.HasSuffix(p, ".pub"),
		strings.Contains(p, "_history"),
		base == ".env" || strings.HasPrefix(base, ".env.") || base == "secrets.yml" || base == "secrets.yaml" || base == "credentials.json",
		strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx"),
		base == "id_rsa" || base == "id_ed25519" || base == "id_ecdsa" || base == "id_dsa":
		return true
	}
	return false
}

// secretName reports whether an environment variable name looks like it
// holds a credential.
func secretName(name string) bool {
	n := strings.ToUpper(strings.Trim(name, "${}"))
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "AUTH"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// persistencePath reports whether writing p makes something run later:
// shell start-up files, cron, systemd units, autostart, ssh keys.
func persistencePath(p string) bool {
	p = strings.Trim(p, `"'`)
	base := path.Base(p)
	switch base {
	case ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv", ".bash_login", ".login", ".bash_logout", "authorized_keys", "rc.local", "environment", "ld.so.preload":
		return true
	}
	for _, s := range []string{"/etc/cron", "/var/spool/cron", ".config/autostart", "/etc/systemd", ".config/systemd", "/etc/profile", "/etc/update-motd.d", "/etc/apt/apt.conf.d", "/etc/init.d", "/etc/rc", "LaunchAgents", "LaunchDaemons"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// privilegePath reports whether writing p grants privileges.
func privilegePath(p string) bool {
	p = strings.Trim(p, `"'`)
	return p == "/etc/passwd" || p == "/etc/shadow" || p == "/etc/group" || strings.HasPrefix(p, "/etc/sudoers")
}

// redirections rates what a segment's redirections write.
func redirections(s shellparse.Segment, c ctx) finding {
	var f finding
	for _, r := range s.Redirects {
		t := r.Target
		if strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			f = raise(f, mk(high, "dev-tcp", "Connects to "+t+" through the shell, the way reverse shells and exfiltration do.", exf, net))
			continue
		}
		if !r.Writes() {
			continue
		}
		switch {
		case t == "/dev/null" || t == "/dev/stdout" || t == "/dev/stderr" || t == "/dev/tty":
		case strings.HasPrefix(t, "/dev/sd") || strings.HasPrefix(t, "/dev/nvme") || strings.HasPrefix(t, "/dev/hd") || strings.HasPrefix(t, "/dev/mem") || strings.HasPrefix(t, "/dev/vd"):
			f = raise(f, mk(high, "write-device", "Writes straight onto the disk device "+t+", destroying its data.", del, sys))
		case strings.HasPrefix(t, "/proc/sys/") || strings.HasPrefix(t, "/sys/"):
			f = raise(f, mk(medium, "write-kernel-setting", "Changes the kernel setting "+t+".", sys))
		case privilegePath(t):
			f = raise(f, mk(high, "write-privilege-file", "Writes "+t+", which controls who has root.", priv, sys))
		case persistencePath(t):
			f = raise(f, mk(high, "persistence", "Writes "+t+", so the text runs again later (start-up file, cron or service).", sys))
		default:
			switch scopeOf(t, c.cwd) {
			case scopeSystem, scopeRoot:
				f = raise(f, mk(high, "write-system", "Overwrites the system file "+t+".", sys))
			case scopeHome, scopeOutside:
				verb := "Writes"
				if r.Op == ">" || r.Op == ">|" || r.Op == "&>" {
					verb = "Overwrites"
				}
				f = raise(f, mk(medium, "write-outside", verb+" "+t+", outside the project."))
			default:
				f = raise(f, mk(medium, "write-file", "Writes output to "+t+"."))
			}
		}
	}
	return f
}

// urlHost returns the host of a URL-looking argument, or "".
func urlHost(a string) string {
	a = strings.Trim(a, `"'`)
	if !strings.Contains(a, "://") {
		if strings.HasPrefix(a, "www.") || strings.Count(a, ".") >= 1 && strings.Contains(a, "/") && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, ".") {
			a = "https://" + a
		} else {
			return ""
		}
	}
	u, err := url.Parse(a)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

// loopback reports whether host is this machine.
func loopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1" || host == "0.0.0.0" || strings.HasSuffix(host, ".localhost")
}

// untrustedHost reports whether host is a placeholder for an attacker or a
// bare IP address.
func untrustedHost(host string) bool {
	h := strings.ToLower(host)
	for _, w := range []string{"evil", "attacker", "malicious", "hack", "pwn", "exfil", "example.com", "example.org", "example.net", "ngrok", "burpcollaborator", "requestbin", "pastebin", "transfer.sh", "webhook.site"} {
		if strings.Contains(h, w) {
			return true
		}
	}
	return isIP(h) && !loopback(h)
}

func isIP(h string) bool {
	if h == "" {
		return false
	}
	for _, r := range h {
		if !(r >= '0' && r <= '9' || r == '.' || r == ':' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return strings.Count(h, ".") == 3 || strings.Count(h, ":") >= 2
}

// trustedInstaller reports whether a URL is an official vendor installer.
func trustedInstaller(u string) bool {
	for _, s := range []string{"raw.githubusercontent.com/nvm-sh/", "astral.sh/uv", "astral.sh/ruff", "raw.githubusercontent.com/Homebrew/", "get.docker.com", "sh.rustup.rs", "get.rvm.io", "install.python-poetry.org", "deno.land/install", "bun.sh/install", "get.pnpm.io", "tailscale.com/install", "fnm.vercel.app", "install.determinate.systems", "nixos.org/nix/install", "starship.rs/install", "get.sdkman.io", "cli.github.com"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

func decodeBase64(s string) string {
	s = strings.TrimSpace(strings.Trim(s, `"'`))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && utf8.Valid(b) && len(b) > 0 {
			return string(b)
		}
	}
	return ""
}

// hasFlag reports whether args hold one of the flags: long ones exactly
// or with "=value", short ones alone or inside a cluster ("-rf").
func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, f := range flags {
			if a == f || strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=") {
				return true
			}
			if len(f) == 2 && f[0] == '-' && f[1] != '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], rune(f[1])) {
				return true
			}
		}
	}
	return false
}

// flagValue returns the value of an option ("-o x", "-ox", "--out=x",
// "--out x"), if present.
func flagValue(args []string, flags ...string) (string, bool) {
	for i, a := range args {
		for _, f := range flags {
			switch {
			case a == f && i+1 < len(args):
				return args[i+1], true
			case strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"="):
				return a[len(f)+1:], true
			case len(f) == 2 && f[1] != '-' && strings.HasPrefix(a, f) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				return a[2:], true
			}
		}
	}
	return "", false
}

// operands returns the arguments that are not options (after "--", all).
func operands(args []string) []string {
	var out []string
	opts := true
	for _, a := range args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && strings.HasPrefix(a, "-") && a != "-":
		default:
			out = append(out, a)
		}
	}
	return out
}

func firstOperand(args []string) string {
	if ops := operands(args); len(ops) > 0 {
		return ops[0]
	}
	return ""
}
