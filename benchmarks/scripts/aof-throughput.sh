#!/usr/bin/env bash
# Write throughput with the append-only file on, Ebb beside redis-server 7.2.4 with the same settings
# (#19's AOF benchmark): for appendfsync everysec and always, each server fresh in its own directory
# with `appendonly yes`, then ROUNDS alternating runs of `redis-benchmark -c 50 -n N -r 100000 -t T`
# per test; prints the median ops/s of each and the ratio Ebb / Redis.
#   benchmarks/scripts/aof-throughput.sh PORT_EBB PORT_REDIS [ROUNDS [N_EVERYSEC [N_ALWAYS]]]
# TESTS (default set,incr,lpush) changes the tests. Stops only the servers it started, by pid. Needs
# bash, python3, redis-cli, redis-benchmark, java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/servers.sh"
ebb_port=$1; redis_port=$2; rounds=${3:-3}; n_everysec=${4:-200000}; n_always=${5:-50000}
tests=${TESTS:-set,incr,lpush}
pids=(); dirs=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "${dirs[@]}"; }
trap cleanup EXIT

start() {   # start FSYNC: both servers fresh, appendonly on
  local dir_e dir_r
  dir_e=$(mktemp -d /tmp/aof-throughput.XXXX); dir_r=$(mktemp -d /tmp/aof-throughput.XXXX)
  dirs+=("$dir_e" "$dir_r")
  # shellcheck disable=SC2086
  EBB_RELAUNCH=no java $java_opts -jar "$ebb_jar" --port "$ebb_port" --dir "$dir_e" --save '' \
    --appendonly yes --appendfsync "$1" > "$dir_e/server.log" 2>&1 &
  pids+=($!)
  "$redis_server" --port "$redis_port" --dir "$dir_r" --save '' --appendonly yes --appendfsync "$1" \
    > "$dir_r/server.log" 2>&1 &
  pids+=($!)
  for port in "$ebb_port" "$redis_port"; do
    until "$cli" -p "$port" ping 2>/dev/null | grep -q PONG; do sleep 0.1; done
  done
}

stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  pids=()
  rm -rf "${dirs[@]}"; dirs=()
}

rps() {     # rps PORT TEST N
  "$bench" -p "$1" -c 50 -n "$3" -r 100000 -t "$2" -q 2>/dev/null | tr '\r' '\n' \
    | grep -E 'requests per second' | tail -1 | sed -E 's/.*: ([0-9.]+) requests.*/\1/'
}

echo "aof-throughput: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds alternating rounds," \
  "ebb $java_opts, disk of /tmp: $(df -P /tmp | awk 'NR == 2 {print $1}')"
printf '%-10s %-6s %12s %12s %7s\n' appendfsync test redis ebb ratio
for fsync in everysec always; do
  n=$n_everysec; [ "$fsync" = always ] && n=$n_always
  start "$fsync"
  # A warm-up run per server, so the JIT has compiled the write path before the measured rounds.
  "$bench" -p "$ebb_port" -c 50 -n "$n" -r 100000 -t "$tests" -q > /dev/null 2>&1
  IFS=, read -r -a list <<< "$tests"
  for t in "${list[@]}"; do
    r=(); e=()
    for _ in $(seq 1 "$rounds"); do
      r+=("$(rps "$redis_port" "$t" "$n")"); e+=("$(rps "$ebb_port" "$t" "$n")")
    done
    python3 - "$fsync" "$t" "${r[*]}" "${e[*]}" <<'EOF'
import statistics, sys
fsync, test, r, e = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3].split()], [float(x) for x in sys.argv[4].split()]
mr, me = statistics.median(r), statistics.median(e)
print('%-10s %-6s %12.0f %12.0f %7.2f   (redis %s; ebb %s)' % (fsync, test, mr, me, me / mr,
      ' / '.join('%.0f' % x for x in r), ' / '.join('%.0f' % x for x in e)))
EOF
  done
  stop
done
