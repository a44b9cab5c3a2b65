package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** maxclients, proto-max-bulk-len and client-query-buffer-limit against raw sockets. */
class ConnectionLimitsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension()
            .config("maxclients", "4")
            .config("client-query-buffer-limit", "1mb");

    private static final long TWO_GB = 2L << 30;

    /** Earlier tests' closed sockets may still be unregistering and would count against maxclients. */
    @BeforeEach
    void awaitEarlierClientsGone() throws InterruptedException {
        AtomicInteger clients = new AtomicInteger();
        for (int i = 0; i < 500; i++) {
            ebb.server().runOnLoop(s -> clients.set(s.clients().size()));
            if (clients.get() == 0) {
                return;
            }
            Thread.sleep(10);
        }
        assertEquals(0, clients.get(), "clients left connected by an earlier test");
    }

    @Test
    void theConnectionBeyondMaxclientsShouldBeRefusedAndClosed() throws Exception {
        List<Jedis> open = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Jedis j = new Jedis(ebb.host(), ebb.port());
                assertEquals("PONG", j.ping());
                open.add(j);
            }
            long rejectedBefore = rejected(open.get(0));

            try (Socket extra = socket()) {
                assertEquals("-ERR max number of clients reached\r\n", readAll(extra.getInputStream()));
            }

            assertEquals(rejectedBefore + 1, rejected(open.get(0)));
            open.remove(3).close();
            assertEquals("PONG", eventually(() -> {
                try (Jedis again = new Jedis(ebb.host(), ebb.port())) {
                    return again.ping();
                }
            }));
        } finally {
            open.forEach(Jedis::close);
        }
    }

    @Test
    void aBulkLengthAboveProtoMaxBulkLenShouldBeRefusedAtOnce() throws Exception {
        for (String header : new String[] {"$99999999999", "$536870913", "$2147483648"}) {
            try (Socket s = socket()) {
                s.getOutputStream().write(("*2\r\n$3\r\nSET\r\n" + header + "\r\n").getBytes(StandardCharsets.US_ASCII));

                assertEquals("-ERR Protocol error: invalid bulk length\r\n", readAll(s.getInputStream()), header);
            }
        }
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("PONG", j.ping());
        }
    }

    @Test
    void aHugeArgumentShouldBeCutAtTheQueryBufferLimit() throws Exception {
        try (Socket s = socket()) {
            s.getOutputStream().write("*2\r\n$3\r\nGET\r\n$536870000\r\n".getBytes(StandardCharsets.US_ASCII));

            long sent = sendUntilClosed(s.getOutputStream(), TWO_GB);

            assertTrue(sent < 1024 * 1024 + SOCKET_SLACK, "bytes accepted before the cut: " + sent);
        }
    }

    @Test
    void aTwoGigabyteInlineQueryWithoutNewlineShouldBeCutAt64Kb() throws Exception {
        try (Socket s = socket()) {
            long sent = sendUntilClosed(s.getOutputStream(), TWO_GB);

            assertTrue(sent < 64 * 1024 + SOCKET_SLACK, "bytes accepted before the cut: " + sent);
            assertEquals("-ERR Protocol error: too big inline request\r\n", readAll(s.getInputStream()));
        }
    }

    @Test
    void aSeventyKilobyteInlineCommandWrittenAtOnceShouldBeAcceptedAsRedisAcceptsIt() throws Exception {
        String value = "x".repeat(70 * 1024);
        try (Socket s = socket()) {
            s.getOutputStream().write(("ECHO " + value + "\r\nQUIT\r\n").getBytes(StandardCharsets.US_ASCII));

            assertEquals("$" + value.length() + "\r\n" + value + "\r\n+OK\r\n", readAll(s.getInputStream()));
        }
    }

    @Test
    void anUnterminatedLineJustOver64KbShouldBeRefusedWithoutWaitingForMore() throws Exception {
        byte[] head = new byte[64 * 1024 + 1];
        Arrays.fill(head, (byte) 'x');
        head[0] = 'E';
        try (Socket s = socket()) {
            s.getOutputStream().write(head);

            // Nothing more is sent: the server must decide on the 64 KB + 1 bytes it holds.
            String reply = readUntilClosedOrLine(s.getInputStream());

            assertEquals("-ERR Protocol error: too big inline request\r\n", reply);
        }
    }

    private static String readUntilClosedOrLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != -1; ) {
            buf.write(b);
            if (b == '\n') {
                break;
            }
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    /** What the kernel's socket buffers on both ends may take in after the server stopped reading. */
    static final long SOCKET_SLACK = 16L << 20;

    static long sendUntilClosed(OutputStream out, long limit) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        long sent = 0;
        try {
            while (sent < limit) {
                out.write(chunk);
                sent += chunk.length;
            }
        } catch (IOException closedByServer) {
            return sent;
        }
        throw new AssertionError("the server took " + sent + " bytes without closing the connection");
    }

    private static Socket socket() throws IOException {
        Socket s = new Socket(ebb.host(), ebb.port());
        s.setSoTimeout(60_000);
        return s;
    }

    /** Everything the server sends until it closes the connection. */
    static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = in.read(b)) != -1; ) {
                buf.write(b, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after: " + buf.toString(StandardCharsets.ISO_8859_1));
        } catch (IOException reset) {
            // A reset after the reply is as good as a close.
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    private static long rejected(Jedis j) {
        for (String line : j.info("stats").split("\r\n")) {
            if (line.startsWith("rejected_connections:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1));
            }
        }
        throw new AssertionError("no rejected_connections in INFO");
    }

    private static <T> T eventually(java.util.concurrent.Callable<T> action) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            try {
                return action.call();
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
