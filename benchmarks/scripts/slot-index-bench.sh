#!/usr/bin/env bash
# CLUSTER COUNTKEYSINSLOT / GETKEYSINSLOT over every slot, and the memory a key costs, on a server
# started from the given command line (it must listen on PORT). Fills N keys (`key:<i>`, 32-byte
# values) with redis-cli --pipe, reports used_memory per key, then asks COUNTKEYSINSLOT and
# GETKEYSINSLOT <slot> 10 for slots 0 .. SLOTS-1 one at a time (as `redis-cli --cluster reshard`
# does, one round trip per slot) and reports the wall time of each pass, then the same pipelined. A redis-server started
# with --cluster-enabled yes is first given every slot (CLUSTER ADDSLOTSRANGE 0 16383).
# usage: slot-index-bench.sh PORT -- server command...
#   env: N (keys, default 1000000), SLOTS (slots asked, default 16384; extrapolate for slow servers)
set -u
PORT=$1; shift 2
n=${N:-1000000}; slots=${SLOTS:-16384}
cli=$(command -v redis-cli || echo /work/shared/reference/redis-7.2.4/redis-cli)
work=$(mktemp -d)
"$@" >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do [ "$($cli -p "$PORT" ping 2>/dev/null)" = PONG ] && break; sleep 0.2; done
if "$cli" -p "$PORT" cluster addslotsrange 0 16383 2>/dev/null | grep -q OK; then
  # redis-server marks the cluster up on a later cron tick.
  for _ in $(seq 1 100); do "$cli" -p "$PORT" cluster info | grep -q cluster_state:ok && break; sleep 0.1; done
fi
info() { "$cli" -p "$PORT" info memory | tr -d '\r' | sed -n "s/^$1://p"; }
used0=$(info used_memory)
awk -v n="$n" 'BEGIN { v = "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv";
  for (i = 0; i < n; i++) { k = "key:" i; printf "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$32\r\n%s\r\n", length(k), k, v } }' \
  | "$cli" -p "$PORT" --pipe > "$work/fill" 2>&1
tail -1 "$work/fill"
used1=$(info used_memory)
keys=$("$cli" -p "$PORT" dbsize)
echo "keys=$keys used_memory: before=$used0 after=$used1 per_key=$(( (used1 - used0) / keys ))"
pass() {
  awk -v s="$slots" -v cmd="$1" 'BEGIN { for (i = 0; i < s; i++) print cmd " " i (cmd ~ /GET/ ? " 10" : "") }' > "$work/cmds"
  local start end
  start=$(date +%s%N)
  "$cli" -p "$PORT" < "$work/cmds" > "$work/out"
  end=$(date +%s%N)
  echo "$1 over $slots slots: $(( (end - start) / 1000000 )) ms ($(grep -c . "$work/out") reply lines; first: $(head -1 "$work/out"))"
}
# The same commands pipelined (redis-cli --pipe): the server's own time, without a round trip each.
piped() {
  awk -v s="$slots" -v cmd="$1" 'BEGIN { for (i = 0; i < s; i++) {
      a = (cmd == "GETKEYSINSLOT") ? 4 : 3; printf "*%d\r\n$7\r\nCLUSTER\r\n$%d\r\n%s\r\n$%d\r\n%d\r\n", a, length(cmd), cmd, length(i ""), i
      if (a == 4) printf "$2\r\n10\r\n" } }' > "$work/piped"
  local start end
  start=$(date +%s%N)
  "$cli" -p "$PORT" --pipe < "$work/piped" > "$work/out" 2>&1
  end=$(date +%s%N)
  echo "$1 pipelined over $slots slots: $(( (end - start) / 1000000 )) ms ($(tail -1 "$work/out"))"
}
pass "CLUSTER COUNTKEYSINSLOT"
pass "CLUSTER GETKEYSINSLOT"
piped COUNTKEYSINSLOT
piped GETKEYSINSLOT
"$cli" -p "$PORT" shutdown nosave >/dev/null 2>&1; sleep 1; kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
rm -rf "$work"
