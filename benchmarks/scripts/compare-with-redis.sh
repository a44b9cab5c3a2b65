#!/usr/bin/env bash
# End-to-end comparison of Ebb with a real redis-server on this machine, using the shared
# side-by-side scripts (../shared/bench) where they exist:
#   1. throughput: redis-benchmark, 50 clients, -P 1 and -P 16, ratio Ebb/Redis per command
#   2. latency: redis-benchmark p50/p99 for SET and GET at -P 1
#   3. memory per key (1M keys, 8-byte names, 32-byte values): used_memory and RSS deltas
#   4. expiry storm: 1M volatile among 1M persistent keys, time to reclaim, GET latency meanwhile
# Prints one table. Needs redis-server, redis-cli, redis-benchmark and python3.
#
# usage: benchmarks/scripts/compare-with-redis.sh [EBB_JAR] [-- extra JVM options]
#   EBB_JAR defaults to server/target/ebb-server.jar (build it first: mvn -B -q package -DskipTests)
#   env: REQUESTS (default 500000), KEYS (default 1000000), SKIP (comma list of: throughput,latency,memory,storm),
#        TESTS (redis-benchmark tests for the throughput part, default set,get,incr,mset),
#        EBB_ARGS (extra server arguments, e.g. "--io-threads 2")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared=${SHARED_BENCH:-$root/../shared/bench}
jar=${1:-$root/server/target/ebb-server.jar}
shift || true
[ "${1:-}" = "--" ] && shift
jvm_opts=("$@")
requests=${REQUESTS:-500000}
keys=${KEYS:-1000000}
skip=${SKIP:-}
redis_port=${REDIS_PORT:-6391}
ebb_port=${EBB_PORT:-6392}
tests=${TESTS:-set,get,incr,mset}
read -r -a ebb_args <<< "${EBB_ARGS:-}"

for tool in redis-server redis-cli redis-benchmark python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y redis-server redis-tools)" >&2; exit 1; }
done
[ -f "$jar" ] || { echo "no $jar: build it with mvn -B -q package -DskipTests" >&2; exit 1; }
for port in "$redis_port" "$ebb_port"; do
  if redis-cli -p "$port" ping >/dev/null 2>&1; then echo "port $port is in use" >&2; exit 1; fi
done

work=$(mktemp -d)
redis-server --port "$redis_port" --save '' --appendonly no --daemonize yes --pidfile "$work/redis.pid" \
  --logfile "$work/redis.log"
java "${jvm_opts[@]}" -jar "$jar" --port "$ebb_port" "${ebb_args[@]}" > "$work/ebb.log" 2>&1 &
ebb_pid=$!
cleanup() {
  kill "$ebb_pid" 2>/dev/null || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 60); do
  redis-cli -p "$ebb_port" ping >/dev/null 2>&1 && redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.5
done
wants() { case ",$skip," in *",$1,"*) return 1 ;; *) return 0 ;; esac; }

echo "# Ebb vs redis-server $(redis-server --version | sed -E 's/.*v=([^ ]+).*/\1/') — $(date -u +%Y-%m-%d), $(nproc) cores, $(java -version 2>&1 | head -1)"
echo "# JVM options: ${jvm_opts[*]:-(none)}; server arguments: ${ebb_args[*]:-(none)}"

if wants throughput; then
  # Warm the JIT before measuring.
  redis-benchmark -p "$ebb_port" -q -c 50 -n 300000 -P 16 -t "$tests" -r 100000 >/dev/null 2>&1
  for p in 1 16; do
    echo; echo "## throughput, 50 clients, -P $p, $requests requests (ops/s, mean of 2 alternating runs)"
    bash "$shared/bench-vs-redis.sh" "$redis_port" "$ebb_port" "$p" 50 "$requests" "$tests"
  done
fi

if wants latency; then
  echo; echo "## latency, 50 clients, -P 1 (ms)"
  printf '%-6s %-6s %8s %8s %8s\n' test server p50 p99 max
  for t in set get; do
    for name in redis ebb; do
      port=$redis_port; [ $name = ebb ] && port=$ebb_port
      redis-benchmark -p "$port" -c 50 -n "$requests" -t "$t" -r 100000 2>/dev/null | tr '\r' '\n' \
        | awk -v t="$t" -v s="$name" '/avg +min +p50/ {getline; printf "%-6s %-6s %8s %8s %8s\n", t, s, $3, $5, $6}'
    done
  done
fi

if wants memory; then
  echo; echo "## memory per key ($keys keys, 8-byte names, 32-byte values)"
  for name in redis ebb; do
    port=$redis_port; [ $name = ebb ] && port=$ebb_port
    printf '%-6s ' "$name"; bash "$shared/mem-per-key.sh" "$port" "$keys"
  done
fi

if wants storm; then
  echo; echo "## expiry storm ($keys volatile among $keys persistent keys)"
  for name in redis ebb; do
    port=$redis_port; [ $name = ebb ] && port=$ebb_port
    redis-cli -p "$port" flushall >/dev/null
    echo "$name:"; python3 "$shared/expiry-storm.py" "$port" "$keys" | tail -2 | sed 's/^/  /'
  done
fi
