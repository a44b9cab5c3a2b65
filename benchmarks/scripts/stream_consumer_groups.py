#!/usr/bin/env python3
# Consumer-group throughput: one producer pipelines XADD while 4 consumers loop
# XREADGROUP COUNT 10 BLOCK 200 + XACK; prints entries/s.  usage: stream_consumer_groups.py PORT ENTRIES
import socket, sys, time, multiprocessing as mp
def enc(*a):
    out = [b"*%d\r\n" % len(a)]
    for x in a:
        x = x if isinstance(x, bytes) else str(x).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(x), x))
    return b"".join(out)
class R:
    def __init__(s, port):
        s.sock = socket.create_connection(("127.0.0.1", port)); s.f = s.sock.makefile("rb")
    def call(s, *a):
        s.sock.sendall(enc(*a)); return s.read()
    def read(s):
        l = s.f.readline(); t = l[:1]; v = l[1:-2]
        if t in (b"+", b"-"): return v
        if t == b":": return int(v)
        if t == b"$":
            n = int(v)
            if n < 0: return None
            d = s.f.read(n + 2); return d[:-2]
        if t == b"*":
            n = int(v)
            if n < 0: return None
            return [s.read() for _ in range(n)]
        if t == b"_": return None
        if t == b"%":
            n = int(v); return [s.read() for _ in range(2 * n)]
        raise Exception(l)
def consumer(port, name, q):
    r = R(port); n = 0
    while True:
        rep = r.call("XREADGROUP", "GROUP", "g", name, "COUNT", 10, "BLOCK", 200, "STREAMS", "cg", ">")
        if rep is None: break
        ids = [e[0] for e in rep[0][1]]
        r.call("XACK", "cg", "g", *ids); n += len(ids)
    q.put(n)
if __name__ == "__main__":
    port = int(sys.argv[1]); total = int(sys.argv[2])
    r = R(port); r.call("DEL", "cg"); r.call("XGROUP", "CREATE", "cg", "g", "$", "MKSTREAM")
    # producer: pipelined XADD in batches, while the 4 consumers read
    q = mp.Queue(); ps = [mp.Process(target=consumer, args=(port, "c%d" % i, q)) for i in range(4)]
    t0 = time.time()
    for p in ps: p.start()
    batch = 100
    for i in range(0, total, batch):
        r.sock.sendall(b"".join(enc("XADD", "cg", "*", "name", "12345678", "value", "1234567890123456") for _ in range(batch)))
        for _ in range(batch): r.read()
    got = sum(q.get() for _ in ps)
    for p in ps: p.join()
    el = time.time() - t0 - 0.2
    pend = r.call("XPENDING", "cg", "g")[0]
    print("port %d consumed=%d pending=%d seconds=%.2f entries/s=%.0f" % (port, got, pend, el, got / el))
