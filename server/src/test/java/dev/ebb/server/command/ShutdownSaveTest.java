package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.LogCapture;
import dev.ebb.server.ShutdownSequence;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SHUTDOWN and saving, as Redis 7.2's finishShutdown: SAVE, or save points without NOSAVE, write the
 * RDB file before the server stops (the same log lines); a save that fails refuses the shutdown with
 * Redis's reply and keeps serving, unless FORCE; NOSAVE stops without writing.
 */
class ShutdownSaveTest {
    private static final Duration STOP = Duration.ofSeconds(30);

    @TempDir
    Path root;

    private Path dir;

    private EbbServer start(String extra) throws Exception {
        dir = Files.createDirectories(root.resolve("data"));
        return EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir + "\n" + extra));
    }

    private Path dump() {
        return dir.resolve("dump.rdb");
    }

    @Test
    void shutdownSaveShouldWriteTheFileAndStop() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {
            s.call("SET", "k", "v");

            s.send("SHUTDOWN", "SAVE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting."), log.lines());
            assertTrue(Files.size(dump()) > 0);
        }
    }

    @Test
    void aFailedSaveShouldRefuseTheShutdownAndKeepServing() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {
            Files.delete(dir);

            String reply = s.call("SHUTDOWN", "SAVE");

            assertEquals("-ERR Errors trying to SHUTDOWN. Check logs.\r\n", reply);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting.",
                    "WARN Error trying to save the DB, can't exit.",
                    "WARN Errors trying to shut down the server. Check the logs for more information."), log.lines());
            assertEquals("+PONG\r\n", s.call("PING"));
        }
    }

    @Test
    void aFailedSaveWithForceShouldExitAnyway() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {
            Files.delete(dir);

            s.send("SHUTDOWN", "SAVE", "FORCE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting.",
                    "WARN Error trying to save the DB. Exit anyway."), log.lines());
        }
    }

    @Test
    void plainShutdownWithSavePointsShouldSave() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            s.send("SHUTDOWN");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting."), log.lines());
            assertTrue(Files.exists(dump()));
        }
    }

    @Test
    void shutdownNosaveWithSavePointsShouldStopWithoutSaving() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            s.send("SHUTDOWN", "NOSAVE");

            assertTrue(s.closedByServer(), "no reply, just the end of the connection");
            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown..."), log.lines());
            assertFalse(Files.exists(dump()));
        }
    }

    @Test
    void shutdownFromJavaShouldRunTheSameSequence() throws Exception {
        try (LogCapture log = new LogCapture(ShutdownSequence.class); EbbServer server = start("save 3600 1\n")) {

            server.shutdown();

            assertTimeoutPreemptively(STOP, server::awaitTermination);
            assertEquals(List.of("INFO User requested shutdown...",
                    "INFO Saving the final RDB snapshot before exiting."), log.lines());
            assertTrue(Files.exists(dump()));
        }
    }
}
