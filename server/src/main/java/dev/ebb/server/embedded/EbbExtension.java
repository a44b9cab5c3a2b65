package dev.ebb.server.embedded;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs an Ebb server in-process for a test class, on a free port:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EbbExtension ebb = new EbbExtension().config("hz", "100");
 *
 * @Test
 * void test() {
 *     try (Jedis jedis = new Jedis("127.0.0.1", ebb.port())) { ... }
 * }
 * }</pre>
 *
 * The server starts before the first test and stops after the last; every database is flushed
 * before each test unless {@link #keepDataBetweenTests()} is called. With {@link #manualClock()}
 * the server's clock (for TTLs) only moves when the test calls {@link #advanceClock(long)}.
 * DEBUG is refused, as by default in Redis 7, unless the test enables it:
 * {@code config("enable-debug-command", "yes")}. A test server persists nothing unless asked: it has
 * no save points ({@code save ""}) unless the test configures some, and unless the test sets
 * {@code dir} it works in a fresh temporary directory (removed after the last test), so no test
 * loads or leaves an RDB file in the build's directory.
 */
public final class EbbExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private final Map<String, String[]> directives = new LinkedHashMap<>();
    private boolean flushBeforeEach = true;
    private AtomicLong manualClock;
    private EbbServer server;
    private Path tempDir;

    public EbbExtension() {
        directives.put("port", new String[] {"0"});
        directives.put("save", new String[] {""});
    }

    /**
     * Sets a directive as {@code ebb.conf} would, one string per argument, e.g.
     * {@code config("hz", "100")} or {@code config("client-output-buffer-limit", "pubsub", "1mb", "0", "0")}.
     */
    public EbbExtension config(String name, String... args) {
        directives.put(name, args.clone());
        return this;
    }

    /** Keeps the keyspace between the tests of the class. */
    public EbbExtension keepDataBetweenTests() {
        flushBeforeEach = false;
        return this;
    }

    /** Drives the server's clock from the test: it starts at the real time and moves only on {@link #advanceClock}. */
    public EbbExtension manualClock() {
        manualClock = new AtomicLong(System.currentTimeMillis());
        return this;
    }

    /** Moves the manual clock forward. */
    public void advanceClock(long millis) {
        if (manualClock == null) {
            throw new IllegalStateException("advanceClock needs manualClock()");
        }
        manualClock.addAndGet(millis);
    }

    public int port() {
        return server().port();
    }

    public String host() {
        return "127.0.0.1";
    }

    public EbbServer server() {
        if (server == null) {
            throw new IllegalStateException("the Ebb server is not running (is the extension registered?)");
        }
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        StringBuilder text = new StringBuilder();
        directives.forEach((name, args) -> {
            text.append(name);
            for (String arg : args) {
                text.append(' ').append(quote(arg));
            }
            text.append('\n');
        });
        if (!directives.containsKey("dir")) {
            try {
                tempDir = Files.createTempDirectory("ebb-test-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the test server's directory", e);
            }
            text.append("dir ").append(quote(tempDir.toString())).append('\n');
        }
        ServerConfig config;
        try {
            config = ServerConfig.fromText(text.toString());
        } catch (ConfigException e) {
            throw new IllegalArgumentException("bad Ebb test configuration: " + e.getMessage(), e);
        }
        AtomicLong clock = manualClock;
        server = clock == null ? EbbServer.start(config) : EbbServer.start(config, clock::get);
    }

    /** The argument as redis.conf reads one: double-quoted, with backslash and quote escaped. */
    private static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (flushBeforeEach) {
            server.runOnLoop(s -> {
                for (int i = 0; i < s.databases(); i++) {
                    s.db(i).flush();
                }
            });
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
        if (tempDir != null) {
            deleteTree(tempDir);
            tempDir = null;
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }
}
