package rules

import "regexp"

// Patterns used by the rules, compiled once: rating runs for every
// command and must stay well under a millisecond.
var (
	// reVarRef matches a variable reference, $NAME or ${NAME}.
	reVarRef = regexp.MustCompile(`\$\{?([A-Za-z_]\w*)\}?`)
	// reDateDigits matches a date(1) operand that sets the clock (MMDDhhmm…).
	reDateDigits = regexp.MustCompile(`^\d{8,}`)
	// reVolumeDelete matches volume tools asked to delete.
	reVolumeDelete = regexp.MustCompile(`\b(delete|destroy|remove|wipe)\b`)
	// reVolumeRead matches volume tools asked to show.
	reVolumeRead = regexp.MustCompile(`\b(list|show|status|get|df|usage)\b`)
	// reInstallSetuid matches install -m with a setuid or setgid mode.
	reInstallSetuid = regexp.MustCompile(`-m\s*[4567]\d{3}`)
	// reURLDelete matches a request that deletes by its URL or body.
	reURLDelete = regexp.MustCompile(`(?i)delete|destroy|remove|purge`)
	// reCodeDeleteTarget matches the path a deleting call in inline code names.
	reCodeDeleteTarget = regexp.MustCompile(`(?:remove|unlink|rmtree|rmSync|rmdirSync|rmdir|unlinkSync|rm)\s*\(\s*['"]([^'"]+)['"]`)
	// reAwkRedirect matches an awk output redirection.
	reAwkRedirect = regexp.MustCompile(`>\s*"([^"]+)"`)
	// reHostMount matches a container mount of the host root or the docker socket.
	reHostMount = regexp.MustCompile(`-v\s*/:|--volume[= ]/:|/var/run/docker\.sock`)
	// reGHMinor matches gh objects whose deletion loses little.
	reGHMinor = regexp.MustCompile(`^(variable|label|cache|run|codespace|gist|alias|extension)\b`)
	// reGHRead matches gh subcommands that only read.
	reGHRead = regexp.MustCompile(`\b(list|view|status|diff|checks|search|browse|ls)\b`)
	// reCriticalUnit matches services whose stop cuts access or a safeguard.
	reCriticalUnit = regexp.MustCompile(`^(ssh|sshd|networking|NetworkManager|network|systemd-networkd|systemd-resolved|firewalld|ufw|auditd|apparmor|docker|containerd|kubelet|cron|crond|rsyslog|journald|systemd-journald|polkit|dbus)(\.service)?$`)
	// reCriticalProcess matches processes others depend on.
	reCriticalProcess = regexp.MustCompile(`\b(sshd|systemd|init|Xorg|gdm|sddm|dockerd|kubelet)\b`)
	// reVarName matches the name in a variable reference.
	reVarName = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
	// reHistoryOff matches settings that turn shell history off.
	reHistoryOff = regexp.MustCompile(`HISTFILE=|HISTSIZE=0|HISTFILESIZE=0|\+o history`)
	// rePathHijack matches a PATH starting with an untrusted directory.
	rePathHijack = regexp.MustCompile(`PATH=\.?(/tmp|\.)[:/]`)
	// reAliasHijack matches an alias redefining a common command.
	reAliasHijack = regexp.MustCompile(`^(sudo|ls|cd|ssh|git)=`)
	// reAdminGroup matches adding a user to an administrators' group.
	reAdminGroup = regexp.MustCompile(`-a?G\s*(sudo|wheel|admin|root|docker)|--groups?\s*(sudo|wheel|admin|root|docker)`)
	// reAdminName matches an administrators' group name.
	reAdminName = regexp.MustCompile(`(sudo|wheel|admin|docker)`)
	// reNetDown matches network changes that remove.
	reNetDown = regexp.MustCompile(`\b(down|del|delete|flush)\b`)
	// reNetChange matches network changes that add or alter.
	reNetChange = regexp.MustCompile(`\b(add|set|change|replace|up|connect|modify|mtu|promisc)\b`)
	// reRedisFlush matches redis commands that delete every key.
	reRedisFlush = regexp.MustCompile(`(?i)\b(flushall|flushdb)\b`)
	// reRedisAdmin matches redis commands that reconfigure or stop the server.
	reRedisAdmin = regexp.MustCompile(`(?i)\b(config\s+set|shutdown|debug|slaveof|replicaof)\b`)
	// reRedisDel matches redis commands that delete keys.
	reRedisDel = regexp.MustCompile(`(?i)\b(del|unlink|expire)\b`)
	// reRedisWrite matches redis commands that write keys.
	reRedisWrite = regexp.MustCompile(`(?i)\b(set|hset|lpush|sadd|incr)\b`)
)
