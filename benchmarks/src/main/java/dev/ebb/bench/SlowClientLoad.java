package dev.ebb.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The two big-reply cases of issue #15, run against any Redis-protocol server, with another
 * client's PING latency measured beside them (a load test for a person, not a CI test):
 *
 * <ul>
 *   <li>{@code big-replies}: one client pipelines {@code count} GETs of a 1 MB value and reads
 *       every reply; prints how long that took.</li>
 *   <li>{@code slow-reader}: one client with a 4 KB receive buffer pipelines {@code count} GETs of
 *       the 1 MB value and never reads; prints when (if) the server closed it and the server's
 *       resident memory before and at the end (from {@code /proc}, with INFO's process_id).
 *       Pass a limit such as {@code "normal 32mb 8mb 10"} to set it with CONFIG SET first.</li>
 * </ul>
 *
 * <p>Meanwhile a second client sends PING every 10 ms and the run prints its latency (p50, p99,
 * max). Everything goes to {@code host:port} on loopback, bounded in count and time.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.ebb.bench.SlowClientLoad 6379 big-replies 300
 * java -cp benchmarks/target/benchmarks.jar dev.ebb.bench.SlowClientLoad 6379 slow-reader 300 "normal 32mb 8mb 10"
 * </pre>
 */
public final class SlowClientLoad {
    private static final int VALUE_BYTES = 1 << 20;
    private static final long SLOW_READER_WATCH_MS = 10_000;

    private SlowClientLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: SlowClientLoad <port> big-replies|slow-reader <count> [client-output-buffer-limit]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        String mode = args[1];
        int count = Integer.parseInt(args[2]);
        try (Socket admin = connect(port, 0)) {
            if (args.length > 3) {
                call(admin, "CONFIG", "SET", "client-output-buffer-limit", args[3]);
            }
            byte[] value = new byte[VALUE_BYTES];
            Arrays.fill(value, (byte) 'v');
            call(admin, "SET".getBytes(StandardCharsets.US_ASCII), "big".getBytes(StandardCharsets.US_ASCII), value);
            long pid = pid(admin);
            long rssBefore = rssKb(pid);
            PingProbe probe = new PingProbe(port);
            Thread probeThread = new Thread(probe, "ping-probe");
            probeThread.start();
            Thread.sleep(200);
            String outcome = "big-replies".equals(mode) ? bigReplies(port, count) : slowReader(port, count, pid);
            probe.stop.set(true);
            probeThread.join();
            System.out.printf("%s count=%d: %s; other client's PING p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d pings);"
                            + " server RSS %d MB before, %d MB after%n",
                    mode, count, outcome, probe.percentile(50), probe.percentile(99), probe.percentile(100),
                    probe.samples, rssBefore / 1024, rssKb(pid) / 1024);
            call(admin, "DEL", "big");
        }
    }

    private static String bigReplies(int port, int count) throws IOException {
        try (Socket s = connect(port, 0)) {
            long start = System.nanoTime();
            OutputStream out = s.getOutputStream();
            out.write(repeat("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n", count));
            out.flush();
            long expected = (long) count * (VALUE_BYTES + ("$" + VALUE_BYTES + "\r\n\r\n").length());
            InputStream in = s.getInputStream();
            byte[] buf = new byte[1 << 16];
            long read = 0;
            while (read < expected) {
                int n = in.read(buf);
                if (n < 0) {
                    return "connection closed after " + read + " of " + expected + " bytes";
                }
                read += n;
            }
            return String.format("read %d MB in %.2f s", read >> 20, (System.nanoTime() - start) / 1e9);
        }
    }

    private static String slowReader(int port, int count, long pid) throws Exception {
        try (Socket s = connect(port, 4096)) {
            long start = System.nanoTime();
            s.getOutputStream().write(repeat("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n", count));
            s.getOutputStream().flush();
            long peakRss = 0;
            long deadline = start + SLOW_READER_WATCH_MS * 1_000_000;
            while (System.nanoTime() < deadline) {
                peakRss = Math.max(peakRss, rssKb(pid));
                if (closedByServer(s)) {
                    return String.format("closed by the server after %.2f s (peak RSS %d MB)",
                            (System.nanoTime() - start) / 1e9, peakRss / 1024);
                }
                Thread.sleep(50);
            }
            return String.format("still open after %d s (peak RSS %d MB)", SLOW_READER_WATCH_MS / 1000,
                    peakRss / 1024);
        }
    }

    /** True once the server has reset or closed the connection: a write then fails. */
    private static boolean closedByServer(Socket s) {
        try {
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Sends PING every 10 ms and records each round trip. */
    private static final class PingProbe implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final long[] micros = new long[100_000];
        final int port;
        int samples;

        PingProbe(int port) {
            this.port = port;
        }

        @Override
        public void run() {
            try (Socket s = connect(port, 0)) {
                byte[] reply = new byte[7];
                while (!stop.get() && samples < micros.length) {
                    long t = System.nanoTime();
                    s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                    readFully(s.getInputStream(), reply);
                    micros[samples++] = (System.nanoTime() - t) / 1000;
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                System.err.println("ping probe: " + e);
            }
        }

        double percentile(int p) {
            if (samples == 0) {
                return Double.NaN;
            }
            long[] sorted = Arrays.copyOf(micros, samples);
            Arrays.sort(sorted);
            int at = Math.min(samples - 1, (int) Math.ceil(p / 100.0 * samples) - 1);
            return sorted[Math.max(0, at)] / 1000.0;
        }
    }

    private static Socket connect(int port, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(120_000);
        return s;
    }

    private static String call(Socket s, String... args) throws IOException {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return call(s, bytes);
    }

    /** Sends one command and returns its reply's first line (a bulk's body for a bulk reply). */
    private static String call(Socket s, byte[]... args) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : args) {
            out.write(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(arg);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
        InputStream in = s.getInputStream();
        String line = readLine(in);
        if (line.startsWith("$") && !line.equals("$-1")) {
            byte[] body = new byte[Integer.parseInt(line.substring(1)) + 2];
            readFully(in, body);
            return new String(body, 0, body.length - 2, StandardCharsets.UTF_8);
        }
        if (line.startsWith("-")) {
            throw new IOException("server replied " + line);
        }
        return line;
    }

    private static long pid(Socket admin) throws IOException {
        for (String line : call(admin, "INFO", "server").split("\r\n")) {
            if (line.startsWith("process_id:")) {
                return Long.parseLong(line.substring("process_id:".length()).trim());
            }
        }
        throw new IOException("INFO server has no process_id");
    }

    private static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static void readFully(InputStream in, byte[] into) throws IOException {
        int at = 0;
        while (at < into.length) {
            int n = in.read(into, at, into.length - at);
            if (n < 0) {
                throw new IOException("connection closed");
            }
            at += n;
        }
    }

    private static byte[] repeat(String command, int count) {
        return command.repeat(count).getBytes(StandardCharsets.US_ASCII);
    }
}
