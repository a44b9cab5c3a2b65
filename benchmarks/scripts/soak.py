#!/usr/bin/env python3
"""Many-client soak: CLIENTS connections on 127.0.0.1:PORT each loop SET key EX 60 / GET / HINCRBY for SECONDS,
pausing PAUSE_MS between rounds, while one more client, in a process of its own, PINGs every 10 ms. Prints the server's RSS (the process
whose pid is given, plus its children) at the start, every 10 s and at the end, the PING round trips' p50/p99/max
and the commands done. Loopback only, bounded in clients and time.

usage: soak.py PORT SERVER_PID [CLIENTS=1000] [SECONDS=60] [PAUSE_MS=20]
"""
import asyncio, multiprocessing, os, random, socket, sys, time

port, pid = int(sys.argv[1]), int(sys.argv[2])
clients = min(int(sys.argv[3]) if len(sys.argv) > 3 else 1000, 2000)
seconds = min(float(sys.argv[4]) if len(sys.argv) > 4 else 60, 300)
pause = (float(sys.argv[5]) if len(sys.argv) > 5 else 20) / 1000
done = 0


def rss_mb(p):
    total, todo = 0, [p]
    while todo:
        q = todo.pop()
        try:
            with open(f'/proc/{q}/status') as f:
                total += next(int(l.split()[1]) for l in f if l.startswith('VmRSS'))
            for t in os.listdir(f'/proc/{q}/task'):
                with open(f'/proc/{q}/task/{t}/children') as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, StopIteration):
            pass
    return total // 1024


def cmd(*args):
    out = b'*%d\r\n' % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b'$%d\r\n%s\r\n' % (len(a), a)
    return out


async def reply(r):
    line = await r.readline()
    if line[:1] == b'$' and int(line[1:]) >= 0:
        await r.readexactly(int(line[1:]) + 2)
    elif line[:1] == b'-':
        raise RuntimeError(line)


async def worker(end):
    global done
    r, w = await asyncio.open_connection('127.0.0.1', port)
    value = os.urandom(64).hex().encode()
    while time.monotonic() < end:
        k = random.randrange(200_000)
        w.write(cmd('SET', b'soak:%d' % k, value, 'EX', 60) + cmd('GET', b'soak:%d' % random.randrange(200_000))
                + cmd('HINCRBY', b'soakh:%d' % (k % 10_000), b'f%d' % (k % 50), 1))
        await w.drain()
        for _ in range(3):
            await reply(r)
        done += 3
        await asyncio.sleep(pause * random.uniform(0.5, 1.5))
    w.close()


def pinger(end, out):
    """In a process of its own, so that the load's event loop does not delay its round trips."""
    s = socket.create_connection(('127.0.0.1', port))
    f = s.makefile('rb')
    rtts = []
    while time.monotonic() < end:
        t = time.perf_counter()
        s.sendall(b'PING\r\n')
        f.readline()
        rtts.append((time.perf_counter() - t) * 1000)
        time.sleep(0.01)
    out.send(rtts)


async def sampler(end):
    start = time.monotonic()
    while time.monotonic() < end:
        await asyncio.sleep(10)
        print(f'  t={time.monotonic() - start:.0f}s rss={rss_mb(pid)}MB ops={done}', flush=True)


async def main():
    rss0 = rss_mb(pid)
    end = time.monotonic() + seconds
    receive, send = multiprocessing.Pipe(False)
    ping = multiprocessing.Process(target=pinger, args=(end, send))
    ping.start()
    tasks = [asyncio.create_task(worker(end)) for _ in range(clients)]
    tasks.append(asyncio.create_task(sampler(end)))
    await asyncio.gather(*tasks)
    rtts = sorted(receive.recv())
    ping.join()
    q = lambda p: rtts[min(len(rtts) - 1, int(p * len(rtts)))]
    print(f'clients={clients} seconds={seconds:.0f} ops={done} ops/s={done / seconds:.0f} rss_start={rss0}MB '
          f'rss_end={rss_mb(pid)}MB ping n={len(rtts)} p50={q(0.5):.2f}ms p99={q(0.99):.2f}ms max={rtts[-1]:.1f}ms')

asyncio.run(main())
