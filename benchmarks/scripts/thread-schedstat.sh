#!/usr/bin/env bash
# Per second, each busy thread of a process: milliseconds it ran and milliseconds it waited for a CPU
# while runnable (/proc/PID/task/TID/schedstat). Shows whether a thread is slow or starved: during a
# BGSAVE the loop thread's wait rose from 50 to 300 ms a second while the writer ran at nice 10.
#   benchmarks/scripts/thread-schedstat.sh PID [SECONDS]
set -euo pipefail
pid=$1; seconds=${2:-30}
declare -A ran waited
for _ in $(seq 1 "$seconds"); do
  line=""
  for task in /proc/"$pid"/task/*; do
    tid=${task##*/}
    name=$(cat "$task/comm" 2>/dev/null) || continue
    read -r r w _ < "$task/schedstat" 2>/dev/null || continue
    if [ -n "${ran[$tid]:-}" ]; then
      dr=$(( (r - ran[$tid]) / 1000000 )); dw=$(( (w - waited[$tid]) / 1000000 ))
      if [ "$dr" -gt 20 ] || [ "$dw" -gt 20 ]; then line="$line $name:$dr/$dw"; fi
    fi
    ran[$tid]=$r; waited[$tid]=$w
  done
  echo "$(date +%T) ran/waited ms:$line"
  sleep 1
done
