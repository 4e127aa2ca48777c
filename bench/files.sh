#!/usr/bin/env bash
# Benchmarks file-heavy work under the sandbox, where the launcher's
# seccomp supervisor sees every create: 3,000 files made and removed by a
# shell loop, and a local git clone of this repository. Side by side with
# no sandbox (danger-full-access) and the hardened bubblewrap prefix.
set -eu
. "$(dirname "$0")/workspace.sh"
runs=${FILES_RUNS:-5}
cat >"$ws/.files.sh" <<SH
rm -rf "$ws/d" && mkdir "$ws/d" && cd "$ws/d" && i=0
while [ \$i -lt 3000 ]; do : > f\$i; i=\$((i+1)); done
rm -rf "$ws/d"
SH
cat >"$ws/.clone.sh" <<SH
rm -rf "$ws/c" && git clone -q "$here" "$ws/c" && rm -rf "$ws/c"
SH
runs=$((runs < 3 ? 3 : runs))
for job in files clone; do
  cmds=("$job, no sandbox=$bin/airlock exec -s danger-full-access -- sh $ws/.$job.sh")
  if command -v bwrap >/dev/null; then
    cmds+=("$job, bwrap (hardened)=bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind $ws $ws --ro-bind $ws/.git $ws/.git --unshare-net --unshare-pid --unshare-ipc --unshare-user --disable-userns --cap-drop ALL --new-session --die-with-parent sh $ws/.$job.sh")
  fi
  cmds+=("$job, airlock (ws-write)=$bin/airlock exec -s workspace-write --network off -- sh $ws/.$job.sh")
  "$driver" -n "$runs" -warmup 1 "${cmds[@]}"
done
