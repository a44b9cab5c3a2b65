package dev.ebb.server.replication;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A replica that syncs (disk-based, {@code $len} payload), then reads and discards the stream and
 * never acknowledges it, so that a FAILOVER towards it waits. It also listens on its announced port
 * as a primary would: a node failing over to it connects there, and the handshake is answered
 * ({@code +PONG}, {@code +OK}) until PSYNC, whose arguments are recorded and which gets the reply
 * set by {@link #answerPsync}.
 */
final class FakeReplica implements AutoCloseable {
    private final ServerSocket listener;
    private final Socket link;
    private final BlockingQueue<List<String>> psyncs = new LinkedBlockingQueue<>();
    private final List<Socket> accepted = new ArrayList<>();
    private volatile String psyncAnswer = "+CONTINUE";

    private FakeReplica(ServerSocket listener, Socket link) {
        this.listener = listener;
        this.link = link;
    }

    /** Connects to the primary on {@code port}, syncs, and keeps draining its stream on a thread. */
    static FakeReplica attach(int port) throws IOException {
        ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Socket link = new Socket("127.0.0.1", port);
        FakeReplica fake = new FakeReplica(listener, link);
        OutputStream out = link.getOutputStream();
        InputStream in = new BufferedInputStream(link.getInputStream());
        out.write(command("REPLCONF", "listening-port", Integer.toString(listener.getLocalPort())));
        expect(line(in), "+OK");
        out.write(command("PSYNC", "?", "-1"));
        expect(line(in), "+FULLRESYNC");
        String header;
        do {
            header = line(in);
        } while (header.isEmpty());
        expect(header, "$");
        long left = Long.parseLong(header.substring(1));
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("the primary closed the link during the payload");
                }
                skipped = 1;
            }
            left -= skipped;
        }
        daemon(() -> drain(in));
        daemon(fake::serve);
        return fake;
    }

    int listeningPort() {
        return listener.getLocalPort();
    }

    /** The reply the next PSYNC this fake receives as a primary gets. */
    void answerPsync(String reply) {
        psyncAnswer = reply;
    }

    /** The arguments of the next PSYNC received as a primary. */
    List<String> awaitPsync() throws InterruptedException {
        List<String> args = psyncs.poll(60, TimeUnit.SECONDS);
        if (args == null) {
            throw new AssertionError("no PSYNC reached the fake replica's port within 60 s");
        }
        return args;
    }

    private void serve() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                synchronized (accepted) {
                    accepted.add(s);
                }
                daemon(() -> answer(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void answer(Socket s) {
        try {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                List<String> args = readCommand(in);
                String name = args.get(0).toUpperCase();
                if (name.equals("PING")) {
                    out.write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
                } else if (name.equals("PSYNC")) {
                    String reply = psyncAnswer;
                    out.write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    psyncs.add(args);
                    if (reply.startsWith("-")) {
                        s.close();
                        return;
                    }
                } else if (name.equals("REPLCONF") && args.size() > 1 && args.get(1).equalsIgnoreCase("ack")) {
                    continue;
                } else {
                    out.write("+OK\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
        } catch (IOException | RuntimeException closed) {
            // The node disconnected, or the test ended.
        }
    }

    private static List<String> readCommand(InputStream in) throws IOException {
        String header = line(in);
        expect(header, "*");
        int n = Integer.parseInt(header.substring(1));
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int len = Integer.parseInt(line(in).substring(1));
            byte[] b = in.readNBytes(len + 2);
            args.add(new String(b, 0, len, StandardCharsets.ISO_8859_1));
        }
        return args;
    }

    private static void drain(InputStream in) {
        byte[] buf = new byte[8192];
        try {
            while (in.read(buf) >= 0) {
                // The stream is not applied: this replica never acknowledges it.
            }
        } catch (IOException closed) {
            // Closed by the test or the primary.
        }
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "fake-replica");
        t.setDaemon(true);
        t.start();
    }

    private static void expect(String line, String prefix) throws IOException {
        if (!line.startsWith(prefix)) {
            throw new IOException("expected " + prefix + " but got " + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            sb.append((char) b);
        }
        int end = sb.length() > 0 && sb.charAt(sb.length() - 1) == '\r' ? sb.length() - 1 : sb.length();
        return sb.substring(0, end);
    }

    private static byte[] command(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        link.close();
        synchronized (accepted) {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
