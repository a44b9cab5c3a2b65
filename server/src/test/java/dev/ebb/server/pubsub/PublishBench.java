package dev.ebb.server.pubsub;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small load driver for the closing-note figures, run by hand against any server (Ebb's jar or
 * a real redis-server), with raw sockets so both see the same bytes:
 *
 * <pre>
 * java -cp server/target/test-classes dev.ebb.server.pubsub.PublishBench throughput PORT SUBSCRIBERS MESSAGES SIZE
 * java -cp server/target/test-classes dev.ebb.server.pubsub.PublishBench flood PORT MEGABYTES
 * </pre>
 *
 * {@code throughput}: SUBSCRIBERS connections subscribe to one channel, one publisher pipelines
 * MESSAGES publishes of SIZE bytes (1000 in flight), and the time until every subscriber has read
 * every message gives messages published per second. {@code flood}: one subscriber that never
 * reads, one publisher sending MEGABYTES of 64 KB messages; prints how many were delivered.
 */
public final class PublishBench {
    private PublishBench() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        if (args[0].equals("throughput")) {
            throughput(port, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        } else {
            flood(port, Integer.parseInt(args[2]));
        }
    }

    private static void throughput(int port, int subscribers, int messages, int size) throws Exception {
        String channel = "bench";
        byte[] frame = frame(channel, size);
        List<Socket> subs = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Socket s = new Socket("127.0.0.1", port);
            s.getOutputStream().write(command("SUBSCRIBE", channel));
            readExactly(s.getInputStream(), ("*3\r\n$9\r\nsubscribe\r\n$5\r\nbench\r\n:1\r\n").length());
            subs.add(s);
            long expected = (long) frame.length * messages;
            Thread t = new Thread(() -> {
                try {
                    readExactly(s.getInputStream(), expected);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            readers.add(t);
        }
        readers.forEach(Thread::start);
        try (Socket pub = new Socket("127.0.0.1", port)) {
            byte[] publish = command("PUBLISH", channel, "x".repeat(size));
            long start = System.nanoTime();
            Thread replies = new Thread(() -> {
                try {
                    countLines(pub.getInputStream(), messages);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            replies.start();
            OutputStream out = new BufferedOutputStream(pub.getOutputStream(), 1 << 16);
            for (int i = 0; i < messages; i++) {
                out.write(publish);
            }
            out.flush();
            replies.join();
            for (Thread t : readers) {
                t.join();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("subscribers=%d messages=%d size=%d: %.0f publishes/s, %.0f deliveries/s%n",
                    subscribers, messages, size, messages / seconds, (double) messages * subscribers / seconds);
        }
        for (Socket s : subs) {
            s.close();
        }
    }

    private static void flood(int port, int megabytes) throws Exception {
        int size = 64 * 1024;
        int messages = megabytes * 16;
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new java.net.InetSocketAddress("127.0.0.1", port));
            slow.getOutputStream().write(command("SUBSCRIBE", "flood"));
            Thread.sleep(200);
            try (Socket pub = new Socket("127.0.0.1", port)) {
                byte[] publish = command("PUBLISH", "flood", "m".repeat(size));
                long[] delivered = new long[1];
                Thread replies = new Thread(() -> {
                    try {
                        delivered[0] = sumIntegers(pub.getInputStream(), messages);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                replies.start();
                long start = System.nanoTime();
                OutputStream out = new BufferedOutputStream(pub.getOutputStream(), 1 << 16);
                for (int i = 0; i < messages; i++) {
                    out.write(publish);
                }
                out.flush();
                replies.join();
                System.out.printf("flood of %d MB: %d of %d messages reached the stalled subscriber, %.2f s%n",
                        megabytes, delivered[0], messages, (System.nanoTime() - start) / 1e9);
            }
        }
    }

    private static byte[] frame(String channel, int size) {
        return ("*3\r\n$7\r\nmessage\r\n$" + channel.length() + "\r\n" + channel + "\r\n$" + size + "\r\n"
                + "x".repeat(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] command(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void readExactly(InputStream in, long bytes) throws IOException {
        byte[] buf = new byte[1 << 16];
        long left = bytes;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new IOException("closed with " + left + " bytes to go");
            }
            left -= n;
        }
    }

    private static void countLines(InputStream in, int lines) throws IOException {
        sumIntegers(in, lines);
    }

    /** Reads {@code lines} integer replies ({@code :n\r\n}) and returns their sum. */
    private static long sumIntegers(InputStream in, int lines) throws IOException {
        byte[] buf = new byte[1 << 16];
        long sum = 0;
        long current = 0;
        int seen = 0;
        while (seen < lines) {
            int n = in.read(buf);
            if (n < 0) {
                throw new IOException("closed after " + seen + " replies");
            }
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b >= '0' && b <= '9') {
                    current = current * 10 + (b - '0');
                } else if (b == '\n') {
                    sum += current;
                    current = 0;
                    seen++;
                }
            }
        }
        return sum;
    }
}
