# Sourced by the sandbox benchmarks: $here (the checkout), $bin (the
# binaries), $ws (a scratch git workspace outside /tmp, removed on exit,
# the working directory from here on) and $driver (runbench, built there).
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-$here/bin}
ws=$(mktemp -d /var/tmp/airlock-bench.XXXXXX)
trap 'rm -rf "$ws"' EXIT
git -C "$ws" init -q
cd "$ws"
driver="$ws/.runbench"
(cd "$here" && go build -o "$driver" ./bench/runbench)
