package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A long-running process (redis-cli in --stat or --latency-history mode, or an interactive session
 * under a pseudo-terminal) whose output the test watches while it runs. The output, stdout and
 * stderr together, goes to a temporary file that {@link #await} polls every 20 ms until a pattern
 * shows up or a deadline passes; the test never sleeps for a fixed time. {@link #close()} kills the
 * process and everything it started.
 *
 * <p>Output is decoded as ISO-8859-1 so a poll that lands in the middle of a multi-byte character
 * cannot fail; everything redis-cli prints in these tests is ASCII. Not thread-safe.
 */
final class LiveProcess implements AutoCloseable {
    private static final long POLL_MILLIS = 20;

    private final List<String> command;
    private final Process process;
    private final Path output;
    private final OutputStream input;

    private LiveProcess(List<String> command, Process process, Path output) {
        this.command = command;
        this.process = process;
        this.output = output;
        this.input = process.getOutputStream();
    }

    static LiveProcess start(ProcessBuilder builder, List<String> command) {
        try {
            Path output = Files.createTempFile("redis-cli-live", ".txt");
            builder.redirectErrorStream(true).redirectOutput(output.toFile());
            return new LiveProcess(command, builder.start(), output);
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + command, e);
        }
    }

    /** Everything printed so far. */
    String output() {
        try {
            return new String(Files.readAllBytes(output), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalStateException("could not read the output of " + command, e);
        }
    }

    /** The current length of the output: pass it to {@link #await} to look only at what comes after. */
    int mark() {
        return output().length();
    }

    /** Writes {@code text} to the process's standard input (a terminal's keyboard, under script). */
    void type(String text) {
        try {
            input.write(text.getBytes(StandardCharsets.ISO_8859_1));
            input.flush();
        } catch (IOException e) {
            fail("could not type " + text.strip() + " into " + String.join(" ", command) + ": " + e
                    + "\n--- output so far:\n" + RedisCli.tail(output()));
        }
    }

    /**
     * Waits until the output from offset {@code from} on contains {@code pattern}; returns that part
     * of the output. Fails, showing the output, if the deadline passes or the process exits first.
     */
    String await(int from, Pattern pattern, Duration timeout) {
        return await(from, pattern, 1, timeout);
    }

    /**
     * Waits until the output from offset {@code from} on holds {@code occurrences} matches of
     * {@code pattern}; returns that part of the output. Fails, showing the output, if the deadline
     * passes or the process exits first.
     */
    String await(int from, Pattern pattern, int occurrences, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean exited = !process.isAlive();
            String all = output();
            String tail = all.substring(Math.min(from, all.length()));
            if (count(pattern, tail) >= occurrences) {
                return tail;
            }
            String wanted = occurrences + " x /" + pattern + "/";
            if (exited) {
                return fail(String.join(" ", command) + " exited with " + process.exitValue() + " before printing "
                        + wanted + "\n--- output:\n" + RedisCli.tail(visible(tail)));
            }
            if (System.nanoTime() > deadline) {
                return fail(String.join(" ", command) + " did not print " + wanted + " within " + timeout
                        + "\n--- output so far:\n" + RedisCli.tail(visible(tail)));
            }
            pause();
        }
    }

    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** Waits for the process to exit by itself; returns its exit code, or fails after {@code timeout}. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return fail(String.join(" ", command) + " did not exit within " + timeout
                        + "\n--- output so far:\n" + RedisCli.tail(visible(output())));
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + command, e);
        }
    }

    @Override
    public void close() {
        try {
            input.close();
        } catch (IOException e) {
            // The process is being killed anyway; a broken stdin pipe changes nothing.
        }
        RedisCli.destroyTree(process);
        try {
            Files.deleteIfExists(output);
        } catch (IOException e) {
            throw new IllegalStateException("could not delete " + output, e);
        }
    }

    /** {@code text} with control characters shown as {@code ^[} / {@code \r}, for failure messages. */
    static String visible(String text) {
        return text.replace("\u001b", "^[").replace("\r", "\\r");
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}
