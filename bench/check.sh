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
run_as() { echo "env HOME=$base/$1 XDG_RUNTIME_DIR=$base/$1/run $bin/airlock"; }
echo "# $(uname -sr), $(nproc) cores, $runs runs each after 10 warm-up runs"
echo "# rules files: small $(size "$base/small/.config/airlock/rules/default.rules") bytes (22 rules), large $(size "$base/large/.config/airlock/rules/default.rules") bytes (2002 rules)"
"$driver" -n "$runs" \
  "bare true=/bin/true" \
  "env + airlock version=$(run_as none) version" \
  "check git status (no rules)=$(run_as none) check -- git status" \
  "check git status (22 rules)=$(run_as small) check -- git status" \
  "check git status (2002 rules)=$(run_as large) check -- git status" \
  "check compound line (22 rules)=$(run_as small) check -- bash -lc 'git status && ls | wc -l; echo \$(id)'"
