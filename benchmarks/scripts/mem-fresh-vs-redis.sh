#!/usr/bin/env bash
# Resident memory of a fresh server holding KEYS string keys, Ebb beside redis-server 7.2.4, RUNS times
# alternating (Ebb first in odd runs), through ../shared/bench/mem-fresh.sh (8-byte keys, 32-byte values
# by redis-cli --pipe, RSS 5 s after the load). Ebb starts as the README's first command starts it
# (`java $JAVA_OPTS -jar`; JAVA_OPTS empty here unless set, so the JVM's default collector), with
# `--port P --save ''`. Prints one line a server and run, then the medians.
#   benchmarks/scripts/mem-fresh-vs-redis.sh PORT KEYS [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
JAVA_OPTS=${JAVA_OPTS:- } source "$here/servers.sh"
port=$1; keys=$2; runs=${3:-3}
mem_fresh=$root/../shared/bench/mem-fresh.sh
[ -f "$mem_fresh" ] || { echo "no $mem_fresh" >&2; exit 2; }
ebb() {
  # shellcheck disable=SC2086
  EBB_RELAUNCH=no bash "$mem_fresh" "$port" "$keys" -- java $java_opts -jar "$ebb_jar" --port "$port" --save ''
}
redis() {
  bash "$mem_fresh" "$port" "$keys" -- "$redis_server" --port "$port" --save '' --appendonly no
}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for run in $(seq "$runs"); do
  if [ $((run % 2)) -eq 1 ]; then order="ebb redis"; else order="redis ebb"; fi
  for server in $order; do
    line=$($server)
    echo "run $run $server $line (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$server $(sed -E 's/.*rss_loaded=([0-9]+)MB.*/\1/' <<< "$line")" >> "$results"
  done
done
for server in ebb redis; do
  awk -v s="$server" '$1 == s {print $2}' "$results" | sort -n \
    | awk -v s="$server" '{v[NR] = $1} END {printf "%s: median RSS %d MB of %d runs (%d-%d)\n", s, v[int((NR + 1) / 2)], NR, v[1], v[NR]}'
done
