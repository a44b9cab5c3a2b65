#!/usr/bin/env bash
# Start-up time and the first seconds of throughput, Ebb beside redis-server.
#   benchmarks/scripts/startup-bench.sh PORT_EBB PORT_REDIS [RUNS]
# For each server, RUNS times (default 3): starts it fresh with its defaults (Ebb: `java -jar`, the
# README's start command, plus JAVA_OPTS when set; Redis: --save ''), times launch to the first PONG
# (a Python client polling every 5 ms), then runs `redis-benchmark -c 50 -n 100000 -t set,get` back to
# back for about 10 s and prints each run's seconds since start and requests per second.
# Stops only the servers it started, by pid. Needs bash, python3, redis-benchmark, java.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
JAVA_OPTS=${JAVA_OPTS:-}
source "$here/servers.sh"
ebb_port=$1; redis_port=$2; runs=${3:-3}
work=$(mktemp -d /tmp/startup-bench.XXXX)
trap 'rm -rf "$work"' EXIT

first_pong() { # port: waits for PONG, prints the Unix time in ms when it came
  python3 - "$1" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
while True:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        s.sendall(b"PING\r\n")
        if s.recv(64).startswith(b"+PONG"):
            print(int(time.time() * 1000)); break
    except OSError:
        pass
    time.sleep(0.005)
PY
}

one() { # name port
  local name=$1 port=$2 t0 t1 pid
  t0=$(date +%s%3N)
  if [ "$name" = ebb ]; then
    # shellcheck disable=SC2086
    (cd "$work" && exec java $java_opts_ebb -jar "$ebb_jar" --port "$port" --save '' > "$work/ebb.log" 2>&1) &
  else
    "$redis_server" --port "$port" --save '' --dir "$work" > "$work/redis.log" 2>&1 &
  fi
  pid=$!
  t1=$(first_pong "$port")
  local line="$name first PONG after $((t1 - t0)) ms; rps (s since start):"
  while [ $(( $(date +%s%3N) - t0 )) -lt 10000 ]; do
    for t in SET GET; do
      local rps
      rps=$("$bench" -p "$port" -c 50 -n 100000 -t "${t,,}" -q 2>/dev/null | tr '\r' '\n' | awk '/requests per second/ { print $2 }' | tail -1)
      line="$line $t ${rps%.*} ($(( ($(date +%s%3N) - t0) / 1000 ))s)"
    done
  done
  echo "$line"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

java_opts_ebb=$JAVA_OPTS
echo "startup-bench: $(nproc) cores, $(java -version 2>&1 | head -1), JAVA_OPTS='$JAVA_OPTS', load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq 1 "$runs"); do
  one ebb "$ebb_port"
  one redis "$redis_port"
done
