#!/usr/bin/env bash
# Runs a command as a heavily loaded machine would: inside a cgroup whose CPU quota is a fifth of
# one core (a process on 2 cores at a load average of 20 gets about a tenth of a core per thread;
# a test binary runs two). Issue 28's check that no test depends on time: the whole suite, or the
# heavy test binaries one by one, pass under it, only later.
#   tests/bench/under-load.sh [--percent P] [COMMAND...]   (default: ./build.sh test)
# Needs root and the cgroup v1 `cpu` controller or cgroup v2 with `cpu` enabled.
set -euo pipefail
percent=20
if [ "${1:-}" = --percent ]; then percent=$2; shift 2; fi
[ "$#" -gt 0 ] || set -- ./build.sh test
[ "$(id -u)" = 0 ] || { echo "under-load.sh: needs root to create a cgroup" >&2; exit 2; }
name="heaplab-load-$$"
period=100000
quota=$((period * percent / 100))
if [ -d /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
  cg=/sys/fs/cgroup/cpu/$name
  mkdir "$cg"
  echo "$period" >"$cg/cpu.cfs_period_us"
  echo "$quota" >"$cg/cpu.cfs_quota_us"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
  cg=/sys/fs/cgroup/$name
  mkdir "$cg"
  echo "$quota $period" >"$cg/cpu.max"
else
  echo "under-load.sh: no cgroup cpu controller found" >&2; exit 2
fi
# The cgroup goes when the command ends (its processes have left it by then).
trap 'rmdir "$cg" 2>/dev/null || true' EXIT
echo "under-load.sh: $* at ${percent}% of one core (cgroup $cg)" >&2
sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cg" "$@"
