package rules

import (
	"path"
	"regexp"
	"strings"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// sub returns the first operand (the subcommand) and the arguments after
// it, skipping options before it (and the values of those in withValue).
func sub(args []string, withValue ...string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			for _, w := range withValue {
				if a == w {
					i++
				}
			}
			continue
		}
		return a, args[i+1:]
	}
	return "", nil
}

func rateGit(args []string, c ctx) finding {
	cmd, rest := sub(args, "-C", "-c", "--git-dir", "--work-tree", "--namespace")
	switch cmd {
	case "status", "log", "diff", "show", "blame", "shortlog", "describe", "rev-parse", "rev-list", "ls-files", "ls-tree", "ls-remote", "grep", "reflog", "cat-file", "show-ref", "for-each-ref", "whatchanged", "help", "version", "count-objects", "fsck", "check-ignore", "name-rev", "cherry", "range-diff", "instaweb", "bisect", "var", "annotate", "show-branch", "verify-commit", "verify-tag":
		if cmd == "reflog" && len(rest) > 0 && (rest[0] == "expire" || rest[0] == "delete") {
			return mk(medium, "git-reflog-expire", "Deletes git's recovery points (reflog entries).", del)
		}
		if cmd == "ls-remote" {
			return mk(low, "git-read", "Lists a remote repository's refs.", net)
		}
		if f, ok := flagValue(rest, "--output"); ok {
			return mk(medium, "git-output", "Writes git's output to "+f+".")
		}
		return mk(low, "git-read", "Shows repository information with git.")
	case "branch":
		switch {
		case hasFlag(rest, "-D") || hasFlag(rest, "-d", "--delete") && hasFlag(rest, "-f", "--force"):
			return mk(high, "git-branch-force-delete", "Force-deletes a branch, losing its unmerged commits.", del)
		case hasFlag(rest, "-d", "--delete"):
			return mk(medium, "git-branch-delete", "Deletes a merged branch.", del)
		case hasFlag(rest, "-m", "-M", "-c", "-C", "--move", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "-f", "--force") || len(operands(rest)) > 0:
			return mk(medium, "git-branch-change", "Creates, renames or moves a branch.")
		}
		return mk(low, "git-read", "Lists branches.")
	case "tag":
		if hasFlag(rest, "-d", "--delete") {
			return mk(medium, "git-tag-delete", "Deletes a tag.", del)
		}
		if len(operands(rest)) == 0 || hasFlag(rest, "-l", "--list", "-n") {
			return mk(low, "git-read", "Lists tags.")
		}
		return mk(medium, "git-tag", "Creates a tag.")
	case "stash":
		if len(rest) > 0 {
			switch rest[0] {
			case "drop", "clear":
				return mk(high, "git-stash-drop", "Deletes stashed work for good.", del)
			case "list", "show":
				return mk(low, "git-read", "Shows stashed work.")
			}
		}
		return mk(medium, "git-stash", "Stashes or restores uncommitted work.")
	case "reset":
		if hasFlag(rest, "--hard", "--merge", "--keep") {
			return mk(high, "git-reset-hard", "Discards uncommitted changes in the working tree.", del)
		}
		return mk(medium, "git-reset", "Moves the branch or unstages changes, keeping the files.")
	case "clean":
		if hasFlag(rest, "-n", "--dry-run") {
			return mk(low, "git-clean-dry", "Lists the untracked files git clean would delete.")
		}
		if hasFlag(rest, "-f", "--force") {
			return mk(high, "git-clean", "Deletes untracked files for good.", del)
		}
		if hasFlag(rest, "-i", "--interactive") {
			return mk(medium, "git-clean-interactive", "Deletes untracked files, asking which.", del)
		}
		return mk(low, "git-clean-refused", "Runs git clean without -f, which deletes nothing.")
	case "checkout":
		if hasFlag(rest, "-f", "--force") || containsArg(rest, "--") || containsArg(rest, ".") {
			return mk(high, "git-checkout-discard", "Overwrites files with the committed version, discarding your changes.", del)
		}
		return mk(medium, "git-checkout", "Switches branches or creates one.")
	case "switch":
		if hasFlag(rest, "-f", "--force", "--discard-changes") {
			return mk(high, "git-switch-discard", "Switches branches, discarding uncommitted changes.", del)
		}
		return mk(medium, "git-switch", "Switches branches.")
	case "restore":
		if hasFlag(rest, "--staged", "-S") && !hasFlag(rest, "--worktree", "-W") {
			return mk(medium, "git-unstage", "Unstages changes, keeping the files.")
		}
		return mk(high, "git-restore", "Restores files from git, discarding uncommitted changes.", del)
	case "push":
		for _, x := range rest {
			if (strings.HasPrefix(x, "+") || strings.HasPrefix(x, ":")) && len(x) > 1 {
				return mk(high, "git-push-force", "Rewrites or deletes a branch on the remote.", del, net)
			}
		}
		switch {
		case hasFlag(rest, "--force-with-lease", "--force-if-includes"):
			return mk(medium, "git-push-lease", "Force-pushes, but only if the remote is as last seen.", del, net)
		case hasFlag(rest, "-f", "--force", "--mirror", "-d", "--delete", "--prune"):
			return mk(high, "git-push-force", "Force-pushes or deletes on the remote, overwriting its history.", del, net)
		case hasFlag(rest, "-n", "--dry-run"):
			return mk(low, "git-push-dry", "Shows what git push would send.", net)
		}
		return mk(medium, "git-push", "Pushes commits to a remote repository.", net)
	case "pull", "fetch", "clone", "submodule", "remote":
		if cmd == "remote" {
			if len(rest) == 0 || rest[0] == "-v" || rest[0] == "show" || rest[0] == "get-url" {
				return mk(low, "git-read", "Lists remotes.")
			}
			if rest[0] == "remove" || rest[0] == "rm" {
				return mk(medium, "git-remote-remove", "Removes a remote.", del)
			}
			return mk(medium, "git-remote", "Changes the remotes.")
		}
		if cmd == "fetch" && hasFlag(rest, "--dry-run") {
			return mk(low, "git-fetch-dry", "Shows what would be fetched.", net)
		}
		return mk(medium, "git-"+cmd, "Transfers commits to or from a remote repository.", net)
	case "filter-branch", "filter-repo":
		return mk(high, "git-rewrite", "Rewrites the repository's whole history.", del)
	case "update-ref":
		if hasFlag(rest, "-d") {
			return mk(high, "git-update-ref-delete", "Deletes a ref directly.", del)
		}
		return mk(medium, "git-update-ref", "Moves a ref directly.")
	case "worktree":
		if len(rest) > 0 && rest[0] == "remove" {
			if hasFlag(rest[1:], "-f", "--force") {
				return mk(high, "git-worktree-force", "Removes a worktree, discarding its uncommitted changes.", del)
			}
			return mk(medium, "git-worktree-remove", "Removes a worktree.", del)
		}
		if len(rest) > 0 && rest[0] == "list" {
			return mk(low, "git-read", "Lists worktrees.")
		}
		return mk(medium, "git-worktree", "Adds or changes worktrees.")
	case "rm":
		if hasFlag(rest, "-r") && anyWhole(operands(rest)) {
			return mk(high, "git-rm-all", "Deletes every tracked file in the project.", del)
		}
		return mk(medium, "git-rm", "Deletes files and stages their removal.", del)
	case "gc", "prune":
		if strings.Contains(strings.Join(rest, " "), "now") || cmd == "prune" {
			return mk(medium, "git-prune", "Deletes unreachable commits for good.", del)
		}
		return mk(medium, "git-gc", "Compacts the repository.")
	case "config":
		if hasFlag(rest, "-e", "--edit") {
			return mk(medium, "git-config-edit", "Opens git configuration in an editor.")
		}
		if hasFlag(rest, "--get", "--get-all", "--list", "-l", "--get-regexp") || len(operands(rest)) <= 1 {
			return mk(low, "git-config-read", "Reads git configuration.")
		}
		if hasFlag(rest, "--global", "--system") {
			return mk(medium, "git-config-global", "Changes your global git configuration.", sys)
		}
		return mk(medium, "git-config", "Changes the repository's git configuration.")
	case "credential", "credential-store", "credential-cache":
		if len(rest) > 0 && (rest[0] == "fill" || rest[0] == "get") {
			return mk(medium, "git-credential", "Prints a stored git credential.", exf)
		}
		return mk(medium, "git-credential", "Manages stored git credentials.")
	case "":
		return mk(low, "git", "Runs git without a subcommand.")
	}
	return mk(medium, "git-change", "Changes the repository with git "+cmd+".")
}

func containsArg(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rateFetch rates curl, wget and friends: reading a URL is low, saving a
// file is medium, uploading local data or deleting remotely is high.
func rateFetch(name string, args []string, c ctx) finding {
	host := ""
	for _, a := range args {
		if h := urlHost(a); h != "" {
			host = h
			break
		}
	}
	cats := []assessor.Category{}
	if host != "" && !loopback(host) {
		cats = append(cats, net)
	}
	where := host
	if where == "" {
		where = "a remote host"
	}
	// Uploads.
	for i, a := range args {
		up := ""
		switch {
		case (a == "-d" || a == "--data" || a == "--data-binary" || a == "--data-raw" || a == "--data-urlencode" || a == "-F" || a == "--form") && i+1 < len(args):
			up = args[i+1]
		case strings.HasPrefix(a, "--data=") || strings.HasPrefix(a, "--data-binary=") || strings.HasPrefix(a, "--form="):
			up = a[strings.IndexByte(a, '=')+1:]
		case (a == "-T" || a == "--upload-file" || a == "--post-file" || a == "--body-file") && i+1 < len(args):
			up = "@" + args[i+1]
		case strings.HasPrefix(a, "--post-file=") || strings.HasPrefix(a, "--body-file="):
			up = "@" + a[strings.IndexByte(a, '=')+1:]
		}
		if up == "" {
			continue
		}
		if strings.Contains(up, "@") || strings.Contains(up, "$(") || strings.Contains(up, "`") || secretName(up) {
			if host != "" && loopback(host) {
				return mk(medium, "upload-local", "Sends a local file to a service on this machine.")
			}
			return mk(high, "upload", "Uploads local data to "+where+".", exf, net)
		}
	}
	method, _ := flagValue(args, "-X", "--request", "--method")
	method = strings.ToUpper(method)
	switch method {
	case "DELETE":
		return mk(high, "http-delete", "Deletes a resource on "+where+" over HTTP.", append(cats, del)...)
	case "PUT", "PATCH", "POST":
		if reURLDelete.MatchString(strings.Join(args, " ")) {
			return mk(high, "http-delete", "Deletes a resource on "+where+" over HTTP.", append(cats, del)...)
		}
		return mk(medium, "http-write", "Changes data on "+where+" over HTTP.", append(cats, sys)...)
	}
	out, saves := flagValue(args, "-o", "--output", "-O", "--output-document")
	if name == "wget" {
		saves = out != "-"
		if hasFlag(args, "-O") && out == "-" || hasFlag(args, "--spider") {
			saves = false
		}
		if hasFlag(args, "-qO-") || strings.Contains(strings.Join(args, " "), "-O-") || strings.Contains(strings.Join(args, " "), "-qO -") {
			saves = false
		}
	}
	if name == "curl" && (hasFlag(args, "-O", "--remote-name", "--remote-name-all") || out != "" && out != "-") {
		saves = true
	}
	if saves {
		if out != "" && out != "-" {
			if f := writeTarget(name, out, c); f.level != 0 {
				f.cats = mergeCats(f.cats, cats)
				return f
			}
		}
		return mk(medium, "download", "Downloads a file from "+where+".", cats...)
	}
	return mk(low, "fetch", "Reads a URL from "+where+" and prints it.", cats...)
}

func rateNetcat(name string, args []string) finding {
	j := strings.Join(args, " ")
	if hasFlag(args, "-e", "-c") || strings.Contains(j, "exec:") || strings.Contains(j, "EXEC:") || strings.Contains(j, "/bin/sh") || strings.Contains(j, "/bin/bash") || strings.Contains(j, "pty") {
		return mk(high, "remote-shell", "Connects a shell to the network (a reverse or bind shell).", exf, net, priv)
	}
	if hasFlag(args, "-l", "--listen") || strings.Contains(j, "LISTEN") {
		return mk(medium, "listen", "Listens for network connections.", net)
	}
	if hasFlag(args, "-z") {
		if ops := operands(args); len(ops) == 2 && !strings.ContainsAny(ops[1], "-,") {
			return mk(low, "port-check", "Checks whether one port is open.", net)
		}
		return mk(medium, "port-scan", "Probes ports on a host.", net, comp)
	}
	return mk(medium, "raw-connect", "Opens a raw network connection with "+name+".", net)
}

func rateSSH(args []string, c ctx) finding {
	host, rest := sub(args, "-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-w", "-B", "-I")
	if hasFlag(args, "-R", "-D") {
		return mk(medium, "ssh-tunnel", "Opens an SSH tunnel that forwards ports through "+host+".", net)
	}
	if len(rest) > 0 && c.depth < maxNesting {
		inner := verdict(assessLine(shellparse.Join(rest), ctx{depth: c.depth + 1}))
		if len(rest) == 1 {
			inner = verdict(assessLine(rest[0], ctx{depth: c.depth + 1}))
		}
		f := mk(inner.Level, "ssh-remote", "On "+host+": "+inner.Description, inner.Categories...)
		f.cats = addCat(f.cats, net)
		return f
	}
	return mk(medium, "ssh", "Logs in to "+host+" over SSH.", net)
}

func rateTransfer(name string, args []string, c ctx) finding {
	ops := operands(args)
	switch name {
	case "rclone":
		cmd, rest := sub(args)
		switch cmd {
		case "purge", "delete", "deletefile", "rmdir", "rmdirs", "cleanup":
			return mk(high, "rclone-delete", "Deletes files from remote storage.", del, net)
		case "sync":
			return mk(high, "rclone-sync", "Makes the remote match the source, deleting extra files.", del, net)
		case "ls", "lsd", "lsl", "lsf", "cat", "size", "about", "listremotes", "config", "check", "tree":
			return mk(low, "rclone-read", "Lists remote storage.", net)
		}
		_ = rest
		return mk(medium, "rclone", "Copies files to or from remote storage.", net)
	case "gsutil", "s3cmd", "azcopy":
		j := strings.Join(args, " ")
		if strings.Contains(j, " rm") || strings.HasPrefix(j, "rm") || strings.Contains(j, "rb ") || strings.HasPrefix(j, "rb") || strings.Contains(j, "del") {
			return mk(high, "storage-delete", "Deletes objects from cloud storage.", del, net)
		}
		if strings.HasPrefix(j, "ls") || strings.HasPrefix(j, "cat") || strings.HasPrefix(j, "du") || strings.HasPrefix(j, "stat") {
			return mk(low, "storage-read", "Lists cloud storage.", net)
		}
		return mk(medium, "storage-copy", "Copies files to or from cloud storage.", net)
	}
	// scp, sftp: a local secret going out is exfiltration.
	remoteDst := len(ops) > 0 && strings.Contains(ops[len(ops)-1], ":")
	for _, o := range ops[:max(0, len(ops)-1)] {
		if remoteDst && secretPath(o) {
			return mk(high, "upload-secret", "Copies "+o+" to another machine.", exf, net)
		}
	}
	if remoteDst {
		dst := ops[len(ops)-1]
		if _, p, ok := strings.Cut(dst, ":"); ok && (p == "/" || scopeOf(p, "") >= scopeSystem) {
			return mk(high, "upload-system", "Copies files into system paths of another machine.", sys, net)
		}
		return mk(medium, "upload", "Copies files to another machine.", net)
	}
	return mk(medium, "download", "Copies files from another machine.", net)
}

var (
	pyShell   = regexp.MustCompile(`(?:os\.system|os\.popen|subprocess\.\w+|execSync|exec|spawnSync|system|popen|shell_exec|passthru|` + "`" + `)\s*\(?\s*\[?\s*(?:f|r|b)?(['"])((?:\\.|[^\\])*?)(['"])`)
	codeDel   = regexp.MustCompile(`os\.remove|os\.unlink|os\.rmdir|shutil\.rmtree|unlinkSync|rmSync|rmdirSync|fs\.rm\b|File\.delete|FileUtils\.rm|unlink\s*\(|rmtree`)
	codeNet   = regexp.MustCompile(`socket|urllib|requests\.|http\.client|fetch\(|XMLHttpRequest|Net::HTTP|LWP|IO::Socket|net\.connect|net\.Socket|https?://`)
	codeShell = regexp.MustCompile(`pty\.spawn|/bin/sh|/bin/bash|os\.exec[lv]p?|setuid\(0\)|os\.setuid|child_process|exec\s+"/bin|Kernel\.exec|posix_spawn`)
	codeWrite = regexp.MustCompile(`open\([^)]*['"][wa]\+?b?['"]|writeFileSync|appendFileSync|File\.write|fs\.write`)
)

// rateInterpreter follows code given inline (-c, -e, BEGIN blocks): shell
// commands it runs are rated as such, and its own deletions, network use
// and shell spawning count.
func rateInterpreter(s shellparse.Segment, name string, args []string, c ctx) finding {
	code, inline := "", false
	for i, a := range args {
		if (a == "-c" || a == "-e" || a == "-E" || a == "--eval" || a == "-r" || a == "-p" || a == "--command" || a == "-Command") && i+1 < len(args) {
			code, inline = args[i+1], true
			break
		}
	}
	if name == "awk" || name == "gawk" || name == "mawk" {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				code, inline = a, true
				break
			}
		}
		if !strings.Contains(code, "system") && !strings.Contains(code, "| \"") && !strings.Contains(code, "|\"") && !strings.Contains(code, "getline") {
			if f := redirectInCode(code, c); f.level != 0 {
				return f
			}
			return mk(low, "awk", "Processes text with awk.")
		}
	}
	if name == "python" || name == "python2" || name == "python3" {
		if m, ok := flagValue(args, "-m"); ok {
			switch m {
			case "http.server", "SimpleHTTPServer":
				return mk(medium, "serve-cwd", "Serves the current directory over HTTP to the network.", net, exf)
			case "pip":
				return ratePackage("pip", args[2:], c)
			case "venv", "virtualenv":
				return mk(medium, "venv", "Creates a virtual environment.")
			case "json.tool", "pydoc", "this", "timeit", "platform", "site", "sysconfig":
				return mk(low, "python-tool", "Runs a read-only Python tool.")
			case "pytest", "unittest", "doctest":
				return mk(medium, "build", "Runs the project's tests.")
			}
			return mk(medium, "python-module", "Runs the Python module "+m+".")
		}
	}
	if !inline {
		script := strings.TrimSuffix(strings.TrimSuffix(path.Base(firstOperand(args)), ".py"), ".pl")
		if offensiveTools[script] {
			return rateOffensive(script, args[1:])
		}
		if len(operands(args)) == 0 {
			return mk(medium, "repl", "Starts an interactive "+name+" session.")
		}
		return mk(medium, "script", "Runs the "+name+" program "+firstOperand(args)+", whose effect is not on the line.")
	}
	f := mk(low, "inline-code", "Runs a short "+name+" program given on the command line.")
	if c.depth < maxNesting {
		for _, m := range pyShell.FindAllStringSubmatch(code, 8) {
			if m[2] == "" {
				continue
			}
			inner := verdict(assessLine(m[2], ctx{cwd: c.cwd, depth: c.depth + 1}))
			f = raise(f, mk(inner.Level, "inline-shell", name+" runs: "+inner.Description, inner.Categories...))
		}
	}
	if codeDel.MatchString(code) {
		target := ""
		if q := reCodeDeleteTarget.FindStringSubmatch(code); q != nil {
			target = q[1]
		}
		l, cats := medium, []assessor.Category{del}
		if sc := scopeOf(target, c.cwd); sc >= scopeHome || isWholeTree(target) {
			l = high
			if sc >= scopeSystem {
				cats = append(cats, sys)
			}
		}
		f = raise(f, mk(l, "code-delete", name+" deletes "+orSomething(target)+".", cats...))
	}
	if codeShell.MatchString(code) {
		if codeNet.MatchString(code) {
			f = raise(f, mk(high, "code-reverse-shell", name+" connects a shell to the network (a reverse shell).", exf, net, priv))
		} else {
			f = raise(f, mk(high, "code-shell", name+" starts a shell, escaping command restrictions.", priv))
		}
	} else if codeNet.MatchString(code) {
		f = raise(f, mk(medium, "code-network", name+" talks to the network.", net))
	}
	if codeWrite.MatchString(code) {
		f = raise(f, mk(medium, "code-write", name+" writes a file."))
	}
	_ = s
	return f
}

var offensiveTools = set("sqlmap", "hydra", "linpeas", "pspy", "responder", "crackmapexec", "impacket", "secretsdump", "psexec", "mimikatz", "chisel", "ligolo", "nmap", "masscan")

func redirectInCode(code string, c ctx) finding {
	if m := reAwkRedirect.FindStringSubmatch(code); m != nil {
		if f := writeTarget("awk", m[1], c); f.level != 0 {
			return f
		}
		return mk(medium, "awk-write", "Processes text with awk and writes "+m[1]+".")
	}
	return finding{}
}

func orSomething(s string) string {
	if s == "" {
		return "files"
	}
	return s
}

func rateDocker(args []string, c ctx) finding {
	cmd, rest := sub(args, "-H", "--host", "--context", "-c", "--config", "--log-level")
	if cmd == "compose" || cmd == "stack" {
		cmd2, rest2 := sub(rest, "-f", "--file", "-p", "--project-name", "--env-file", "--profile")
		switch cmd2 {
		case "down":
			if hasFlag(rest2, "-v", "--volumes", "--rmi") {
				return mk(high, "compose-down-volumes", "Stops the services and deletes their volumes.", del)
			}
			return mk(medium, "compose-down", "Stops and removes the project's containers.")
		case "ps", "logs", "config", "ls", "top", "images", "version":
			return mk(low, "compose-read", "Shows the project's containers.")
		case "rm":
			return mk(medium, "compose-rm", "Removes stopped containers.", del)
		}
		return mk(medium, "compose", "Builds or runs the project's containers.")
	}
	j := strings.Join(rest, " ")
	switch cmd {
	case "ps", "images", "logs", "inspect", "info", "version", "stats", "top", "history", "port", "diff", "events", "search":
		return mk(low, "docker-read", "Shows containers or images.")
	case "run", "create":
		if hasFlag(rest, "--privileged") || strings.Contains(j, "--pid=host") || strings.Contains(j, "--pid host") || strings.Contains(j, "--net=host") && strings.Contains(j, "--cap-add") || reHostMount.MatchString(j) || strings.Contains(j, "--cap-add=SYS_ADMIN") || strings.Contains(j, "--cap-add SYS_ADMIN") {
			return mk(high, "docker-privileged", "Runs a container with access to the host (privileged, host root or the docker socket).", priv, sys)
		}
		return mk(medium, "docker-run", "Runs a container.", net)
	case "exec", "attach", "cp", "start", "stop", "restart", "pause", "unpause", "build", "pull", "tag", "commit", "login", "logout", "push", "save", "load", "import", "export", "rename", "update", "wait", "buildx", "init":
		cats := []assessor.Category{}
		if cmd == "pull" || cmd == "push" || cmd == "login" || cmd == "build" {
			cats = append(cats, net)
		}
		return mk(medium, "docker-"+cmd, "Manages containers or images (docker "+cmd+").", cats...)
	case "rm", "rmi", "kill":
		return mk(medium, "docker-rm", "Removes or kills containers or images.", del)
	case "system", "image", "container", "volume", "network", "builder", "buildx-prune":
		sub2, rest2 := sub(rest)
		switch sub2 {
		case "prune":
			if cmd == "volume" || hasFlag(rest2, "--volumes") {
				return mk(high, "docker-prune-volumes", "Deletes Docker volumes and the data in them.", del)
			}
			if hasFlag(rest2, "-a", "--all") {
				return mk(high, "docker-prune-all", "Deletes all unused images, containers and networks.", del)
			}
			return mk(medium, "docker-prune", "Deletes stopped containers and dangling images.", del)
		case "rm", "remove":
			if cmd == "volume" {
				return mk(high, "docker-volume-rm", "Deletes Docker volumes and their data.", del)
			}
			return mk(medium, "docker-rm", "Removes Docker objects.", del)
		case "ls", "list", "inspect", "df", "info", "events":
			return mk(low, "docker-read", "Shows Docker objects.")
		}
		return mk(medium, "docker-"+cmd, "Manages Docker "+cmd+"s.")
	case "swarm", "service", "node", "secret", "config", "plugin", "context", "trust", "manifest":
		if strings.Contains(j, "rm") || strings.Contains(j, "leave") {
			return mk(high, "docker-cluster-rm", "Removes cluster resources.", del, sys)
		}
		if strings.Contains(j, "ls") || strings.Contains(j, "inspect") {
			return mk(low, "docker-read", "Shows cluster resources.")
		}
		return mk(medium, "docker-cluster", "Changes cluster resources.", sys)
	}
	return mk(medium, "docker", "Runs docker "+cmd+".")
}

func rateKubectl(args []string) finding {
	cmd, rest := sub(args, "-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output", "-c", "--container", "--cluster", "--user", "-s", "--server")
	dry := strings.Contains(strings.Join(rest, " "), "--dry-run")
	switch cmd {
	case "get", "describe", "logs", "top", "explain", "version", "api-resources", "api-versions", "cluster-info", "auth", "diff", "events", "wait", "completion", "kustomize", "plugin", "certificate":
		if cmd == "get" && strings.Contains(strings.Join(rest, " "), "secret") && strings.Contains(strings.Join(rest, " "), "-o") {
			return mk(medium, "kube-secret", "Prints Kubernetes secrets.", exf, net)
		}
		return mk(low, "kube-read", "Reads cluster state.", net)
	case "config":
		if len(rest) > 0 && (rest[0] == "view" || strings.HasPrefix(rest[0], "get-") || rest[0] == "current-context") {
			return mk(low, "kube-config-read", "Shows kubectl configuration.")
		}
		return mk(medium, "kube-config", "Changes kubectl configuration.")
	case "delete":
		if dry {
			return mk(low, "kube-dry", "Shows what would be deleted.", net)
		}
		kind := firstOperand(rest)
		if hasFlag(rest, "--all", "-A", "--all-namespaces") || strings.HasPrefix(kind, "namespace") || strings.HasPrefix(kind, "ns") || strings.HasPrefix(kind, "deploy") || strings.HasPrefix(kind, "pv") || strings.HasPrefix(kind, "statefulset") || strings.HasPrefix(kind, "sts") || strings.HasPrefix(kind, "node") || strings.HasPrefix(kind, "crd") || strings.HasPrefix(kind, "secret") || strings.HasPrefix(kind, "service") || strings.HasPrefix(kind, "svc") || hasFlag(rest, "-f") {
			return mk(high, "kube-delete", "Deletes "+kind+" from the cluster.", del, sys, net)
		}
		return mk(medium, "kube-delete-one", "Deletes a "+kind+" from the cluster (it may be recreated).", del, net)
	case "drain", "cordon", "taint":
		return mk(high, "kube-drain", "Takes a node out of service, evicting its workloads.", sys, net)
	case "exec", "cp", "port-forward", "attach", "proxy", "run", "debug":
		return mk(medium, "kube-"+cmd, "Runs or reaches into workloads on the cluster.", net)
	case "apply", "create", "replace", "patch", "edit", "scale", "rollout", "set", "label", "annotate", "expose", "autoscale", "uncordon":
		if dry {
			return mk(low, "kube-dry", "Shows what would change.", net)
		}
		if cmd == "rollout" && len(rest) > 0 && (rest[0] == "status" || rest[0] == "history") {
			return mk(low, "kube-read", "Shows rollout status.", net)
		}
		if cmd == "scale" && strings.Contains(strings.Join(rest, " "), "--replicas=0") {
			return mk(high, "kube-scale-zero", "Scales a workload to zero, taking it down.", sys, net)
		}
		return mk(medium, "kube-change", "Changes resources on the cluster.", sys, net)
	}
	return mk(medium, "kube", "Runs kubectl "+cmd+".", net)
}

func rateHelm(args []string) finding {
	cmd, rest := sub(args, "-n", "--namespace", "--kube-context")
	switch cmd {
	case "list", "ls", "status", "get", "history", "show", "inspect", "search", "template", "lint", "version", "env", "verify", "dependency", "repo":
		if cmd == "repo" && len(rest) > 0 && (rest[0] == "add" || rest[0] == "update") {
			return mk(medium, "helm-repo", "Adds or updates chart repositories.", net)
		}
		return mk(low, "helm-read", "Shows releases or charts.", net)
	case "uninstall", "delete", "del":
		return mk(high, "helm-uninstall", "Uninstalls a release and deletes its resources.", del, sys, net)
	case "rollback":
		return mk(medium, "helm-rollback", "Rolls a release back.", sys, net)
	}
	if strings.Contains(strings.Join(rest, " "), "--dry-run") {
		return mk(low, "helm-dry", "Shows what would be installed.", net)
	}
	return mk(medium, "helm-install", "Installs or upgrades a release on the cluster.", sys, net)
}

func rateTerraform(name string, args []string) finding {
	cmd, rest := sub(args, "-chdir")
	j := strings.Join(rest, " ")
	switch cmd {
	case "fmt":
		if strings.Contains(j, "-check") || strings.Contains(j, "-diff") {
			return mk(low, "tf-fmt-check", "Checks formatting.")
		}
		return mk(medium, "tf-fmt", "Rewrites configuration files to canonical format.")
	case "plan", "show", "validate", "output", "graph", "providers", "version", "console", "preview", "stack", "ls", "list", "diff", "synth", "whoami":
		if cmd == "plan" && strings.Contains(j, "-destroy") {
			return mk(low, "tf-plan-destroy", "Plans (without applying) the destruction of the infrastructure.", net)
		}
		if cmd == "stack" && strings.Contains(j, "rm") {
			return mk(high, "pulumi-stack-rm", "Deletes a stack.", del, net)
		}
		return mk(low, "tf-read", "Shows or checks the infrastructure plan.", net)
	case "state":
		if len(rest) > 0 && (rest[0] == "list" || rest[0] == "show" || rest[0] == "pull") {
			return mk(low, "tf-state-read", "Shows the state.")
		}
		return mk(high, "tf-state-change", "Edits the infrastructure state directly.", del, sys)
	case "destroy":
		return mk(high, "tf-destroy", "Destroys the infrastructure this configuration manages.", del, sys, net)
	case "apply", "up", "deploy":
		if strings.Contains(j, "-destroy") {
			return mk(high, "tf-destroy", "Destroys the infrastructure this configuration manages.", del, sys, net)
		}
		if strings.Contains(j, "-auto-approve") || strings.Contains(j, "--yes") || strings.Contains(j, "-y") || strings.Contains(j, "--require-approval never") || strings.Contains(j, "--force") {
			return mk(high, "tf-apply-auto", "Applies infrastructure changes without review.", del, sys, net)
		}
		return mk(medium, "tf-apply", "Applies infrastructure changes after showing the plan.", sys, net)
	case "init", "get", "refresh", "import", "workspace", "login", "logout", "taint", "untaint", "force-unlock", "bootstrap", "config":
		if cmd == "workspace" && len(rest) > 0 && rest[0] == "delete" {
			return mk(high, "tf-workspace-delete", "Deletes a workspace.", del)
		}
		return mk(medium, "tf-"+cmd, "Prepares or changes the infrastructure tooling ("+cmd+").", net)
	case "rm", "remove":
		return mk(high, "pulumi-rm", "Deletes a stack.", del, net)
	}
	return mk(medium, name, "Runs "+name+" "+cmd+".", net)
}

var (
	cloudDelete = regexp.MustCompile(`^(delete|remove|rm|rb|destroy|terminate|purge|deregister|disable|revoke|detach|cancel|deprovision|drop|erase|wipe|kill|reset|stop|scale-down)`)
	cloudRead   = regexp.MustCompile(`^(list|ls|describe|get|show|view|info|whoami|status|account|version|search|lookup|head|wait|help|print|inspect|query|logs|tail|filter-log|read|find|check|validate|test-|estimate|preview|simulate)`)
)

func rateCloud(name string, args []string) finding {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			continue
		}
		words = append(words, a)
	}
	j := strings.Join(args, " ")
	if strings.Contains(j, "--dryrun") || strings.Contains(j, "--dry-run") {
		return mk(low, "cloud-dry", "Shows what the cloud command would do.", net)
	}
	// aws s3 has its own verbs.
	if name == "aws" && len(words) > 1 && words[0] == "s3" {
		switch words[1] {
		case "rm":
			if hasFlag(args, "--recursive") {
				return mk(high, "s3-rm-recursive", "Deletes every object under the S3 prefix.", del, net)
			}
			return mk(high, "s3-rm", "Deletes an S3 object.", del, net)
		case "rb":
			return mk(high, "s3-rb", "Deletes an S3 bucket.", del, net)
		case "sync":
			if hasFlag(args, "--delete") {
				return mk(high, "s3-sync-delete", "Syncs to S3 and deletes objects missing from the source.", del, net)
			}
			return mk(medium, "s3-sync", "Copies files to or from S3.", net)
		case "ls", "presign":
			return mk(low, "s3-read", "Lists S3 objects.", net)
		case "cp", "mv", "mb":
			return mk(medium, "s3-copy", "Copies files to or from S3.", net)
		}
	}
	verb := ""
	for _, w := range words {
		if cloudDelete.MatchString(w) || cloudRead.MatchString(w) || strings.HasPrefix(w, "create") || strings.HasPrefix(w, "put") || strings.HasPrefix(w, "update") || strings.HasPrefix(w, "set") || strings.HasPrefix(w, "deploy") || strings.HasPrefix(w, "run") || strings.HasPrefix(w, "start") || strings.HasPrefix(w, "modify") || strings.HasPrefix(w, "attach") || strings.HasPrefix(w, "add") || strings.HasPrefix(w, "ssh") || strings.HasPrefix(w, "login") || strings.HasPrefix(w, "configure") || strings.HasPrefix(w, "auth") || strings.HasPrefix(w, "invoke") || strings.HasPrefix(w, "publish") || strings.HasPrefix(w, "send") || strings.HasPrefix(w, "copy") || strings.HasPrefix(w, "cp") || strings.HasPrefix(w, "upload") || strings.HasPrefix(w, "download") {
			verb = w
		}
	}
	switch {
	case strings.Contains(j, "get-secret-value") || strings.Contains(j, "secrets versions access") || strings.Contains(j, "keyvault secret show") || strings.Contains(j, "get-parameter") && strings.Contains(j, "--with-decryption") || strings.Contains(j, "print-access-token") || strings.Contains(j, "get-login-password") || strings.Contains(j, "ecr get-login"):
		return mk(medium, "cloud-secret", "Prints a secret from the cloud where the transcript can see it.", exf, net)
	case verb == "":
		return mk(medium, "cloud", "Runs "+name+" "+strings.Join(words[:min(2, len(words))], " ")+".", net)
	case cloudDelete.MatchString(verb):
		if strings.HasPrefix(verb, "stop") || strings.HasPrefix(verb, "cancel") || strings.HasPrefix(verb, "disable") || strings.HasPrefix(verb, "detach") {
			return mk(high, "cloud-disable", "Stops or disables cloud resources ("+verb+").", sys, net)
		}
		return mk(high, "cloud-delete", "Deletes cloud resources ("+verb+").", del, net)
	case cloudRead.MatchString(verb):
		return mk(low, "cloud-read", "Reads cloud resources ("+verb+").", net)
	}
	return mk(medium, "cloud-change", "Changes cloud resources ("+verb+").", sys, net)
}

func rateGH(args []string) finding {
	j := strings.Join(args, " ")
	switch {
	case strings.Contains(j, " delete") && reGHMinor.MatchString(j):
		return mk(medium, "gh-delete-minor", "Deletes a variable, label, cache or run on GitHub.", del, net)
	case strings.Contains(j, " delete") || strings.Contains(j, "-X DELETE") || strings.Contains(j, "--method DELETE") || strings.Contains(j, "archive"):
		return mk(high, "gh-delete", "Deletes something on GitHub.", del, net)
	case strings.HasPrefix(j, "auth token") || strings.HasPrefix(j, "auth status --show-token"):
		return mk(medium, "gh-token", "Prints your GitHub token.", exf, net)
	case reGHRead.MatchString(j) || strings.HasPrefix(j, "api ") && !strings.Contains(j, "-X") && !strings.Contains(j, "--method") && !strings.Contains(j, "-f ") && !strings.Contains(j, "-F "):
		return mk(low, "gh-read", "Reads from GitHub.", net)
	case strings.Contains(j, "secret set") || strings.Contains(j, "visibility") || strings.Contains(j, "ssh-key add"):
		return mk(high, "gh-sensitive", "Changes repository secrets, keys or visibility on GitHub.", sys, net)
	}
	return mk(medium, "gh-change", "Changes something on GitHub.", net)
}

func ratePackage(name string, args []string, c ctx) finding {
	cmd, rest := sub(args, "-C", "--prefix", "--registry", "-w", "--workspace", "--manifest-path", "-p", "--package")
	j := strings.Join(args, " ")
	global := hasFlag(args, "-g", "--global", "--user", "--system", "--break-system-packages") || strings.Contains(j, "--location=global")
	readOnly := set("list", "ls", "outdated", "view", "info", "show", "freeze", "search", "audit", "why", "explain", "config", "help", "version", "env", "doc", "tree", "metadata", "pkgid", "fetch", "verify", "owner", "whoami", "graph", "vet", "mod")
	for _, x := range args {
		if h := urlHost(x); h != "" && untrustedHost(h) {
			return mk(high, name+"-untrusted", "Installs a package from "+h+", an untrusted source, running its code.", net, sys)
		}
	}
	if hasFlag(args, "--list") {
		return mk(low, name+"-list", "Lists installed packages.")
	}
	switch {
	case readOnly[cmd] && !(cmd == "config" && len(rest) > 0 && rest[0] == "set") && !(cmd == "audit" && strings.Contains(j, "fix")) && !(cmd == "mod" && len(rest) > 0 && (rest[0] == "tidy" || rest[0] == "download" || rest[0] == "vendor")):
		if cmd == "view" || cmd == "search" || cmd == "info" || cmd == "outdated" || cmd == "audit" || cmd == "fetch" {
			return mk(low, name+"-read", "Looks up package information.", net)
		}
		return mk(low, name+"-read", "Shows package information.")
	case cmd == "publish" || cmd == "push" || cmd == "upload" || cmd == "release" && name != "cargo":
		return mk(medium, name+"-publish", "Publishes the package to a public registry, which cannot be undone.", net, comp)
	case cmd == "unpublish" || cmd == "yank" || cmd == "deprecate" && strings.Contains(j, "--force"):
		return mk(high, name+"-unpublish", "Removes a published package from the registry.", del, net)
	case cmd == "uninstall" || cmd == "remove" || cmd == "rm" || cmd == "un" || cmd == "r" || cmd == "prune" || cmd == "clean" || cmd == "cache" && len(rest) > 0 && (rest[0] == "clean" || rest[0] == "purge"):
		if global {
			return mk(medium, name+"-uninstall-global", "Uninstalls a package from the system.", sys, del)
		}
		return mk(medium, name+"-uninstall", "Removes a dependency from the project.", del)
	case cmd == "install" || cmd == "i" || cmd == "add" || cmd == "ci" || cmd == "update" || cmd == "upgrade" || cmd == "sync" || cmd == "get" || cmd == "require" || cmd == "restore" || cmd == "bundle" && name != "cargo" || cmd == "" && (name == "yarn" || name == "pnpm" || name == "bundle") || name == "npx" || name == "pipx" || cmd == "tool" || cmd == "inject":
		cats := []assessor.Category{net}
		if global || name == "pipx" || cmd == "install" && (name == "cargo" || name == "go" || name == "gem") {
			cats = append(cats, sys)
		}
		if name == "npx" {
			return mk(medium, "npx", "Downloads and runs a package's program.", net)
		}
		return mk(medium, name+"-install", "Installs dependencies, running their install scripts.", cats...)
	case cmd == "run" || cmd == "test" || cmd == "build" || cmd == "start" || cmd == "exec" || cmd == "dev" || cmd == "serve" || cmd == "bench" || cmd == "check" || cmd == "clippy" || cmd == "compile" || cmd == "package" || cmd == "generate" || cmd == "lint" || cmd == "t" || cmd == "b" || cmd == "r":
		return mk(medium, name+"-run", "Builds, tests or runs the project, executing its code.")
	case cmd == "login" || cmd == "adduser" || cmd == "token":
		return mk(medium, name+"-login", "Logs in to a package registry.", net)
	case cmd == "init" || cmd == "new" || cmd == "create" || cmd == "link" || cmd == "pack" || cmd == "version" || cmd == "set" || cmd == "fix":
		return mk(medium, name+"-"+cmd, "Changes project files ("+name+" "+cmd+").")
	}
	return mk(medium, name, "Runs "+name+" "+cmd+", which runs project or package code.")
}

func rateSystemPackage(name string, args []string) finding {
	cmd, _ := sub(args, "-o", "-t", "--root")
	j := strings.Join(args, " ")
	if name == "dpkg" || name == "rpm" {
		if hasFlag(args, "-l", "-L", "-s", "-q", "-S", "--list", "--status", "--query") {
			return mk(low, "pkg-read", "Lists installed packages.")
		}
		if hasFlag(args, "-r", "-P", "--remove", "--purge", "-e", "--erase") {
			return mk(medium, "pkg-remove", "Removes system packages.", sys, del)
		}
		return mk(medium, "pkg-install", "Installs a system package from a file.", sys)
	}
	if name == "pacman" {
		switch {
		case hasFlag(args, "-Q"), hasFlag(args, "-Ss"), hasFlag(args, "-Si"):
			return mk(low, "pkg-read", "Queries packages.")
		case hasFlag(args, "-R"):
			return mk(medium, "pkg-remove", "Removes system packages.", sys, del)
		}
		return mk(medium, "pkg-install", "Installs or upgrades system packages.", sys, net)
	}
	switch cmd {
	case "list", "search", "show", "info", "policy", "depends", "rdepends", "madison", "list-installed", "deps", "uses", "leaves", "outdated", "doctor", "config", "--version", "history", "provides", "whatprovides", "repolist", "check-update":
		return mk(low, "pkg-read", "Looks up system packages.", net)
	case "remove", "purge", "autoremove", "uninstall", "erase", "rm", "del", "zap", "clean", "autoclean", "cleanup":
		if strings.Contains(j, "--purge") || cmd == "purge" || cmd == "autoremove" || cmd == "zap" {
			return mk(medium, "pkg-purge", "Removes system packages and their configuration.", sys, del)
		}
		return mk(medium, "pkg-remove", "Removes system packages.", sys, del)
	case "update", "install", "upgrade", "dist-upgrade", "full-upgrade", "reinstall", "add", "tap", "refresh", "makecache", "up", "in":
		if cmd == "update" && (name == "apt" || name == "apt-get") {
			return mk(medium, "pkg-update", "Refreshes the package index.", sys, net)
		}
		return mk(medium, "pkg-install", "Installs or upgrades system packages.", sys, net)
	}
	return mk(medium, "pkg", "Manages system packages.", sys)
}

func rateService(name string, args []string) finding {
	cmd, rest := sub(args, "-H", "--host", "-M", "--machine")
	unit := firstOperand(rest)
	if name == "service" {
		unit, cmd = cmd, firstOperand(rest)
	}
	critical := reCriticalUnit
	switch cmd {
	case "status", "list-units", "list-unit-files", "is-active", "is-enabled", "is-failed", "show", "cat", "list-timers", "list-sockets", "list-dependencies", "help", "":
		return mk(low, "service-read", "Shows service status.")
	case "stop", "disable", "mask", "kill":
		if critical.MatchString(unit) {
			return mk(high, "service-stop-critical", "Stops "+unit+", which cuts access or disables a safeguard.", sys)
		}
		return mk(medium, "service-stop", "Stops or disables "+unit+".", sys)
	case "poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "suspend", "hibernate", "isolate":
		return mk(high, "power", "Shuts down, restarts or isolates the machine.", sys)
	case "daemon-reload", "start", "restart", "reload", "enable", "unmask", "try-restart", "reload-or-restart", "edit", "set-property", "link", "preset":
		return mk(medium, "service-change", "Starts, restarts or enables "+orSomething(unit)+".", sys)
	}
	return mk(medium, "service", "Manages system services.", sys)
}

func rateKill(name string, args []string) finding {
	j := strings.Join(args, " ")
	if name == "killall5" || name == "kill" && (containsArg(args, "-1") && len(operands(args)) == 0 || containsArg(operands(args), "-1") || containsArg(args, "1")) {
		return mk(high, "kill-all", "Signals every process, or init, bringing the machine down.", sys)
	}
	if name == "kill" && (containsArg(args, "-l") || containsArg(args, "-L")) {
		return mk(low, "kill-list", "Lists signal names.")
	}
	if reCriticalProcess.MatchString(j) {
		return mk(high, "kill-critical", "Kills a system process that other things depend on.", sys)
	}
	return mk(medium, "kill", "Stops processes.")
}

func rateShellState(s shellparse.Segment, name string, args []string) finding {
	j := strings.Join(args, " ")
	switch name {
	case "env", "printenv":
		if len(args) == 0 {
			return mk(medium, "env-dump", "Prints every environment variable, tokens included.", exf)
		}
		for _, a := range args {
			if secretName(a) && !strings.Contains(a, "=") {
				return mk(medium, "print-secret", "Prints the secret in "+a+".", exf)
			}
		}
		return mk(low, "env", "Prints environment variables.")
	case "echo", "printf":
		for _, a := range args {
			for _, m := range reVarName.FindAllStringSubmatch(a, -1) {
				if secretName(m[1]) {
					return mk(medium, "print-secret", "Prints the secret in $"+m[1]+".", exf)
				}
			}
		}
		return mk(low, "print", "Prints text.")
	case "export", "set", "declare", "typeset", "alias":
		if reHistoryOff.MatchString(j) {
			return mk(high, "history-off", "Turns shell history off, hiding what is run next.", comp)
		}
		if strings.Contains(j, "PATH=") && !strings.Contains(j, "$PATH:") && strings.Contains(j, "PATH=/tmp") || rePathHijack.MatchString(j) || strings.Contains(j, "LD_PRELOAD=") {
			return mk(high, "path-hijack", "Puts an untrusted directory first in the search path, so its programs run instead of the real ones.", sys)
		}
		if strings.Contains(j, "PATH=") {
			return mk(medium, "path-change", "Changes which programs run for this shell (PATH).", sys)
		}
		if name == "alias" && len(args) > 0 && reAliasHijack.MatchString(args[0]) {
			return mk(high, "alias-hijack", "Redefines a common command.", sys)
		}
		for _, a := range args {
			if k, _, ok := strings.Cut(a, "="); ok && secretName(k) {
				return mk(medium, "secret-in-env", "Puts a secret on the command line and in the environment.", exf)
			}
		}
		return mk(low, "shell-state", "Sets shell variables or options.")
	}
	_ = s
	return mk(low, "shell-state", "Changes the shell's state.")
}

func rateUsers(name string, args []string) finding {
	j := strings.Join(args, " ")
	switch {
	case name == "userdel" || name == "deluser" || name == "groupdel":
		return mk(high, "user-delete", "Deletes a user account or group.", del, sys)
	case strings.Contains(j, "-o") && strings.Contains(j, "-u 0") || strings.Contains(j, "-u 0") || strings.Contains(j, "--uid 0"):
		return mk(high, "uid0", "Creates or changes an account with uid 0 (root).", priv, sys)
	case reAdminGroup.MatchString(j) || name == "gpasswd" && reAdminName.MatchString(j):
		return mk(high, "grant-admin", "Adds a user to an administrators' group.", priv, sys)
	case name == "visudo":
		return mk(high, "sudoers", "Edits who may use sudo.", priv, sys)
	case name == "passwd" && hasFlag(args, "-S", "--status"):
		return mk(low, "passwd-status", "Shows password status.")
	case name == "visudo" && hasFlag(args, "-c", "--check"):
		return mk(low, "visudo-check", "Checks the sudoers file's syntax.")
	case name == "passwd" && len(args) == 0:
		return mk(medium, "passwd", "Changes your password.", sys)
	case name == "passwd" && len(operands(args)) > 0:
		return mk(high, "passwd-other", "Sets another account's password.", priv, sys)
	case name == "passwd" && hasFlag(args, "-d", "--delete"):
		return mk(high, "passwd-delete", "Removes an account's password.", priv, sys)
	}
	return mk(medium, "user-change", "Creates or changes user accounts.", sys)
}

func rateFirewall(name string, args []string) finding {
	j := strings.Join(args, " ")
	switch name {
	case "ufw":
		switch {
		case strings.HasPrefix(j, "disable") || strings.Contains(j, "reset"):
			return mk(high, "firewall-off", "Turns the firewall off or resets it.", sys)
		case strings.HasPrefix(j, "status") || strings.HasPrefix(j, "app list") || strings.HasPrefix(j, "show"):
			return mk(low, "firewall-read", "Shows firewall rules.")
		}
		return mk(medium, "firewall-change", "Changes firewall rules.", sys)
	case "iptables", "ip6tables":
		switch {
		case hasFlag(args, "-F", "--flush", "-X", "--delete-chain") || hasFlag(args, "-P", "--policy") && strings.Contains(j, "ACCEPT"):
			return mk(high, "firewall-flush", "Removes firewall rules, opening the machine.", sys)
		case hasFlag(args, "-P", "--policy"):
			return mk(high, "firewall-policy", "Changes the firewall's default policy.", sys)
		case hasFlag(args, "-L", "--list", "-S", "--list-rules"):
			return mk(low, "firewall-read", "Lists firewall rules.")
		}
		return mk(medium, "firewall-change", "Changes firewall rules.", sys)
	case "nft":
		switch {
		case strings.Contains(j, "flush") || strings.HasPrefix(j, "delete"):
			return mk(high, "firewall-flush", "Removes firewall rules, opening the machine.", sys)
		case strings.HasPrefix(j, "list"):
			return mk(low, "firewall-read", "Lists firewall rules.")
		}
		return mk(medium, "firewall-change", "Changes firewall rules.", sys)
	case "firewall-cmd":
		switch {
		case strings.Contains(j, "--panic-on") || strings.Contains(j, "--set-default-zone=trusted"):
			return mk(high, "firewall-panic", "Cuts all network traffic or trusts everything.", sys)
		case strings.Contains(j, "--list") || strings.Contains(j, "--get") || strings.Contains(j, "--state") || strings.Contains(j, "--query"):
			return mk(low, "firewall-read", "Shows firewall settings.")
		}
		return mk(medium, "firewall-change", "Changes firewall rules.", sys)
	}
	return mk(medium, "firewall", "Changes the firewall.", sys)
}

func rateNetwork(name string, args []string) finding {
	j := strings.Join(args, " ")
	if name == "ifdown" || reNetDown.MatchString(j) {
		if strings.Contains(j, "route") && strings.Contains(j, "default") || name == "ifdown" || strings.Contains(j, "link set") && strings.Contains(j, "down") || name == "ifconfig" || strings.Contains(j, "flush") || name == "nmcli" {
			return mk(high, "net-down", "Takes a network interface or the default route down.", sys)
		}
		return mk(medium, "net-change", "Changes network settings.", sys)
	}
	if reNetChange.MatchString(j) || name == "ifup" {
		return mk(medium, "net-change", "Changes network settings.", sys)
	}
	return mk(low, "net-read", "Shows network settings.")
}

func rateSystem(name string, args []string) finding {
	j := strings.Join(args, " ")
	switch name {
	case "umount":
		if hasFlag(args, "-a", "--all") || containsArg(args, "/") {
			return mk(high, "umount-all", "Unmounts every file system.", sys)
		}
		return mk(medium, "umount", "Unmounts a file system.", sys)
	case "mount":
		if len(operands(args)) == 0 && !hasFlag(args, "-a", "--all", "-o") || hasFlag(args, "-l") {
			return mk(low, "mount-read", "Lists mounted file systems.")
		}
		return mk(medium, "mount", "Mounts a file system.", sys)
	case "sysctl":
		if hasFlag(args, "-w", "--write", "-p", "--load") || strings.Contains(j, "=") {
			if strings.Contains(j, "kernel.randomize_va_space=0") || strings.Contains(j, "ptrace_scope=0") || strings.Contains(j, "dmesg_restrict=0") {
				return mk(high, "sysctl-weaken", "Turns a kernel safeguard off.", sys)
			}
			return mk(medium, "sysctl", "Changes a kernel setting.", sys)
		}
		return mk(low, "sysctl-read", "Shows kernel settings.")
	case "swapoff":
		return mk(medium, "swapoff", "Turns swap off.", sys)
	}
	return mk(medium, name, "Changes the running system ("+name+").", sys)
}

func rateArchive(name string, args []string, c ctx) finding {
	j := strings.Join(args, " ")
	switch name {
	case "tar":
		if hasFlag(args, "-t", "--list") || strings.HasPrefix(j, "t") {
			return mk(low, "tar-list", "Lists an archive's contents.")
		}
		f, ok := flagValue(args, "-f", "--file")
		for i, x := range args {
			if len(x) > 1 && x[0] == '-' && x[1] != '-' && strings.HasSuffix(x, "f") && i+1 < len(args) {
				f, ok = args[i+1], true
			}
		}
		if ok && (hasFlag(args, "-c", "--create") || strings.HasPrefix(j, "c")) && !archiveExt.MatchString(f) {
			if ops := operands(args); len(ops) > 0 && archiveExt.MatchString(ops[0]) {
				return mk(high, "tar-overwrite", "Writes the archive over "+f+" (the arguments are in the wrong order).", del)
			}
		}
		dir, _ := flagValue(args, "-C", "--directory")
		if dir != "" {
			if sc := scopeOf(dir, c.cwd); sc >= scopeSystem {
				return mk(high, "extract-system", "Extracts files into "+dir+", overwriting system files.", sys)
			}
		}
		if strings.Contains(j, "--to-command") || strings.Contains(j, "--checkpoint-action") || strings.Contains(j, "--use-compress-program") {
			return mk(high, "tar-exec", "Makes tar run a command, escaping command restrictions.", priv)
		}
		return mk(medium, "archive", "Creates or extracts an archive.")
	case "unzip":
		if hasFlag(args, "-l", "-v", "-t", "-Z", "-c", "-p") {
			return mk(low, "archive-list", "Lists an archive's contents.")
		}
	case "zip":
		if strings.Contains(j, "-TT") || strings.Contains(j, "--unzip-command") {
			return mk(high, "zip-exec", "Makes zip run a command, escaping command restrictions.", priv)
		}
		if hasFlag(args, "-sf", "--show-files") {
			return mk(low, "archive-list", "Lists an archive's contents.")
		}
	case "7z":
		if len(args) > 0 && args[0] == "l" {
			return mk(low, "archive-list", "Lists an archive's contents.")
		}
	}
	return mk(medium, "archive", "Creates or extracts an archive.")
}

var archiveExt = regexp.MustCompile(`\.(tar|tgz|tbz2?|txz|gz|bz2|xz|zst|zip|7z)$`)

var sqlDanger = regexp.MustCompile(`(?i)\b(drop\s+(table|database|schema|index|user|role|keyspace|collection)|truncate\s+(table\s+)?\w|delete\s+from\s+\w+\s*(;|$|"|')|flushall|flushdb|dropDatabase|\.drop\(\)|deleteMany\(\{\}\)|alter\s+table\s+\w+\s+drop)`)
var sqlWrite = regexp.MustCompile(`(?i)\b(insert\s+into|update\s+\w+\s+set|create\s+(table|database|index|user)|alter\s+|grant\s+|delete\s+from|revoke\s+)`)

func rateData(name string, args []string, j string) finding {
	switch {
	case name == "dropdb":
		return mk(high, "dropdb", "Deletes a whole database.", del)
	case name == "pg_dumpall" || name == "mysqldump" && strings.Contains(j, "--all-databases") || name == "mongodump" && !strings.Contains(j, "--db"):
		return mk(medium, "db-dump-all", "Dumps every database, copying all the data.", comp)
	case name == "pg_dump" || name == "mysqldump" || name == "mongodump":
		return mk(medium, "db-dump", "Dumps a database to a file.")
	case name == "mysqladmin" && (strings.Contains(j, "drop") || strings.Contains(j, "shutdown")):
		return mk(high, "db-admin-drop", "Drops a database or shuts the server down.", del, sys)
	case name == "redis-cli" && reRedisFlush.MatchString(j):
		return mk(high, "redis-flush", "Deletes every key in Redis.", del)
	case name == "redis-cli" && reRedisAdmin.MatchString(j):
		return mk(high, "redis-admin", "Reconfigures or stops the Redis server.", sys)
	case name == "redis-cli" && reRedisDel.MatchString(j):
		return mk(medium, "redis-del", "Deletes Redis keys.", del)
	case name == "redis-cli" && reRedisWrite.MatchString(j):
		return mk(medium, "redis-write", "Writes Redis keys.")
	case name == "redis-cli" && len(operands(args)) > 0:
		return mk(low, "redis-read", "Reads from Redis.")
	case sqlDanger.MatchString(j):
		return mk(high, "sql-drop", "Deletes database data or tables.", del)
	case sqlWrite.MatchString(j):
		return mk(medium, "sql-write", "Changes database data or structure.")
	case name == "vault":
		cmd, rest := sub(args)
		sub2, _ := sub(rest)
		switch {
		case strings.Contains(j, "destroy") || strings.Contains(j, "delete") || sub2 == "delete" || strings.Contains(j, "metadata delete"):
			return mk(high, "vault-delete", "Deletes secrets from Vault.", del, net)
		case strings.Contains(j, "disable") || strings.Contains(j, "revoke") || strings.Contains(j, "seal"):
			return mk(high, "vault-disable", "Disables or revokes Vault auth, secrets or tokens.", sys, net)
		case cmd == "read" || sub2 == "get" || strings.Contains(j, "token create") || strings.Contains(j, "print token"):
			return mk(medium, "vault-read-secret", "Prints secrets from Vault.", exf, net)
		case sub2 == "list" || cmd == "status" || cmd == "list":
			return mk(low, "vault-list", "Lists Vault paths.", net)
		}
		return mk(medium, "vault-write", "Writes secrets or settings to Vault.", sys, net)
	case name == "doppler" || name == "op" || name == "bw" || name == "lpass":
		switch {
		case strings.Contains(j, "delete") || strings.Contains(j, " rm"):
			return mk(high, name+"-delete", "Deletes secrets.", del, net)
		case strings.Contains(j, "download") || strings.Contains(j, " get") || strings.HasPrefix(j, "get") || strings.Contains(j, " read") || strings.HasPrefix(j, "read") || strings.Contains(j, "show") || strings.Contains(j, "export") || strings.Contains(j, "secrets --") || strings.HasPrefix(j, "run"):
			return mk(medium, name+"-read-secret", "Prints or injects secrets.", exf, net)
		case strings.Contains(j, "list") || strings.Contains(j, "ls"):
			return mk(low, name+"-list", "Lists secrets' names.", net)
		}
		return mk(medium, name+"-write", "Changes secrets.", sys, net)
	case name == "kafka-topics":
		if strings.Contains(j, "--delete") {
			return mk(high, "kafka-delete", "Deletes a Kafka topic and its messages.", del)
		}
		if strings.Contains(j, "--create") || strings.Contains(j, "--alter") {
			return mk(medium, "kafka-change", "Creates or changes a Kafka topic.", sys)
		}
		return mk(low, "kafka-read", "Lists Kafka topics.")
	case name == "rabbitmqctl":
		switch {
		case strings.Contains(j, "delete_vhost") || strings.Contains(j, "purge_queue") || strings.Contains(j, "delete_queue") || strings.Contains(j, "reset") || strings.Contains(j, "force_reset"):
			return mk(high, "rabbit-delete", "Deletes RabbitMQ data.", del)
		case strings.Contains(j, "delete_user") || strings.Contains(j, "set_permissions") || strings.Contains(j, "set_user_tags") && strings.Contains(j, "administrator"):
			return mk(high, "rabbit-users", "Changes RabbitMQ users or permissions.", sys)
		case strings.Contains(j, "list") || strings.Contains(j, "status"):
			return mk(low, "rabbit-read", "Shows RabbitMQ state.")
		}
		return mk(medium, "rabbit-change", "Changes RabbitMQ.", sys)
	case name == "nats":
		if strings.Contains(j, "purge") || strings.Contains(j, " rm") || strings.Contains(j, "delete") {
			return mk(high, "nats-delete", "Deletes NATS stream data.", del)
		}
		return mk(medium, "nats", "Uses NATS.")
	case name == "restic" || name == "borg" || name == "kopia" || name == "duplicity":
		switch {
		case strings.Contains(j, "forget") || strings.Contains(j, "prune") || strings.Contains(j, "delete") || strings.Contains(j, "remove"):
			return mk(high, "backup-delete", "Deletes backups.", del)
		case strings.Contains(j, "snapshots") || strings.Contains(j, "list") || strings.Contains(j, "check") || strings.Contains(j, "stats") || strings.HasPrefix(j, "ls"):
			return mk(low, "backup-read", "Lists backups.")
		case strings.Contains(j, "restore"):
			return mk(medium, "backup-restore", "Restores files from a backup.")
		}
		return mk(medium, "backup", "Makes a backup.")
	case name == "etcdctl" || name == "consul":
		if strings.Contains(j, " del") || strings.HasPrefix(j, "del") || strings.Contains(j, "delete") {
			return mk(high, name+"-delete", "Deletes keys from the cluster store.", del)
		}
		if strings.Contains(j, " put") || strings.HasPrefix(j, "put") {
			return mk(medium, name+"-put", "Writes keys to the cluster store.", sys)
		}
		return mk(low, name+"-read", "Reads from the cluster store.")
	}
	if strings.Contains(j, "source ") || strings.Contains(j, "\\i ") {
		return mk(medium, "db-script", "Runs an SQL script against the database.")
	}
	if strings.Contains(j, "-c") || strings.Contains(j, "-e") || strings.Contains(j, "--eval") || strings.Contains(j, "--execute") {
		return mk(low, "db-query", "Runs a read-only database query.")
	}
	if name == "redis-cli" || len(operands(args)) <= 1 {
		return mk(medium, name, "Opens an interactive database session with "+name+".")
	}
	return mk(medium, name, "Opens a database session with "+name+".")
}

func rateOffensive(name string, args []string) finding {
	j := strings.Join(args, " ")
	switch name {
	case "hydra", "medusa", "sqlmap", "crackmapexec", "netexec", "responder", "ettercap", "msfconsole", "msfvenom":
		return mk(high, "attack-tool", "Runs "+name+", an attack tool against other systems.", comp, net)
	case "john", "hashcat":
		if strings.Contains(j, "--list") || strings.Contains(j, "--help") {
			return mk(low, "crack-info", "Shows the cracker's options.")
		}
		if strings.Contains(j, "--show") && name == "hashcat" {
			return mk(low, "cracked-show", "Shows already cracked passwords.")
		}
		if strings.Contains(j, "--show") {
			return mk(medium, "cracked-show", "Shows cracked passwords.", comp)
		}
		return mk(medium, "crack", "Cracks password hashes offline.", comp, res)
	case "tcpdump", "tshark", "wireshark":
		if hasFlag(args, "-r") {
			return mk(low, "pcap-read", "Reads a packet capture file.")
		}
		return mk(medium, "capture", "Captures network traffic.", priv, comp)
	case "linpeas", "linpeas.sh", "pspy", "enum4linux", "searchsploit":
		return mk(medium, "recon", "Runs a reconnaissance tool.", comp)
	case "chisel", "ligolo":
		return mk(high, "tunnel", "Opens a covert network tunnel.", exf, net)
	}
	if strings.Contains(j, "axfr") {
		return mk(medium, "zone-transfer", "Requests a DNS zone transfer.", comp, net)
	}
	return mk(medium, "scan", "Scans hosts or web paths with "+name+".", comp, net)
}

func rateJenkins(args []string) finding {
	j := strings.Join(args, " ")
	switch {
	case strings.Contains(j, "delete"):
		return mk(high, "jenkins-delete", "Deletes Jenkins jobs or builds.", del, net)
	case strings.Contains(j, "credentials"):
		return mk(medium, "jenkins-credentials", "Reads stored credentials from Jenkins.", exf, net)
	case strings.Contains(j, "groovy") || strings.Contains(j, "script"):
		return mk(high, "jenkins-script", "Runs a script on the Jenkins server.", sys, net)
	}
	return mk(medium, "jenkins", "Talks to Jenkins.", net)
}
