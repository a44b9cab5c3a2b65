#!/usr/bin/env bash
# ACL overhead on a busy shared machine: wall-clock rps and server CPU per command, SET+GET,
# as the default user and as a user with 20 key patterns (the matching one last), Ebb and Redis.
#
#   benchmarks/scripts/acl-overhead.sh      (after mvn -B -q package -DskipTests)
#
# Env: EBB_PORT, REDIS_PORT, REDIS_BIN (directory of redis-server and redis-benchmark).
# cpu_us_per_cmd is the server's own CPU time (INFO cpu, user+sys) per request: on a shared machine
# it is far steadier than requests per second.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
EBB=${EBB_PORT:-6392}; RED=${REDIS_PORT:-6391}
bin=${REDIS_BIN:-$(dirname "$(command -v redis-server)")}
work=$(mktemp -d)
java -jar "$root/server/target/ebb-server.jar" --port $EBB > "$work/ebb.log" 2>&1 &
echo $! > "$work/ebb.pid"
"$bin/redis-server" --port $RED --save '' --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
for i in $(seq 1 60); do redis-cli -p $EBB ping >/dev/null 2>&1 && break; sleep 0.5; done
pats=""
for i in $(seq 0 18); do pats="$pats ~p$i:*"; done
pats="$pats ~key:*"
for P in $EBB $RED; do redis-cli -p $P acl setuser bench on '>pw' +@all '&*' $pats >/dev/null; done
B="$bin/redis-benchmark"
cpu() { redis-cli -p $1 info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/{s+=$2} END{printf "%.3f", s}'; }
run() { # port pipeline n userargs...
  local P=$1 pipe=$2 n=$3; shift 3
  local c0=$(cpu $P)
  local out=$($B -p $P "$@" -q -c 50 -n $n -P $pipe -t set,get -r 100000 2>/dev/null | tr '\r' '\n' | grep -E "^(SET|GET): [0-9]" | awk '{printf "%s%s ", $1, $2}')
  local c1=$(cpu $P)
  echo "$out cpu_us_per_cmd=$(echo "($c1 - $c0) * 1000000 / (2 * $n)" | bc -l | cut -c1-5)"
}
$B -p $EBB -q -c 50 -n 300000 -P 16 -t set,get -r 100000 >/dev/null 2>&1
$B -p $EBB --user bench -a pw -q -c 50 -n 300000 -P 16 -t set,get -r 100000 >/dev/null 2>&1
for round in 1 2 3; do
  for pipe in 16 1; do
    n=$([ $pipe = 1 ] && echo 30000 || echo 300000)
    for P in $EBB $RED; do
      echo "round=$round port=$P P=$pipe default:    $(run $P $pipe $n)"
      echo "round=$round port=$P P=$pipe 20-pattern: $(run $P $pipe $n --user bench -a pw)"
    done
  done
done
kill "$(cat "$work/ebb.pid")"; kill "$(cat "$work/redis.pid")"
