#!/usr/bin/env bash
# GET latency while a BGSAVE runs, for variants of Ebb side by side (the A/B behind README's
# "Persistence" figures).
#   benchmarks/scripts/bgsave-latency.sh ROUNDS "LABEL|JVM_OPTIONS|SERVER_ARGS[|JAR]" ...
# Starts one Ebb per variant (ports 7410 and up, each `java -XX:+UseParallelGC JVM_OPTIONS -jar ...
# SERVER_ARGS`), fills each with 10M keys by DEBUG POPULATE (KEYS to change), warms it with 300,000
# GETs, then ROUNDS times, variant after variant (in reverse order every other round, so that no
# variant always follows another's BGSAVE): BGSAVE, and 0.3 s later
# `redis-benchmark -c 50 -n 400000 -r KEYS -t get`; prints p50/p95/p99/max and rps, and the BGSAVE's
# seconds, then each variant's median p99 and the p99s in order. JAR (default the built server)
# compares two builds. Example: writer pinned away from the loop against the default:
#   benchmarks/scripts/bgsave-latency.sh 3 "free||" "pinned||--server_cpulist 0 --bgsave_cpulist 1"
# Stops only the servers it started, by pid. Needs bash, redis-cli, redis-benchmark, java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/servers.sh"
rounds=$1; shift
keys=${KEYS:-10000000}
pids=(); ports=(); labels=(); dirs=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "${dirs[@]}"; }
trap cleanup EXIT
i=0
for spec in "$@"; do
  IFS='|' read -r label jvm args jar <<< "$spec"
  port=$((7410 + i)); dir=$(mktemp -d /tmp/bgsave-latency.XXXX)
  # shellcheck disable=SC2086
  EBB_RELAUNCH=no java -XX:+UseParallelGC $jvm -jar "${jar:-$ebb_jar}" --port "$port" --dir "$dir" --save '' \
    --enable-debug-command yes $args > "$dir/server.log" 2>&1 &
  pids+=($!); ports+=("$port"); labels+=("$label"); dirs+=("$dir")
  until "$cli" -p "$port" ping 2>/dev/null | grep -q PONG; do sleep 0.1; done
  "$cli" -p "$port" debug populate "$keys" key 32 >/dev/null
  "$bench" -p "$port" -c 50 -n 300000 -r "$keys" -t get -q >/dev/null 2>&1
  i=$((i + 1))
done
echo "bgsave-latency: $keys keys, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A p99s
for round in $(seq 1 "$rounds"); do
  order=$(seq 0 $((i - 1))); [ $((round % 2)) = 0 ] && order=$(seq $((i - 1)) -1 0)
  for j in $order; do
    port=${ports[$j]}
    "$cli" -p "$port" bgsave >/dev/null; sleep 0.3
    "$bench" -p "$port" -c 50 -n 400000 -r "$keys" -t get --precision 3 2>&1 | tr '\r' '\n' | awk -v l="${labels[$j]}" '
      /latency summary/ { getline; getline; printf "%-10s p50 %s p95 %s p99 %s max %s", l, $3, $4, $5, $6 }
      /throughput summary/ { rps = $3 } END { print " rps", rps }' | tee "${dirs[$j]}/run"
    p99s[$j]="${p99s[$j]:-} $(awk '{ print $7 }' "${dirs[$j]}/run")"
    while [ "$("$cli" -p "$port" info persistence | tr -d '\r' | awk -F: '/^rdb_bgsave_in_progress/ { print $2 }')" != 0 ]; do sleep 0.2; done
    echo "           bgsave $("$cli" -p "$port" info persistence | tr -d '\r' | awk -F: '/^rdb_last_bgsave_time_sec/ { print $2 }') s, load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
for j in $(seq 0 $((i - 1))); do
  echo "${labels[$j]} median p99 $(tr ' ' '\n' <<< "${p99s[$j]}" | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }') ms of:${p99s[$j]}"
done
