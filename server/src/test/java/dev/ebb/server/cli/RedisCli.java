package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code redis-cli} binary (and the two helpers some of its modes need) against a
 * server on 127.0.0.1. Output goes to temporary files rather than pipes, so a chatty process can
 * never block on a full pipe while the test waits for it.
 *
 * <p>Missing binaries fail the test with what to install: the cli tests are acceptance tests and
 * must not pass by being skipped. {@code REDIS_CLI} in the environment names another binary.
 *
 * <p>Not thread-safe; one instance per test is cheap.
 */
final class RedisCli {
    /** Bound for a redis-cli run that should take milliseconds; generous for a loaded 2-core machine. */
    static final Duration QUICK = Duration.ofSeconds(30);

    private final String binary;
    private final int port;

    private RedisCli(String binary, int port) {
        this.binary = binary;
        this.port = port;
    }

    /** A redis-cli for the server on {@code port}; fails the test if the binary is missing. */
    static RedisCli against(int port) {
        String configured = System.getenv("REDIS_CLI");
        if (configured == null || configured.isEmpty()) {
            return new RedisCli(requireOnPath("redis-cli", "redis-tools (apt-get install redis-tools)"), port);
        }
        if (!Files.isExecutable(Path.of(configured))) {
            return fail("REDIS_CLI=" + configured + " is not an executable file; unset it to use redis-cli from PATH");
        }
        return new RedisCli(configured, port);
    }

    /**
     * The absolute path of {@code program} on PATH, or a test failure naming the package to install.
     */
    static String requireOnPath(String program, String installHint) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return fail(program + " was not found on PATH=" + path + "; the redis-cli acceptance tests need it: install "
                + installHint);
    }

    /** {@code redis-cli -p PORT args...} with no input, bounded by {@link #QUICK}. */
    Result run(String... args) {
        return runWithInput(null, QUICK, args);
    }

    /**
     * {@code redis-cli -p PORT args...} reading {@code input} (null: none) as its standard input;
     * fails the test if it does not exit within {@code timeout}.
     */
    Result runWithInput(Path input, Duration timeout, String... args) {
        List<String> command = command(args);
        try {
            Path out = Files.createTempFile("redis-cli-out", ".txt");
            Path err = Files.createTempFile("redis-cli-err", ".txt");
            try {
                ProcessBuilder builder = builder(command)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
                builder.redirectInput(input == null ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                        : ProcessBuilder.Redirect.from(input.toFile()));
                long started = System.nanoTime();
                Process process = builder.start();
                boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!exited) {
                    destroyTree(process);
                }
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                String stdout = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
                String stderr = new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
                if (!exited) {
                    return fail(String.join(" ", command) + " did not finish within " + timeout
                            + "\n--- stdout so far:\n" + tail(stdout) + "\n--- stderr so far:\n" + tail(stderr));
                }
                return new Result(command, process.exitValue(), stdout, stderr, took);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    /**
     * Starts {@code prefix... redis-cli -p PORT args...} (the prefix is a wrapper such as
     * {@code stdbuf -oL}) with its output, stdout and stderr together, in a file the test polls.
     */
    LiveProcess start(List<String> prefix, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(command(args));
        return LiveProcess.start(builder(command), command);
    }

    /** The command line {@code redis-cli -p PORT args...}. */
    List<String> command(String... args) {
        List<String> command = new ArrayList<>(args.length + 3);
        command.add(binary);
        command.add("-p");
        command.add(Integer.toString(port));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * A process builder with an environment that cannot leak into or out of the user's own
     * redis-cli set-up: no password from REDISCLI_AUTH, no ~/.redisclirc, no history file.
     */
    static ProcessBuilder builder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.remove("REDISCLI_AUTH");
        env.put("REDISCLI_HISTFILE", "/dev/null");
        env.put("REDISCLI_RCFILE", "/dev/null");
        env.put("TERM", "xterm");
        env.put("SHELL", "/bin/sh");
        return builder;
    }

    /** Stops {@code process} and every process it started. */
    static void destroyTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last 4,000 characters of {@code text}, enough to see where a run stopped. */
    static String tail(String text) {
        return text.length() <= 4000 ? text : "..." + text.substring(text.length() - 4000);
    }

    /** What one finished redis-cli run printed. */
    record Result(List<String> command, int exitCode, String stdout, String stderr, Duration took) {
        /** The stdout lines, without the final line break. */
        List<String> lines() {
            if (stdout.isEmpty()) {
                return List.of();
            }
            String body = stdout.endsWith("\n") ? stdout.substring(0, stdout.length() - 1) : stdout;
            return List.of(body.split("\n", -1));
        }

        /** A description for assertion messages. */
        String describe() {
            return String.join(" ", command) + " -> exit " + exitCode + " in " + took.toMillis() + " ms\n--- stdout:\n"
                    + tail(stdout) + "\n--- stderr:\n" + tail(stderr);
        }
    }
}
