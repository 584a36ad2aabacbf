#!/usr/bin/env bash
# Holds the machine at about TARGET runnable processes, to run the suite "at load TARGET": every
# 5 s it averages /proc/stat's procs_running over the last 5 s and adds or removes busy-loop
# processes so that they and everything else running come to TARGET. Runs until STOPFILE exists or
# it is interrupted; its busy loops end with it. A line per adjustment goes to stdout.
#   bash scripts/busy-load.sh [TARGET] [STOPFILE] &   then   CI=true npx vitest run
set -u
target=${1:-20}
stopfile=${2:-/tmp/busy-load.stop}
loops=()
end_loops() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; }
trap end_loops EXIT
trap 'exit 0' INT TERM
while [ ! -e "$stopfile" ]; do
  sum=0
  for _ in 1 2 3 4 5; do
    sum=$((sum + $(awk '/procs_running/ {print $2}' /proc/stat)))
    sleep 1
  done
  running=$(((sum + 2) / 5))
  # This script's own awk is one of the running processes.
  others=$((running - ${#loops[@]} - 1))
  [ "$others" -lt 0 ] && others=0
  want=$((target - others))
  [ "$want" -lt 0 ] && want=0
  while [ "${#loops[@]}" -lt "$want" ]; do
    sh -c 'while :; do :; done' &
    loops+=($!)
  done
  while [ "${#loops[@]}" -gt "$want" ]; do
    kill "${loops[-1]}" 2>/dev/null
    unset 'loops[-1]'
  done
  echo "$(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg), running $running, busy loops ${#loops[@]}"
done
