#!/usr/bin/env bash
# Runs the shared escape suite (../shared/escape-suite) through
# `airlock exec`: the core cases, then the read-deny variant. As root it
# runs everything again as uid 65534, since most people are not root.
# Exits non-zero if any case fails.
set -u
bin=$(cd "${1:-bin}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
suite="$here/../shared/escape-suite/run.sh"
if [ ! -x "$suite" ]; then
  echo "escape suite not found at $suite (it lives in ../shared beside the checkout)" >&2
  exit 1
fi
base=$(mktemp -d /var/tmp/airlock-escape.XXXXXX)
trap 'rm -rf "$base"' EXIT
chmod 0755 "$base"
# A copy the unprivileged user can execute, owned by root and not writable
# by others, as the plugin checks require.
install -d -m 0755 "$base/bin"
install -m 0755 "$bin"/airlock "$bin"/airlock-broker "$bin"/airlock-sandbox-linux "$bin"/airlock-sandbox-linux-launcher "$bin"/airlock-assessor "$base/bin/"

rc=0
run() { # run LABEL ENV... -- suite args
  local label=$1; shift
  echo "== $label"
  if ! "$@"; then rc=1; fi
}
core=(exec -s workspace-write --network off -a never --)
deny=(exec -s workspace-write --network off -a never --deny-read {HOME} --deny-read {OUTSIDE} --)
mkdir -p "$base/root"
run "as $(id -un): core" env PATH="$base/bin:$PATH" ESC_BASE="$base/root" "$suite" --core -- airlock "${core[@]}"
run "as $(id -un): core --read-deny" env PATH="$base/bin:$PATH" ESC_BASE="$base/root" "$suite" --core --read-deny -- airlock "${deny[@]}"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  install -d -m 0755 -o 65534 -g 65534 "$base/nobody" "$base/nobody-home"
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME="$base/nobody-home" PATH="$base/bin:/usr/local/bin:/usr/bin:/bin" ESC_BASE="$base/nobody")
  run "as uid 65534: core" "${as_nobody[@]}" "$suite" --core -- airlock "${core[@]}"
  run "as uid 65534: core --read-deny" "${as_nobody[@]}" "$suite" --core --read-deny -- airlock "${deny[@]}"
fi
# The fallback without user namespaces, inside a user namespace whose
# max_user_namespaces is 0. It must pass every case except those it reports
# as lost (see 'airlock doctor'): visible outside processes, outside
# chmod/chown and protected .git.
if command -v unshare >/dev/null && unshare -Ur true 2>/dev/null; then
  mkdir -p "$base/fallback"
  lost='^(proc\.ps-visible|fs-write\.chmod|fs-write\.chown|persistence\.git-hooks|persistence\.git-config|persistence\.git-dir-swap)$'
  run "fallback (no user namespaces): core minus reported losses" \
    env PATH="$base/bin:$PATH" ESC_BASE="$base/fallback" AIRLOCK_SANDBOX__ALLOW_DEGRADED=true \
    unshare -Ur sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"' sh \
    "$suite" --core -x "$lost" -- airlock "${core[@]}"
fi
exit $rc
