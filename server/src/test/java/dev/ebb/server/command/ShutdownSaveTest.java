package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.LogCapture;
import dev.ebb.server.ShutdownSequence;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SHUTDOWN and saving, until Ebb has persistence: SAVE fails as a Redis 7.2 whose final save fails
 * (the same reply, the same log lines, with Ebb's reason), FORCE exits anyway, and save points are
 * logged as ignored by a plain SHUTDOWN (where Ebb deliberately differs: Redis would refuse).
 */
class ShutdownSaveTest {
    private static final Duration STOP = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private EbbServer start(String extra) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\ndir " + dir + "\n" + extra));
    }

    private String saveFailure() throws Exception {
        return "WARN Failed saving the final RDB snapshot dump.rdb (in server root dir " + dir.toRealPath()
                + "): Ebb has no persistence yet";
    }

    @Test
    void shutdownSaveShouldReplyAsRedisLogWhyAndKeepServing() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            String reply = s.call("SHUTDOWN", "SAVE");

            assertEquals("-ERR Errors trying to SHUTDOWN. Check logs.\r\n", reply);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting.",
                    saveFailure(),
                    "WARN Error trying to save the DB, can't exit.",
                    "WARN Errors trying to shut down the server. Check the logs for more information."), log.lines());
            assertEquals("+PONG\r\n", s.call("PING"));
        }
    }

    @Test
    void shutdownSaveForceShouldLogTheFailureAndExitAnyway() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            s.send("SHUTDOWN", "SAVE", "FORCE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting.",
                    saveFailure(),
                    "WARN Error trying to save the DB. Exit anyway."), log.lines());
        }
    }

    @Test
    void plainShutdownWithSavePointsShouldSayTheyAreIgnoredAndStop() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            s.send("SHUTDOWN");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "WARN Not saving the final RDB snapshot: Ebb has no persistence yet, the save points are ignored."),
                    log.lines());
        }
    }

    @Test
    void shutdownNosaveWithSavePointsShouldStopWithoutMentioningThem() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            s.send("SHUTDOWN", "NOSAVE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown..."), log.lines());
        }
    }

    @Test
    void shutdownFromJavaShouldRunTheSameSequence() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n")) {

            server.shutdown();

            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "WARN Not saving the final RDB snapshot: Ebb has no persistence yet, the save points are ignored."),
                    log.lines());
        }
    }
}
