package dev.ebb.server;

import static dev.ebb.server.ConnectionLimitsTest.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The unauthenticated limits with IO threads apart from the command loop: the decoder must still
 * judge each request by the state the request before it left, as Redis does.
 */
class UnauthenticatedInputIoThreadsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("io-threads", "2").config("requirepass", "secret");

    @Test
    void theLimitsShouldStopApplyingFromTheRequestAfterASuccessfulAuthInTheSameWrite() throws Exception {
        String value = "v".repeat(20_000);
        String request = "PING\r\nAUTH secret\r\n"
                + "*11\r\n$4\r\nMSET\r\n" + "$2\r\nk1\r\n$1\r\na\r\n".repeat(5)
                + "*3\r\n$3\r\nSET\r\n$2\r\nk2\r\n$20000\r\n" + value + "\r\n"
                + "STRLEN k2\r\nQUIT\r\n";

        assertEquals("-NOAUTH Authentication required.\r\n+OK\r\n+OK\r\n+OK\r\n:20000\r\n+OK\r\n", converse(request));
    }

    @Test
    void elevenArgumentsAfterAWrongAuthInTheSameWriteShouldBeRefused() throws Exception {
        assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n"
                + "-ERR Protocol error: unauthenticated multibulk length\r\n",
                converse("AUTH wrong\r\n*11\r\n"));
    }

    @Test
    void twentyThousandPipelinedGuessesShouldDrawFarFewerRepliesAndTheRightOneShouldStillWork() throws Exception {
        String wrongpass = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";
        String guess = "*2\r\n$4\r\nAUTH\r\n$5\r\nwrong\r\n";
        byte[] burst = (guess.repeat(19_999) + "*2\r\n$4\r\nAUTH\r\n$6\r\nsecret\r\nPING\r\nQUIT\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket(ebb.host(), ebb.port())) {
            s.setSoTimeout(30_000);
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
            int answered = (replies.length() - replies.replace(wrongpass, "").length()) / wrongpass.length();
            assertTrue(replies.endsWith("+OK\r\n+PONG\r\n+OK\r\n"),
                    () -> "ends " + replies.substring(Math.max(0, replies.length() - 200)));
            assertTrue(answered >= 1 && answered < 1_000, "WRONGPASS replies: " + answered);
        }
    }

    private static String converse(String request) throws IOException {
        try (Socket s = new Socket(ebb.host(), ebb.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return readAll(s.getInputStream());
        }
    }
}
