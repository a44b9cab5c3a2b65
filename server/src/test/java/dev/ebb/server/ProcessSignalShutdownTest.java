package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ShutdownParams;

/**
 * A real ebb-server process stopped by SIGTERM ({@link Process#destroy()} on Linux), SIGINT or SHUTDOWN:
 * exit status 0 and Redis's log lines, as redis-server 7.2 does. The process is
 * {@code java -jar server/target/ebb-server.jar} when that jar is at least as new as the compiled
 * classes (after {@code mvn package}); otherwise the same {@code Main} from the test class path,
 * so that {@code mvn test} never runs a stale jar.
 */
class ProcessSignalShutdownTest {
    private static final long WAIT_SECONDS = 60;
    private static final Pattern STARTED = Pattern.compile("started \\(Redis [^)]*\\): port (\\d+)");

    @TempDir
    Path dir;

    @Test
    void sigtermShouldShutDownCleanlyWithExitCodeZero() throws Exception {
        Path pidFile = dir.resolve("ebb.pid");
        Process process = start("--pidfile", pidFile.toString(), "--save", "3600 1");
        Path log = dir.resolve("out.log");
        awaitPort(process, log);
        assertTrue(Files.exists(pidFile), "pid file written");

        process.destroy();

        assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "exited after SIGTERM");
        assertEquals(0, process.exitValue(), output(log));
        assertInOrder(output(log), "Received SIGTERM scheduling shutdown...",
                "User requested shutdown...",
                "Saving the final RDB snapshot before exiting.",
                "DB saved on disk",
                "Removing the pid file.",
                "Ebb is now ready to exit, bye bye...");
        assertFalse(Files.exists(pidFile), "pid file removed");
    }

    @Test
    void sigintShouldShutDownTheSameWay() throws Exception {
        Process process = start();
        Path log = dir.resolve("out.log");
        awaitPort(process, log);

        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();

        assertTrue(kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -INT sent");
        assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "exited after SIGINT");
        assertEquals(0, process.exitValue(), output(log));
        assertInOrder(output(log), "Received SIGINT scheduling shutdown...", "User requested shutdown...",
                "Ebb is now ready to exit, bye bye...");
    }

    @Test
    void shutdownCommandShouldExitWithCodeZeroAfterARefusedSave() throws Exception {
        Process process = start();
        Path log = dir.resolve("out.log");
        int port = awaitPort(process, log);

        // A directory where the file should go makes the final rename fail, as it would in Redis.
        Files.createDirectories(dir.resolve("dump.rdb").resolve("in-the-way"));
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            JedisDataException refused = assertThrows(JedisDataException.class,
                    () -> j.shutdown(ShutdownParams.shutdownParams().save()));
            assertEquals("ERR Errors trying to SHUTDOWN. Check logs.", refused.getMessage());
            assertEquals("PONG", j.ping());
            j.shutdown(ShutdownParams.shutdownParams().nosave());
        }

        assertTrue(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "exited after SHUTDOWN");
        assertEquals(0, process.exitValue(), output(log));
        String out = output(log);
        assertInOrder(out, "User requested shutdown...", "Error moving temp DB file temp-",
                "Error trying to save the DB, can't exit.",
                "Errors trying to shut down the server. Check the logs for more information.",
                "User requested shutdown...", "Ebb is now ready to exit, bye bye...");
        assertFalse(out.contains("Received SIGTERM"), out);
    }

    @Test
    void sigintIgnoredByTheStartingShellShouldBeLoggedAndSigtermShouldStillStopTheServer() throws Exception {
        // A non-interactive shell starts background jobs with SIGINT ignored, which a JVM cannot undo.
        String command = String.join(" ", command().stream().map(a -> "'" + a + "'").toList());
        Path log = dir.resolve("out.log");
        Process shell = new ProcessBuilder("sh", "-c", command + " >'" + log + "' 2>&1 & echo $!; wait $!")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long pid = Long.parseLong(new BufferedReader(new InputStreamReader(shell.getInputStream(),
                StandardCharsets.US_ASCII)).readLine().trim());
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
        try {
            awaitPort(shell, log);
            assertTrue(output(log).contains("SIGINT is ignored: the process that started Ebb ignored it (a background"
                    + " job of a non-interactive shell), and a JVM cannot undo that. Stop Ebb with SIGTERM or"
                    + " SHUTDOWN."), output(log));
            assertFalse(output(log).contains("SIGTERM is ignored"), output(log));

            server.destroy();

            assertTrue(shell.waitFor(WAIT_SECONDS, TimeUnit.SECONDS), "exited after SIGTERM");
            assertEquals(0, shell.exitValue(), output(log));
            assertInOrder(output(log), "Received SIGTERM scheduling shutdown...", "Ebb is now ready to exit, bye bye...");
        } finally {
            server.destroyForcibly();
        }
    }

    private Process start(String... args) throws IOException {
        return new ProcessBuilder(command(args)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.log").toFile()).start();
    }

    private List<String> command(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx128m");
        Path jar = freshJar();
        if (jar != null) {
            command.add("-jar");
            command.add(jar.toString());
        } else {
            command.add("-cp");
            command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
            command.add(Main.class.getName());
        }
        command.addAll(List.of("--port", "0", "--dir", dir.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** server/target/ebb-server.jar if no compiled class is newer than it, else null. */
    private static Path freshJar() throws IOException {
        Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Path jar = classes.resolveSibling("ebb-server.jar");
        if (!Files.isRegularFile(jar)) {
            return null;
        }
        FileTime built = Files.getLastModifiedTime(jar);
        try (Stream<Path> files = Files.walk(classes)) {
            boolean stale = files.filter(Files::isRegularFile).anyMatch(f -> {
                try {
                    return Files.getLastModifiedTime(f).compareTo(built) > 0;
                } catch (IOException e) {
                    return true;
                }
            });
            return stale ? null : jar;
        }
    }

    /** Polls the output for the start-up line and returns the port it names. */
    private static int awaitPort(Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            Matcher m = STARTED.matcher(output(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                fail("exited with " + process.exitValue() + " before starting:\n" + output(log));
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        fail("did not start within " + WAIT_SECONDS + " s:\n" + output(log));
        return -1;
    }

    private static String output(Path log) throws IOException {
        return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    }

    private static void assertInOrder(String output, String... lines) {
        int from = 0;
        for (String line : lines) {
            int at = output.indexOf(line, from);
            assertTrue(at >= 0, "'" + line + "' missing (in order) from:\n" + output);
            from = at + line.length();
        }
    }
}
