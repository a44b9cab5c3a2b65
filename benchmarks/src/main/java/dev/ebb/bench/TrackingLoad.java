package dev.ebb.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Write throughput under client-side caching (issue #18), against any Redis-protocol server: a
 * load test for a person, not a CI test.
 *
 * <p>{@code clients} RESP3 connections turn CLIENT TRACKING on and each reads its own
 * {@code keysPerClient} keys with one MGET, so the server's tracking table holds
 * {@code clients * keysPerClient} keys, one reader each. One writer then pipelines a SET to every
 * tracked key (each write sends one invalidation push to its reader) and reports ops/s; a second
 * pass over the same keys, no longer tracked, is the baseline without invalidations. A selector
 * thread keeps draining the tracking connections so their pushes never back up. The server's
 * INFO tracking fields and {@code used_memory} are printed after the reads (run once more with
 * {@code off}, the same clients and reads without tracking, to subtract the clients' own memory); with
 * {@code holdSeconds > 0} the program waits that long there, so the server's heap can be measured
 * from outside (e.g. {@code jcmd PID GC.heap_info} after {@code GC.run}).
 *
 * <pre>
 * java -cp benchmarks/target/classes dev.ebb.bench.TrackingLoad 6379 1000 100 100 0
 * </pre>
 */
public final class TrackingLoad {
    private TrackingLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: TrackingLoad <port> <clients> <keysPerClient> <pipeline> <holdSeconds> [off]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        int clients = Integer.parseInt(args[1]);
        int keysPerClient = Integer.parseInt(args[2]);
        int pipeline = Integer.parseInt(args[3]);
        int holdSeconds = Integer.parseInt(args[4]);
        int keys = clients * keysPerClient;
        boolean trackingOn = args.length < 6 || !args[5].equals("off");

        SocketChannel admin = connect(port);
        call(admin, "FLUSHALL");
        for (int i = 0; i < keys; i += pipeline) {
            int n = Math.min(pipeline, keys - i);
            StringBuilder batch = new StringBuilder();
            for (int j = 0; j < n; j++) {
                batch.append(command("SET", key(i + j), "v"));
            }
            send(admin, batch.toString());
            readReplies(admin, n);
        }
        String before = info(admin, "memory");

        List<SocketChannel> tracking = new ArrayList<>(clients);
        for (int c = 0; c < clients; c++) {
            SocketChannel ch = connect(port);
            call(ch, "HELLO", "3");
            if (trackingOn) {
                call(ch, "CLIENT", "TRACKING", "on");
            }
            String[] mget = new String[keysPerClient + 1];
            mget[0] = "MGET";
            for (int k = 0; k < keysPerClient; k++) {
                mget[k + 1] = key(c * keysPerClient + k);
            }
            call(ch, mget);
            tracking.add(ch);
        }
        String after = info(admin, "memory");
        String stats = info(admin, "stats");
        System.out.printf("%s clients=%d keys=%d%n", trackingOn ? "tracking" : "non-tracking", clients, keys);
        System.out.println("  " + field(stats, "tracking_total_keys") + " " + field(stats, "tracking_total_items"));
        System.out.println("  used_memory before=" + field(before, "used_memory") + " after=" + field(after, "used_memory"));
        if (holdSeconds > 0) {
            System.out.println("  holding " + holdSeconds + " s for outside measurement");
            Thread.sleep(holdSeconds * 1000L);
        }

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong pushedBytes = new AtomicLong();
        Thread drainer = new Thread(() -> drain(tracking, running, pushedBytes), "tracking-drainer");
        drainer.start();

        double tracked = writePass(admin, keys, pipeline);
        double untracked = writePass(admin, keys, pipeline);
        System.out.printf("  SET ops/s invalidating=%.0f baseline(untracked)=%.0f ratio=%.2f%n", tracked, untracked,
                tracked / untracked);
        Thread.sleep(500);
        running.set(false);
        drainer.join();
        System.out.println("  push bytes received by tracking clients=" + pushedBytes.get());
        for (SocketChannel ch : tracking) {
            ch.close();
        }
        admin.close();
    }

    private static double writePass(SocketChannel admin, int keys, int pipeline) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < keys; i += pipeline) {
            int n = Math.min(pipeline, keys - i);
            StringBuilder batch = new StringBuilder();
            for (int j = 0; j < n; j++) {
                batch.append(command("SET", key(i + j), "w"));
            }
            send(admin, batch.toString());
            readReplies(admin, n);
        }
        return keys / ((System.nanoTime() - start) / 1e9);
    }

    private static void drain(List<SocketChannel> channels, AtomicBoolean running, AtomicLong bytes) {
        try (Selector selector = Selector.open()) {
            for (SocketChannel ch : channels) {
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ);
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            while (running.get()) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel ch = (SocketChannel) key.channel();
                    int n;
                    while ((n = ch.read(buf)) > 0) {
                        bytes.addAndGet(n);
                        buf.clear();
                    }
                }
                selector.selectedKeys().clear();
            }
            for (SocketChannel ch : channels) {
                ch.keyFor(selector).cancel();
            }
            selector.selectNow();
            for (SocketChannel ch : channels) {
                ch.configureBlocking(true);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String key(int i) {
        return "trk:" + i;
    }

    private static SocketChannel connect(int port) throws IOException {
        SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        ch.socket().setTcpNoDelay(true);
        return ch;
    }

    private static String command(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString();
    }

    private static void send(SocketChannel ch, String text) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    private static String call(SocketChannel ch, String... args) throws IOException {
        send(ch, command(args));
        return new ReplyReader(ch).next();
    }

    private static void readReplies(SocketChannel ch, int n) throws IOException {
        ReplyReader reader = new ReplyReader(ch);
        for (int i = 0; i < n; i++) {
            reader.next();
        }
    }

    private static String info(SocketChannel admin, String section) throws IOException {
        return call(admin, "INFO", section);
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line;
            }
        }
        return name + ":?";
    }

    /** Reads whole RESP2/RESP3 replies from a blocking channel, one byte at a time from a buffer. */
    private static final class ReplyReader {
        private final SocketChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);

        ReplyReader(SocketChannel ch) {
            this.ch = ch;
            buf.flip();
        }

        /** One reply as text (aggregates flattened), pushes skipped. */
        String next() throws IOException {
            StringBuilder out = new StringBuilder();
            while (true) {
                int type = read();
                if (type == '>') {
                    skipAggregate(Integer.parseInt(line()));
                    continue;
                }
                value(type, out);
                return out.toString();
            }
        }

        private void value(int type, StringBuilder out) throws IOException {
            String line = line();
            switch (type) {
                case '$', '=', '!' -> {
                    int len = Integer.parseInt(line);
                    for (int i = 0; len >= 0 && i < len + 2; i++) {
                        out.append((char) read());
                    }
                }
                case '*', '~', '>' -> {
                    for (int i = 0, n = Integer.parseInt(line); i < n; i++) {
                        value(read(), out);
                    }
                }
                case '%' -> {
                    for (int i = 0, n = 2 * Integer.parseInt(line); i < n; i++) {
                        value(read(), out);
                    }
                }
                default -> out.append(line).append("\r\n");
            }
        }

        private void skipAggregate(int n) throws IOException {
            StringBuilder ignored = new StringBuilder();
            for (int i = 0; i < n; i++) {
                value(read(), ignored);
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            int b;
            while ((b = read()) != '\r') {
                sb.append((char) b);
            }
            read();
            return sb.toString();
        }

        private int read() throws IOException {
            if (!buf.hasRemaining()) {
                buf.clear();
                if (ch.read(buf) < 0) {
                    throw new IOException("connection closed");
                }
                buf.flip();
            }
            return buf.get() & 0xff;
        }
    }
}
