#!/usr/bin/env python3
"""Field-expiry storm, the hash-field version of ../shared/bench/expiry-storm.py: load N persistent
keys and H hashes of F fields each (N = H * F volatile fields by default: 1,000,000 in 10,000
hashes) whose fields expire within one second, never touch them again, and watch the server
reclaim the fields on its own (active expiry only). Meanwhile one client alternates GET of a
persistent key and HGET of a persistent hash field every millisecond, to see how much the expiry
work delays ordinary commands.
The prober runs in a process of its own, so that the main process's INFO polls (and Python's GIL)
never hold it up.
With --control the fields get their TTLs an hour later: the same load, the same prober for the same
1.05 s, no storm, which measures the floor of this machine and client.
usage: field-expiry-storm.py [--control] PORT [HASHES [FIELDS_PER_HASH [LEAD_SECONDS]]]   (needs redis-cli on PATH; Redis 7.4+)
prints: seconds after the last field TTL passed until 50%/90%/99%/100% of the volatile fields were
reclaimed (INFO expired_subkeys), and GET/HGET latency p50/p99/p99.9/max (ms) during the storm, with
the five slowest samples' times (ms after the first TTL)."""
import multiprocessing, socket, subprocess, sys, time

args = [a for a in sys.argv[1:] if a != '--control']
CONTROL = len(args) < len(sys.argv) - 1
port = int(args[0])
hashes = int(args[1]) if len(args) > 1 else 10000
per_hash = int(args[2]) if len(args) > 2 else 100
LEAD_S = int(args[3]) if len(args) > 3 else 90   # seconds between the start of the load and the TTLs
CONTROL_SHIFT_MS = 3600 * 1000 if CONTROL else 0
fields = hashes * per_hash
persistent = fields

def read_reply(f):
    line = f.readline()
    t = line[:1]
    if t in b'+-:':
        return line[1:-2]
    if t == b'$':
        ln = int(line[1:-2])
        return None if ln < 0 else f.read(ln + 2)[:-2]
    if t == b'*':
        return [read_reply(f) for _ in range(int(line[1:-2]))]
    raise RuntimeError(line)

def resp(*args):
    parts = [a if isinstance(a, bytes) else str(a).encode() for a in args]
    return b'*%d\r\n' % len(parts) + b''.join(b'$%d\r\n%s\r\n' % (len(p), p) for p in parts)

def pipe(buf):
    subprocess.run(['redis-cli', '-p', str(port), '--pipe'], input=bytes(buf), stdout=subprocess.DEVNULL, check=True)

def load_persistent():
    buf = bytearray()
    v = b'x' * 32
    for i in range(persistent):
        buf += resp(b'SET', b'p%07d' % i, v)
    buf += resp(b'HSET', b'ph', b'f', v)
    pipe(buf)

def load_hashes(expire_base_ms):
    buf = bytearray()
    v = b'x' * 32
    for h in range(hashes):
        key = b'h%05d' % h
        args = [b'HSET', key]
        for f in range(per_hash):
            args += [b'f%03d' % f, v]
        buf += resp(*args)
        # one HPEXPIREAT per millisecond group: field f of hash h expires at base + (h * F + f) % 1000
        groups = {}
        for f in range(per_hash):
            groups.setdefault((h * per_hash + f) % 1000, []).append(b'f%03d' % f)
        for ms, names in groups.items():
            buf += resp(b'HPEXPIREAT', key, expire_base_ms + ms + CONTROL_SHIFT_MS, b'FIELDS', len(names), *names)
    pipe(buf)

s = socket.create_connection(('127.0.0.1', port)); f = s.makefile('rb')
def q(*a):
    s.sendall(resp(*a))
    return read_reply(f)
def subkeys():
    for line in q('INFO', 'stats').split(b'\r\n'):
        if line.startswith(b'expired_subkeys:'):
            return int(line.split(b':')[1])
    sys.exit('no expired_subkeys in INFO stats: not a server with hash field expiry')

q('FLUSHALL')
q('CONFIG', 'RESETSTAT')
load_persistent()
t0 = time.time()
expire_base = int((t0 + LEAD_S) * 1000)   # every field TTL ends LEAD_S s from now, after the load (building 1M HPEXPIREATs in Python is slow)
load_hashes(expire_base)
if int(q('DBSIZE')) != persistent + 1 + hashes:
    sys.exit('load failed: DBSIZE %s' % q('DBSIZE'))
if time.time() * 1000 > expire_base:
    sys.exit('load took too long: TTLs passed before it ended')
def prober(start_ms, stop, out):
    ps = socket.create_connection(('127.0.0.1', port)); pf = ps.makefile('rb')
    get = resp(b'GET', b'p0000001'); hget = resp(b'HGET', b'ph', b'f')
    samples = []; i = 0
    while time.time() * 1000 < start_ms: time.sleep(0.001)
    while not stop.is_set():
        a = time.perf_counter(); ps.sendall(get if i % 2 == 0 else hget); read_reply(pf)
        samples.append(((time.perf_counter() - a) * 1000, time.time() * 1000 - start_ms))
        time.sleep(0.001); i += 1
    out.send(samples)
stop = multiprocessing.Event(); received, sender = multiprocessing.Pipe(duplex=False)
probe = multiprocessing.Process(target=prober, args=(expire_base, stop, sender)); probe.start()
while time.time() * 1000 < expire_base: time.sleep(0.01)
t0 = (expire_base + 1000) / 1000.0   # clock starts when the last TTL has passed
marks = {}
while time.time() - t0 < (0.05 if CONTROL else 60):
    gone = subkeys()
    for p in (0.5, 0.9, 0.99, 1.0):
        if p not in marks and gone >= p * fields:
            marks[p] = time.time() - t0
    if 1.0 in marks:
        break
    time.sleep(0.05)
stop.set(); samples = received.recv(); probe.join()
left = int(q('DBSIZE')) - persistent - 1
lat = sorted(ms for ms, _ in samples)
slowest = sorted(samples, reverse=True)[:5]
pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float('nan')
print('%d volatile fields in %d hashes among %d persistent keys; TTLs spread over 1 s%s' % (
    fields, hashes, persistent, ' (control: an hour later)' if CONTROL else ''))
print('reclaimed 50%%/90%%/99%%/100%% at: %s s after the last TTL passed (hashes left: %d)' % (
    ' / '.join('%.2f' % marks[p] if p in marks else 'never' for p in (0.5, 0.9, 0.99, 1.0)), left))
print('GET/HGET latency during storm ms: p50 %.3f p99 %.3f p99.9 %.3f max %.3f (%d samples)' % (
    pct(.5), pct(.99), pct(.999), lat[-1] if lat else float('nan'), len(lat)))
print('slowest samples (ms at ms after the first TTL, %s UTC): %s' % (
    time.strftime('%H:%M:%S', time.gmtime(expire_base / 1000)) + '.%03d' % (expire_base % 1000),
    ', '.join('%.2f at %.0f' % s for s in slowest)))
