package dev.ebb.server;

import static dev.ebb.server.ConnectionLimitsTest.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * HTTP sent to the port (cross-protocol scripting): a POST line or a Host: header closes the
 * connection before anything after it runs, without a reply. Expected conversations are what
 * redis-server 7.2.4 answered to the same bytes written in one write.
 */
class CrossProtocolTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void anHttpPostShouldBeClosedWithoutRunningTheCommandInItsBody() throws Exception {
        String body = "SET crossprotocol:post pwned\r\n";

        String reply = converse("POST / HTTP/1.1\r\nHost: localhost:6379\r\nContent-Type: text/plain\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body);

        assertEquals("", reply);
        assertAbsent("crossprotocol:post");
    }

    @Test
    void aHostHeaderShouldCloseTheConnectionBeforeTheBodyRuns() throws Exception {
        String reply = converse("PUT / HTTP/1.1\r\nHost: localhost:6379\r\n\r\nSET crossprotocol:host pwned\r\n");

        assertEquals("", reply);
        assertAbsent("crossprotocol:host");
    }

    @Test
    void aPostPipelinedAfterValidCommandsShouldDropTheirUnwrittenRepliesAndRunNothingAfterIt() throws Exception {
        String reply = converse("SET crossprotocol:before 1\r\nGET crossprotocol:before\r\n"
                + "POST / HTTP/1.1\r\nSET crossprotocol:after 2\r\n");

        assertEquals("", reply);
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("1", j.get("crossprotocol:before"));
        }
        assertAbsent("crossprotocol:after");
    }

    @Test
    void theNamesShouldBeMatchedInAnyCaseAndInMultibulkRequests() throws Exception {
        assertEquals("", converse("*1\r\n$4\r\npost\r\n"));
        assertEquals("", converse("*2\r\n$5\r\nHOST:\r\n$1\r\nx\r\n"));
        assertEquals("", converse("hOsT: example.com\r\n"));
    }

    @Test
    void aPostInsideMultiShouldCloseInsteadOfBeingQueued() throws Exception {
        assertEquals("", converse("MULTI\r\nSET crossprotocol:multi 1\r\nPOST\r\nEXEC\r\n"));

        assertAbsent("crossprotocol:multi");
    }

    @Test
    void repliesAlreadyWrittenShouldStayWritten() throws Exception {
        try (Socket s = socket()) {
            s.getOutputStream().write(ascii("PING\r\n"));
            byte[] pong = s.getInputStream().readNBytes(7);

            s.getOutputStream().write(ascii("POST / HTTP/1.1\r\n"));

            assertEquals("+PONG\r\n", new String(pong, StandardCharsets.US_ASCII));
            assertEquals("", readAll(s.getInputStream()));
        }
    }

    @Test
    void otherConnectionsShouldNotNotice() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("crossprotocol:other", "v");

            converse("POST / HTTP/1.1\r\n");

            assertEquals("v", j.get("crossprotocol:other"));
        }
    }

    /** Writes {@code request} in one write and returns everything read until the server closes. */
    private static String converse(String request) throws IOException {
        try (Socket s = socket()) {
            s.getOutputStream().write(ascii(request));
            return readAll(s.getInputStream());
        }
    }

    private static void assertAbsent(String key) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertNull(j.get(key), key);
        }
    }

    private static Socket socket() throws IOException {
        Socket s = new Socket(ebb.host(), ebb.port());
        s.setSoTimeout(10_000);
        return s;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
