#!/usr/bin/env bash
# The README's first command: airlock's main job on built-in defaults, with
# no configuration. A throwaway workspace gets one write inside it
# (allowed) and one outside it (blocked by the sandbox).
set -u
airlock=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/airlock-demo.XXXXXX")
trap 'rm -rf "$scratch"; rm -f "$HOME/.airlock-demo-outside-$$"' EXIT
# The outside target is in your home directory, which the sandbox shows
# read-only. (Not under /tmp: each sandboxed command gets a private /tmp,
# where a write lands in a throwaway area instead of failing.)
ws="$scratch/workspace"
outside="$HOME/.airlock-demo-outside-$$"
mkdir -p "$ws"
cd "$ws" || exit 1

say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

say "airlock exec -- sh -c 'echo hello > inside.txt'     # inside the workspace"
"$airlock" exec -- sh -c 'echo hello > inside.txt'
echo "exit status $?; inside.txt contains: $(cat inside.txt 2>/dev/null || echo '(missing)')"

say "airlock exec -- sh -c 'echo pwned > $outside'     # outside the workspace"
"$airlock" exec -- sh -c "echo pwned > '$outside'"
status=$?
if [ -e "$outside" ]; then
  echo "exit status $status; FAIL: $outside was written"; exit 1
fi
echo "exit status $status; $outside does not exist: the sandbox blocked the write"

say "airlock exec -- sh -c 'exit 7'     # the command's own exit status comes back"
"$airlock" exec -- sh -c 'exit 7'
echo "exit status $?"

say "airlock exec -- bash -c 'echo > /dev/tcp/1.1.1.1/80'     # network is off by default"
"$airlock" exec -- bash -c 'echo > /dev/tcp/1.1.1.1/80' 2>&1 | head -1
echo
echo "Next: 'airlock exec -- YOUR COMMAND' in a project directory, 'airlock doctor', 'airlock config'."
