package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SHUTDOWN stops the server: no reply, the connection closes, nobody can connect any more. */
class ServerShutdownCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void shutdownShouldCloseTheConnectionAndStopTheServer() throws IOException {
        int port = ebb.port();
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("SHUTDOWN", "NOW", "NOSAVE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
        }
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> ebb.server().awaitTermination());
        assertThrows(IOException.class, () -> new Socket(ebb.host(), port).close());
    }
}
