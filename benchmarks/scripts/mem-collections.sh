#!/usr/bin/env bash
# Memory per element of one large hash and one large set: FLUSHALL, then load a hash of N fields
# ("field:" + 7 digits, 8-byte values) and a set of N members ("member:" + 7 digits) through
# redis-cli --pipe, 1000 elements a command, and report per element MEMORY USAGE, the INFO
# used_memory delta and the resident set (RSS) delta. Run it against Ebb and redis-server alike.
# usage: [KINDS="hash set"] mem-collections.sh PORT [N]
set -eu
PORT=${1:?port}; N=${2:-1000000}
cli() { redis-cli -p "$PORT" "$@"; }
pid=$(cli info server | tr -d '\r' | sed -n 's/^process_id://p')
rss() { awk '/VmRSS/ {print $2*1024}' /proc/"$pid"/status; }
used() { cli info memory | tr -d '\r' | sed -n 's/^used_memory://p'; }
load() {  # $1 = hash|set
    python3 - "$N" "$1" <<'PY' | cli --pipe >/dev/null
import sys
n = int(sys.argv[1]); kind = sys.argv[2]; out = sys.stdout.buffer; batch = 1000
for start in range(0, n, batch):
    count = min(batch, n - start)
    if kind == 'hash':
        out.write(b'*%d\r\n$4\r\nHSET\r\n$1\r\nh\r\n' % (2 + 2 * count))
        for i in range(start, start + count):
            out.write(b'$13\r\nfield:%07d\r\n$8\r\n%08d\r\n' % (i, i))
    else:
        out.write(b'*%d\r\n$4\r\nSADD\r\n$1\r\ns\r\n' % (2 + count))
        for i in range(start, start + count):
            out.write(b'$14\r\nmember:%07d\r\n' % i)
PY
}
for kind in ${KINDS:-hash set}; do
    cli flushall >/dev/null; sleep 2
    u0=$(used); r0=$(rss)
    load "$kind"
    sleep 2
    key=$([ "$kind" = hash ] && echo h || echo s)
    u1=$(used); r1=$(rss)
    usage=$(cli memory usage "$key" samples 0)
    echo "$kind n=$N encoding=$(cli object encoding "$key") memory_usage/elem=$((usage / N)) used_memory/elem=$(( (u1-u0)/N )) rss/elem=$(( (r1-r0)/N ))"
done
