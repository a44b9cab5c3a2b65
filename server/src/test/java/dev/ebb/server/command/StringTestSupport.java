package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import dev.ebb.storage.MemoryEstimated;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.function.Executable;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisDataException;

/** Helpers shared by the string and bitmap command tests. */
final class StringTestSupport {
    private static final String PONG = "+PONG\r\n";

    private StringTestSupport() {
    }

    /**
     * A stored value that is not a string. No other value type exists in the keyspace yet, and
     * WRONGTYPE only needs "anything but a byte[]".
     */
    static final class NotAString implements MemoryEstimated {
        @Override
        public long memoryBytes() {
            return 16;
        }
    }

    /** Stores a {@link NotAString} at {@code key} in database 0, on the command loop. */
    static void storeNotAString(EbbExtension ebb, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ebb.server().runOnLoop(s -> s.db(0).setKey(k, new NotAString(), s.nowMs()));
    }

    /** Asserts that {@code call} fails with exactly Redis's error text {@code expected}. */
    static void assertError(String expected, Executable call) {
        assertEquals(expected, assertThrows(JedisDataException.class, call).getMessage());
    }

    /** A Jedis client that switched to RESP3 with HELLO 3. */
    static Jedis resp3Client(EbbExtension ebb) {
        return new Jedis(ebb.host(), ebb.port(),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).build());
    }

    /**
     * The exact bytes (as Latin-1 text) of the RESP3 reply to {@code command}, read from a plain
     * socket: HELLO 3 first, and a PING after each exchange to know where a reply ends.
     */
    static String resp3Reply(EbbExtension ebb, String... command) throws IOException {
        try (Socket socket = new Socket(ebb.host(), ebb.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(encode("HELLO", "3"));
            out.write(encode("PING"));
            readThroughPong(in);
            out.write(encode(command));
            out.write(encode("PING"));
            String replies = readThroughPong(in);
            return replies.substring(0, replies.length() - PONG.length());
        }
    }

    private static byte[] encode(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.getBytes(StandardCharsets.ISO_8859_1).length).append("\r\n").append(arg)
                    .append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String readThroughPong(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.ISO_8859_1).endsWith(PONG)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before PONG; read: " + bytes);
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
