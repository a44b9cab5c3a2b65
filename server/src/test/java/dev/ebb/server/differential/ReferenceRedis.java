package dev.ebb.server.differential;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The reference redis-server 7.2.4 of {@code ../shared/reference/} (beside the project's root),
 * started on a free loopback port for one test class and stopped by its own process handle.
 * {@link #startOrNull} returns null, with the reason in {@link #unavailableReason}, where the binary
 * is missing or will not start, so that tests can skip with a clear message.
 */
public final class ReferenceRedis implements AutoCloseable {
    /** Why the last {@link #startOrNull} returned null. */
    public static String unavailableReason = "";

    private final Process process;
    private final int port;
    private final Path dir;

    private ReferenceRedis(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /**
     * The binary: {@code shared/reference/redis-7.2.4/redis-server} beside the project's root (as
     * in CI and the main checkout), or beside the nearest ancestor that has one (a work tree kept
     * in a subfolder).
     */
    public static Path binary() {
        return binary("7.2.4");
    }

    /** As {@link #binary()} for another reference version ("7.4.1" has hash field expiry). */
    public static Path binary(String version) {
        Path relative = Path.of("shared/reference/redis-" + version + "/redis-server");
        Path module = Path.of("").toAbsolutePath();
        Path root = Files.exists(module.resolve("server")) ? module : module.getParent();
        for (Path dir = root.getParent(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        return root.getParent().resolve(relative);
    }

    /** Starts the reference server with {@code extraArgs}, or returns null if it cannot run here. */
    public static ReferenceRedis startOrNull(String... extraArgs) {
        return startVersionOrNull("7.2.4", extraArgs);
    }

    /** As {@link #startOrNull} with the reference server of {@code version} ({@link #binary(String)}). */
    public static ReferenceRedis startVersionOrNull(String version, String... extraArgs) {
        Path binary = binary(version);
        if (!Files.isExecutable(binary)) {
            unavailableReason = "reference redis-server not found at " + binary;
            return null;
        }
        try {
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            Path dir = Files.createTempDirectory("ebb-reference-redis");
            List<String> command = new java.util.ArrayList<>(List.of(binary.toString(), "--port", String.valueOf(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()));
            command.addAll(List.of(extraArgs));
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile()).start();
            ReferenceRedis redis = new ReferenceRedis(process, port, dir);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    unavailableReason = "reference redis-server exited: " + Files.readString(dir.resolve("redis.log"));
                    return null;
                }
                try (Socket s = new Socket("127.0.0.1", port)) {
                    if (processId(s) == process.pid()) {
                        return redis;
                    }
                    // Another server took the port between the probe and the start: not ours.
                    redis.close();
                    unavailableReason = "port " + port + " was taken by another server";
                    return null;
                } catch (IOException notYet) {
                    Thread.sleep(20);
                }
            }
            redis.close();
            unavailableReason = "reference redis-server did not accept connections within 10 s";
            return null;
        } catch (IOException | InterruptedException e) {
            unavailableReason = "reference redis-server could not start: " + e;
            return null;
        }
    }

    /** The process_id INFO server reports on {@code s}, or -1. */
    private static long processId(Socket s) throws IOException {
        s.setSoTimeout(5000);
        s.getOutputStream().write("*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n".getBytes(StandardCharsets.US_ASCII));
        java.io.InputStream in = s.getInputStream();
        StringBuilder header = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            header.append((char) b);
        }
        if (header.charAt(0) != '$') {
            throw new IOException("not ready: " + header);
        }
        String info = new String(in.readNBytes(Integer.parseInt(header.substring(1).trim())), StandardCharsets.US_ASCII);
        for (String line : info.split("\r\n")) {
            if (line.startsWith("process_id:")) {
                return Long.parseLong(line.substring("process_id:".length()).trim());
            }
        }
        return -1;
    }

    public int port() {
        return port;
    }

    /** The server's working directory ({@code --dir}), where SAVE writes dump.rdb. */
    public Path dir() {
        return dir;
    }

    /** Ends the server at once with SIGKILL (no shutdown, no save), as a crash; {@link #close} still cleans up. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
