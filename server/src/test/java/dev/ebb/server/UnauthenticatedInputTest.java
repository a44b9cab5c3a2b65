package dev.ebb.server;

import static dev.ebb.server.ConnectionLimitsTest.SOCKET_SLACK;
import static dev.ebb.server.ConnectionLimitsTest.readAll;
import static dev.ebb.server.ConnectionLimitsTest.sendUntilClosed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a client that has not authenticated may send with requirepass set, against raw sockets.
 * Expected conversations are what redis-server 7.2.4 with the same requirepass answered to the
 * same bytes written in one write.
 */
class UnauthenticatedInputTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("requirepass", "secret");

    private static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    @Test
    void elevenArgumentsShouldBeRefusedAtTheCountLineAndClosed() throws Exception {
        assertEquals("-ERR Protocol error: unauthenticated multibulk length\r\n", converse("*11\r\n"));
    }

    @Test
    void aThreeHundredMegabyteBulkShouldBeRefusedAtItsHeaderAndCutThere() throws Exception {
        try (Socket s = socket()) {
            s.getOutputStream().write(ascii("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$314572800\r\n"));

            long sent = sendUntilClosed(s.getOutputStream(), 300L << 20);

            assertTrue(sent < SOCKET_SLACK, "bytes taken before the cut: " + sent);
            assertEquals("-ERR Protocol error: unauthenticated bulk length\r\n", readAll(s.getInputStream()));
        }
    }

    @Test
    void tenArgumentsOf16KilobytesShouldStillGetNoauth() throws Exception {
        StringBuilder request = new StringBuilder("*10\r\n$4\r\nMSET\r\n");
        String value = "v".repeat(16 * 1024);
        for (int i = 0; i < 9; i++) {
            request.append("$").append(value.length()).append("\r\n").append(value).append("\r\n");
        }

        assertEquals("-NOAUTH Authentication required.\r\n+OK\r\n", converse(request + "QUIT\r\n"));
    }

    @Test
    void theLimitsShouldStopApplyingFromTheRequestAfterASuccessfulAuthInTheSameWrite() throws Exception {
        String value = "v".repeat(20_000);
        String request = "AUTH secret\r\n"
                + "*11\r\n$4\r\nMSET\r\n" + "$2\r\nk1\r\n$1\r\na\r\n".repeat(5)
                + "*3\r\n$3\r\nSET\r\n$2\r\nk2\r\n$20000\r\n" + value + "\r\n"
                + "STRLEN k2\r\nQUIT\r\n";

        assertEquals("+OK\r\n+OK\r\n+OK\r\n:20000\r\n+OK\r\n", converse(request));
    }

    @Test
    void aResetInTheSameWriteShouldLimitTheRequestsAfterIt() throws Exception {
        assertEquals("+OK\r\n+RESET\r\n-ERR Protocol error: unauthenticated multibulk length\r\n",
                converse("AUTH secret\r\nRESET\r\n*11\r\n"));
    }

    @Test
    void ofWrongPasswordsInOneWriteOnlyTheFirstShouldBeAnsweredButAllChecked() throws Exception {
        assertEquals(WRONGPASS + "+OK\r\n+PONG\r\n+OK\r\n",
                converse("AUTH wrong\r\nAUTH wrong2\r\nAUTH secret\r\nPING\r\nQUIT\r\n"));
        assertEquals("-NOAUTH Authentication required.\r\n+OK\r\n+PONG\r\n+OK\r\n",
                converse("PING\r\nAUTH wrong\r\nAUTH secret\r\nPING\r\nQUIT\r\n"));
        assertEquals(WRONGPASS + "-NOAUTH Authentication required.\r\n+OK\r\n",
                converse("HELLO 3 AUTH default wrong\r\nHELLO 3 AUTH default wrong\r\nPING\r\nQUIT\r\n"));
    }

    @Test
    void aWrongPasswordInsideExecShouldStillBeAnsweredSoTheArrayIsWhole() throws Exception {
        assertEquals("+OK\r\n+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n" + WRONGPASS + "+PONG\r\n+OK\r\n",
                converse("AUTH secret\r\nMULTI\r\nAUTH wrong\r\nPING\r\nEXEC\r\nQUIT\r\n"));
    }

    @Test
    void twentyThousandPipelinedGuessesShouldDrawFarFewerRepliesAndTheRightOneShouldStillWork() throws Exception {
        String guess = "*2\r\n$4\r\nAUTH\r\n$5\r\nwrong\r\n";
        byte[] burst = ascii(guess.repeat(19_999) + "*2\r\n$4\r\nAUTH\r\n$6\r\nsecret\r\nPING\r\nQUIT\r\n");
        try (Socket s = socket()) {
            // Written from another thread: the server may answer before the burst is all written.
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    s.getOutputStream().write(burst);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });

            String replies = readAll(s.getInputStream());

            writing.join();
            int wrongpass = (replies.length() - replies.replace(WRONGPASS, "").length()) / WRONGPASS.length();
            assertTrue(replies.endsWith("+OK\r\n+PONG\r\n+OK\r\n"), () -> "ends " + tail(replies));
            assertTrue(wrongpass >= 1 && wrongpass < 1_000, "WRONGPASS replies: " + wrongpass);
        }
    }

    @Test
    void anHttpPostShouldCloseAnUnauthenticatedConnectionToo() throws Exception {
        assertEquals("", converse("POST / HTTP/1.1\r\nHost: x\r\n\r\n"));
    }

    private static String converse(String request) throws IOException {
        try (Socket s = socket()) {
            s.getOutputStream().write(ascii(request));
            return readAll(s.getInputStream());
        }
    }

    private static String tail(String s) {
        return s.substring(Math.max(0, s.length() - 200));
    }

    private static Socket socket() throws IOException {
        Socket s = new Socket(ebb.host(), ebb.port());
        s.setSoTimeout(60_000);
        return s;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
