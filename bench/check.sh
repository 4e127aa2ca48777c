#!/usr/bin/env bash
# Benchmarks `airlock check -- git status` (config + rules + parse, no
# plugin start) with no rules, a small and a large rules file, side by
# side with `airlock version` (the cost of starting the binary at all)
# and bare /bin/true. Prints a table; run with `make bench`.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-$here/bin}
runs=${RUNS:-200}
base=$(mktemp -d /var/tmp/airlock-bench.XXXXXX)
trap 'rm -rf "$base"' EXIT
driver="$base/.runbench"
(cd "$here" && go build -o "$driver" ./bench/runbench)

# Three users: no rules; 20 rules; 2000 rules (with examples checked).
mkhome() { mkdir -p "$base/$1/.config/airlock/rules" "$base/$1/run"; chmod 700 "$base/$1/run"; }
mkhome none; mkhome small; mkhome large
gen() {
  local n=$1 out=$2 i
  : >"$out"
  for ((i = 0; i < n; i++)); do
    printf 'prefix_rule(pattern = ["tool%d", ["build", "test"]], decision = "allow", match = ["tool%d build x"], not_match = ["tool%d run"])\n' "$i" "$i" "$i" >>"$out"
  done
  printf 'prefix_rule(pattern = ["git", "push"], decision = "prompt", justification = "remote")\n' >>"$out"
  printf 'prefix_rule(pattern = ["rm"], decision = "forbidden")\n' >>"$out"
}
gen 20 "$base/small/.config/airlock/rules/default.rules"
gen 2000 "$base/large/.config/airlock/rules/default.rules"
size() { wc -c <"$1" | tr -d ' '; }

ws="$base/ws"; mkdir -p "$ws"; git -C "$ws" init -q; cd "$ws"
echo "# $(uname -sr), $(nproc) cores, $runs runs each after 10 warm-up runs"
echo "# rules files: small $(size "$base/small/.config/airlock/rules/default.rules") bytes (22 rules), large $(size "$base/large/.config/airlock/rules/default.rules") bytes (2002 rules)"
echo "# each user's HOME is exported for the driver, so no env(1) start-up is measured"
# as USER LABEL=CMD...: run the driver with that user's HOME.
as() {
  local user=$1; shift
  HOME=$base/$user XDG_RUNTIME_DIR=$base/$user/run "$driver" -n "$runs" "$@" | sed 1d
}
printf '%-32s %10s %10s %10s %12s  %s\n' command median p90 mean "peak mem" failures
as none "bare true=/bin/true" "airlock version=$bin/airlock version" "check git status (no rules)=$bin/airlock check -- git status"
as small "check git status (22 rules)=$bin/airlock check -- git status" "check compound line (22 rules)=$bin/airlock check -- bash -lc 'git status && ls | wc -l; echo \$(id)'"
as large "check git status (2002 rules)=$bin/airlock check -- git status"
