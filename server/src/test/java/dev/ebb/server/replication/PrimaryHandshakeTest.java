package dev.ebb.server.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.rdb.RdbLimits;
import dev.ebb.storage.rdb.RdbReader;
import dev.ebb.storage.rdb.RdbVisitor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** The primary's handshake on a raw socket: REPLCONF, PSYNC answered with +FULLRESYNC and an RDB, or +CONTINUE. */
class PrimaryHandshakeTest {
    @TempDir
    Path dir;
    private EbbServer ebb;

    @BeforeEach
    void start() throws Exception {
        ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir
                + "\nrepl-diskless-sync no\nrepl-ping-replica-period 3600\n"));
    }

    @AfterEach
    void stop() {
        ebb.close();
    }

    @Test
    void fullSyncShouldSendAnRdbWithTheReplicationAuxFieldsThenTheStream() throws IOException {
        try (Jedis j = new Jedis("127.0.0.1", ebb.port()); Socket s = new Socket("127.0.0.1", ebb.port())) {
            j.set("before", "1");
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            send(out, "REPLCONF", "listening-port", "7101", "capa", "eof", "capa", "psync2");
            assertEquals("+OK", line(in));

            send(out, "PSYNC", "?", "-1");
            String[] full = line(in).split(" ");
            byte[] rdb = bulkAfterKeepalives(in);
            Map<String, String> aux = new HashMap<>();
            Map<String, String> keys = new HashMap<>();
            new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(rdb), new RdbVisitor() {
                @Override
                public void aux(byte[] key, byte[] value) {
                    aux.put(new String(key, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8));
                }

                @Override
                public void entry(int db, byte[] key, Object value, long expireAtMs, long idle, int freq) {
                    keys.put(new String(key, StandardCharsets.UTF_8), String.valueOf(value));
                }
            });
            j.set("after", "2");
            byte[] stream = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$5\r\nafter\r\n$1\r\n2\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

            assertEquals("+FULLRESYNC", full[0]);
            assertEquals(full[1], aux.get("repl-id"));
            assertEquals(full[2], aux.get("repl-offset"));
            assertEquals("0", aux.get("repl-stream-db"));
            assertEquals(1, keys.size());
            assertTrue(keys.containsKey("before"));
            assertArrayEquals(stream, skipPings(in, stream.length));
            assertTrue(ReplicationData.info(j, "slave0").startsWith("ip=127.0.0.1,port=7101,state=online,offset=0,lag="));
            assertEquals("1", ReplicationData.info(j, "sync_full"));
        }
    }

    @Test
    void psyncWithinTheBacklogShouldContinueWithTheExactBytesAndOutsideItResyncFully() throws IOException {
        String replid;
        long offset;
        try (Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            try (Socket s = new Socket("127.0.0.1", ebb.port())) {
                s.setSoTimeout(30_000);
                send(s.getOutputStream(), "PSYNC", "?", "-1");
                String[] full = line(s.getInputStream()).split(" ");
                replid = full[1];
                offset = Long.parseLong(full[2]);
                bulkAfterKeepalives(s.getInputStream());
            }
            j.set("k", "v");
            byte[] expected = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

            try (Socket s = new Socket("127.0.0.1", ebb.port())) {
                s.setSoTimeout(30_000);
                send(s.getOutputStream(), "REPLCONF", "capa", "psync2");
                assertEquals("+OK", line(s.getInputStream()));
                send(s.getOutputStream(), "PSYNC", replid, Long.toString(offset + 1));
                assertEquals("+CONTINUE " + replid, line(s.getInputStream()));
                assertArrayEquals(expected, skipPings(s.getInputStream(), expected.length));
            }
            try (Socket s = new Socket("127.0.0.1", ebb.port())) {
                s.setSoTimeout(30_000);
                send(s.getOutputStream(), "PSYNC", replid, Long.toString(offset + 10_000_000));
                assertTrue(line(s.getInputStream()).startsWith("+FULLRESYNC " + replid + " "));
            }
            assertEquals("1", ReplicationData.info(j, "sync_partial_ok"));
            assertEquals("1", ReplicationData.info(j, "sync_partial_err"));
            assertEquals("2", ReplicationData.info(j, "sync_full"));
        }
    }

    @Test
    void replconfShouldAnswerAsRedis() throws IOException {
        try (Socket s = new Socket("127.0.0.1", ebb.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();

            send(out, "REPLCONF", "foo", "bar");
            assertEquals("-ERR Unrecognized REPLCONF option: foo", line(in));
            send(out, "REPLCONF", "listening-port");
            assertEquals("-ERR syntax error", line(in));
            send(out, "REPLCONF", "listening-port", "abc");
            assertEquals("-ERR value is not an integer or out of range", line(in));
            send(out, "REPLCONF", "rdb-only", "2");
            assertEquals("-ERR value is out of range, value must between 0 and 1", line(in));
            send(out, "REPLCONF", "rdb-filter-only", "x");
            assertEquals("-ERR Unsupported rdb-filter-only option: x", line(in));
            // ACK and GETACK from a client that is not a replica get no reply at all.
            send(out, "REPLCONF", "ack", "10");
            send(out, "REPLCONF", "getack", "*");
            send(out, "PING");
            assertEquals("+PONG", line(in));
        }
    }

    private static void send(OutputStream out, String... args) throws IOException {
        StringBuilder sb = new StringBuilder("*" + args.length + "\r\n");
        for (String a : args) {
            sb.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("closed after " + sb);
            }
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    /** The next {@code n} bytes of the stream after any PINGs the primary put in it. */
    private static byte[] skipPings(InputStream in, int n) throws IOException {
        byte[] ping = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] head = in.readNBytes(ping.length);
        while (java.util.Arrays.equals(head, ping)) {
            head = in.readNBytes(ping.length);
        }
        byte[] out = java.util.Arrays.copyOf(head, n);
        int got = in.readNBytes(out, head.length, n - head.length);
        assertEquals(n - head.length, got);
        return out;
    }

    /** {@code $<len>\r\n<bytes>} after any newline keepalives. */
    private static byte[] bulkAfterKeepalives(InputStream in) throws IOException {
        String header = line(in);
        while (header.isEmpty()) {
            header = line(in);
        }
        assertTrue(header.startsWith("$"), header);
        return in.readNBytes(Integer.parseInt(header.substring(1)));
    }
}
