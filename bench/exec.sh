#!/usr/bin/env bash
# Benchmarks `airlock exec -s workspace-write --network off -- /bin/true`
# side by side with bare /bin/true and a hardened bubblewrap prefix (the
# baseline the escape suite names), plus Codex and srt when CODEX_BIN /
# SRT_BIN point at them. Prints a table; run with `make bench`.
set -eu
. "$(dirname "$0")/workspace.sh"
runs=${RUNS:-200}

cmds=("bare true=/bin/true")
if command -v bwrap >/dev/null; then
  cmds+=("bwrap (hardened)=bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind $ws $ws --ro-bind $ws/.git $ws/.git --unshare-net --unshare-pid --unshare-ipc --unshare-user --disable-userns --cap-drop ALL --new-session --die-with-parent /bin/true")
fi
cmds+=("airlock exec (ws-write)=$bin/airlock exec -s workspace-write --network off -- /bin/true")
# The same without reusing the backend's launch-spec template: the plugin
# starts for every command (env adds its own ~1 ms).
cmds+=("  ...no spec reuse=env AIRLOCK_PLUGIN__REUSE_LAUNCH_SPECS=false $bin/airlock exec -s workspace-write --network off -- /bin/true")
cmds+=("airlock exec (danger)=$bin/airlock exec -s danger-full-access -- /bin/true")
# Codex CLI 0.1xx: `codex sandbox [--] COMMAND` runs under the Linux
# sandbox (older releases spelled it `codex sandbox linux COMMAND`).
if [ -n "${CODEX_BIN:-}" ]; then cmds+=("codex sandbox=$CODEX_BIN sandbox -- /bin/true"); fi
# srt needs ripgrep and socat on PATH.
if [ -n "${SRT_BIN:-}" ]; then cmds+=("srt=$SRT_BIN /bin/true"); fi

echo "# $(uname -sr), $(nproc) cores, uid $(id -u), $runs runs each after 10 warm-up runs"
"$driver" -n "$runs" "${cmds[@]}"
