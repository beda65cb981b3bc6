#!/bin/bash
# Times e2e spec files in two checkouts side by side, in the same conditions: for each file, the baseline
# checkout, then this one (alternately, so a change of load hits both). Prints one Markdown row per run:
# the wall time, the CPU time (user + sys of Jest and every child process it waited for) and the load.
#
#   bench/spec-times.sh /path/to/baseline-checkout fuzz-routes trash-crash ...
#   DAM_TEST_MATRIX=mysql bench/spec-times.sh ...     # the MariaDB + S3 leg
#
# A baseline checkout: `git worktree add --detach ../dam-base main`, then link node_modules into it. Run
# each file once in each checkout first if their Jest caches are cold (the first run compiles the app).
set -euo pipefail
base=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")/.." && pwd)
echo "| file | checkout | wall s | CPU s (user + sys) | load before (1, 5, 15 min) |"
echo "|---|---|---|---|---|"
for file in "$@"; do
  for dir in "$base" "$here"; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    times=$(cd "$dir" && NODE_OPTIONS=--experimental-vm-modules /usr/bin/time -f '%e %U %S' \
      npx jest "test/$file.e2e-spec.ts" --selectProjects e2e 2>&1 >/dev/null | tail -1 || true)
    read -r wall user sys <<<"$times"
    label=$([ "$dir" = "$base" ] && echo baseline || echo this)
    echo "| $file | $label | $wall | $(echo "$user + $sys" | bc) | $load |"
  done
done
