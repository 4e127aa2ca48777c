#!/usr/bin/env bash
# The risk assessor on ../shared/data/risk_corpus.tsv: the evaluation table
# (through the plugin, as airlock uses it), the in-process latency, and
# `airlock assess --batch` over the whole corpus end to end. Run with
# `make bench`.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-$here/bin}
corpus=${CORPUS:-$here/../shared/data/risk_corpus.tsv}
[ -f "$corpus" ] || { echo "bench/assess.sh: no corpus at $corpus (set CORPUS)" >&2; exit 1; }
tmp=$(mktemp -d /var/tmp/airlock-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/run"; chmod 700 "$tmp/run"
al() { HOME=$tmp XDG_RUNTIME_DIR=$tmp/run "$bin/airlock" "$@"; }

echo "# evaluation through the plugin ($(wc -l <"$corpus") lines)"
al assess --eval "$corpus"

echo
echo "# in process (go test -bench)"
(cd "$here" && go test ./plugins/assessor/internal/rules -run '^$' -bench BenchmarkAssessCorpus -benchtime 20x | grep -E 'Benchmark')
(cd "$here" && go test ./plugins/assessor/internal/rules -run TestCorpusTargets -count=1 -v | grep -E 'latency per command')

echo
tail -n +2 "$corpus" | cut -f2 >"$tmp/lines"
n=$(wc -l <"$tmp/lines")
start=$(date +%s%N)
al assess --batch <"$tmp/lines" >"$tmp/out"
end=$(date +%s%N)
got=$(wc -l <"$tmp/out")
printf '# airlock assess --batch over %d lines: %d JSON lines in %.0f ms (target: 1000 ms)\n' "$n" "$got" "$(( (end - start) / 1000000 ))"
