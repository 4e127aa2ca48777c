#!/usr/bin/env bash
# What judging a typed line costs in an integrated shell: the time
# _airlock_decide takes for an allowed line (`ls -la`, `git status`), in
# zsh and bash, on a pseudo-terminal as in real use, through the shell's
# judge server and (for comparison) with a new airlock process per line. This is the delay
# airlock adds before the line runs (target: median 5 ms). Baseline: the
# same loop around a shell function that does nothing, and one that only
# spawns /bin/true (what any external command costs on the machine at that
# moment). Run with `make bench`.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-$here/bin}
runs=${RUNS:-200}
tmp=$(mktemp -d /var/tmp/airlock-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/run" "$tmp/ws"; chmod 700 "$tmp/run"
git -C "$tmp/ws" init -q

# Each shell prints "label median p90" in milliseconds.
cat >"$tmp/bench.zsh" <<ZSH
eval "\$($bin/airlock init zsh)"
zmodload zsh/datetime
_noop() { : }
_spawn() { local x; x=\$(exec /bin/true) }
measure() {
  local label=\$1; shift
  local -a t; local i s
  for i in {1..$runs}; do s=\$EPOCHREALTIME; "\$@"; t+=(\$(( (EPOCHREALTIME - s) * 1000 ))); done
  t=(\${(n)t})
  printf '%-34s %8.2f %8.2f\n' "\$label" \$t[\$(( $runs / 2 ))] \$t[\$(( $runs * 9 / 10 ))]
}
cd $tmp/ws
measure "zsh: baseline (empty function)" _noop
measure "zsh: spawn /bin/true (reference)" _spawn
measure "zsh: judge 'ls -la'" _airlock_decide 'ls -la'
measure "zsh: judge 'git status'" _airlock_decide 'git status'
measure "zsh: judge 'make test && ls | wc'" _airlock_decide 'make test && ls | wc -l'
AIRLOCK_NO_SERVER=1 measure "zsh: judge 'ls -la', no server" _airlock_decide 'ls -la'
ZSH
cat >"$tmp/bench.bash" <<BASH
eval "\$($bin/airlock init bash)"
_noop() { :; }
_spawn() { local x; x=\$(exec /bin/true); }
measure() {
  local label=\$1; shift
  local t=() i s e
  for ((i = 0; i < $runs; i++)); do s=\$EPOCHREALTIME; "\$@"; e=\$EPOCHREALTIME; t+=("\$(echo "(\$e - \$s) * 1000" | bc -l)"); done
  IFS=\$'\n' t=(\$(printf '%s\n' "\${t[@]}" | sort -g)); unset IFS
  printf '%-34s %8.2f %8.2f\n' "\$label" "\${t[$runs / 2]}" "\${t[$runs * 9 / 10]}"
}
cd $tmp/ws
measure "bash: baseline (empty function)" _noop
measure "bash: spawn /bin/true (reference)" _spawn
measure "bash: judge 'ls -la'" _airlock_decide 'ls -la'
measure "bash: judge 'git status'" _airlock_decide 'git status'
AIRLOCK_NO_SERVER=1 measure "bash: judge 'ls -la', no server" _airlock_decide 'ls -la'
BASH

echo "# $(uname -sr), $(nproc) cores, $runs runs each; milliseconds"
printf '%-34s %8s %8s\n' "what" "median" "p90"
for sh in zsh bash; do
  command -v "$sh" >/dev/null || { echo "# $sh not installed"; continue; }
  HOME=$tmp XDG_RUNTIME_DIR=$tmp/run script -qec "$sh -i $tmp/bench.$sh" /dev/null </dev/null | tr -d '\r' | grep -E '^(zsh|bash):'
done
