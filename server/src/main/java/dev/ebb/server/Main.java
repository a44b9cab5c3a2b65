package dev.ebb.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.LogLevel;
import dev.ebb.server.config.ServerCli;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.config.ServerVersion;
import dev.ebb.server.config.StartupRequest;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ebb-server [config-file] [--directive value ...]}, like redis-server: loads the
 * configuration, sets up logging from {@code loglevel}/{@code logfile}, starts the server and
 * runs until SHUTDOWN, SIGTERM or SIGINT, which all stop it the same way and exit with status 0.
 * With {@code maxmemory} set and no heap flags given, the server runs in a child JVM whose heap
 * follows maxmemory, this one only supervising it ({@link JvmRelaunch}).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        Optional<ProcessHandle> supervisor = JvmRelaunch.supervisor(System.getenv());
        StartupRequest request;
        RecordingInput stdin = new RecordingInput(System.in);
        try {
            request = ServerCli.parse(args, stdin);
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        if (request instanceof StartupRequest.PrintAndExit) {
            System.out.println(((StartupRequest.PrintAndExit) request).text());
            return;
        }
        ServerConfig config = ((StartupRequest.StartServer) request).config();
        Optional<List<String>> child = JvmRelaunch.childCommand(config.maxmemory(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), System.getenv(),
                System.getProperty("java.home"), System.getProperty("java.class.path"), args);
        if (child.isPresent()) {
            runChild(child.get(), stdin.recorded());
            return;
        }
        configureLogging(config);
        Logger log = LoggerFactory.getLogger(Main.class);
        ShutdownSignals signals = ShutdownSignals.install();
        JvmRelaunch.exitWithSupervisor(supervisor, () -> {
            log.warn("The supervising ebb-server process has exited; shutting down");
            System.exit(1);
        });
        G1Trim.enableInThisProcess();
        EbbServer server;
        try {
            server = EbbServer.start(config);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            log.error("Could not start Ebb: {}", e.getMessage());
            System.exit(1);
            return;
        }
        long pid = ProcessHandle.current().pid();
        writePidFile(config, pid, log);
        if (!server.stoppedWhileLoading()) {
            log.info("Ebb {} started (Redis {} compatible): port {}, pid {}, config {}", ServerVersion.ebbVersion(),
                    Server.REDIS_VERSION, server.port(), pid,
                    config.configFile().map(Path::toString).orElse("none (defaults)"));
        }
        signals.attach(server);
        AtomicBoolean finished = new AtomicBoolean();
        // Exits that bypass SHUTDOWN and the signal handlers (SIGHUP, a handler the JVM would not give up).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            finish(config, log, finished);
        }, "ebb-shutdown-hook"));
        server.awaitTermination();
        finish(config, log, finished);
        System.exit(server.exitCode());
    }

    /** Runs the server in a child JVM sized from maxmemory ({@link JvmRelaunch}) and exits with its exit code. */
    private static void runChild(List<String> command, byte[] stdinText) throws InterruptedException {
        int code;
        try {
            code = JvmRelaunch.run(command, stdinText);
        } catch (IOException e) {
            System.err.println("Could not start the Ebb server JVM " + command.get(0) + ": " + e.getMessage()
                    + " (set " + JvmRelaunch.ENV_SWITCH + "=no to run in this JVM)");
            code = 1;
        }
        System.exit(code);
    }

    /** Standard input that keeps what was read from it, to hand the same configuration text to a child JVM. */
    private static final class RecordingInput extends FilterInputStream {
        private final ByteArrayOutputStream copy = new ByteArrayOutputStream();
        private boolean read;

        RecordingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            read = true;
            int b = super.read();
            if (b >= 0) {
                copy.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            read = true;
            int n = super.read(b, off, len);
            if (n > 0) {
                copy.write(b, off, n);
            }
            return n;
        }

        /** What was read, or null if standard input was never read. */
        byte[] recorded() {
            return read ? copy.toByteArray() : null;
        }

    }

    /** Redis's last words once the server has stopped: the pid file goes, then "ready to exit". */
    private static void finish(ServerConfig config, Logger log, AtomicBoolean finished) {
        if (finished.getAndSet(true)) {
            return;
        }
        config.pidFilePath().ifPresent(path -> {
            log.info("Removing the pid file.");
            path.toFile().delete();
        });
        log.info("Ebb is now ready to exit, bye bye...");
    }

    private static void writePidFile(ServerConfig config, long pid, Logger log) {
        config.pidFilePath().ifPresent(path -> {
            try {
                Files.writeString(path, pid + "\n");
            } catch (IOException e) {
                log.warn("Failed to write PID file {}: {}", path, e.getMessage());
            }
        });
    }

    /** The format of every log line: Redis's timestamp, then level, thread, logger and message. */
    private static final String LOG_PATTERN = "%d{dd MMM yyyy HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n";

    /**
     * Logs to standard output, or to {@code logfile} when set, at {@code loglevel} (Netty's own at WARN).
     * Built in code: one pattern for both appenders, and no XML to parse at start-up.
     */
    private static void configureLogging(ServerConfig config) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        OutputStreamAppender<ILoggingEvent> appender;
        if (config.logFilePath().isPresent()) {
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setName("FILE");
            file.setFile(config.logFilePath().get().toString());
            file.setAppend(true);
            appender = file;
        } else {
            appender = new ConsoleAppender<>();
            appender.setName("CONSOLE");
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(LOG_PATTERN);
        encoder.start();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(level(config.logLevel()));
        root.addAppender(appender);
        context.getLogger("io.netty").setLevel(Level.WARN);
    }

    private static Level level(LogLevel level) {
        switch (level) {
            case DEBUG:
                return Level.DEBUG;
            case VERBOSE:
                return Level.DEBUG;
            case WARNING:
                return Level.WARN;
            case NOTHING:
                return Level.OFF;
            case NOTICE:
            default:
                return Level.INFO;
        }
    }
}
