package dev.ebb.server.persistence;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.SafeEncoder;

/** Shared helpers of the AOF tests: starting Ebb on a directory, sending any command, and reading a whole dataset. */
final class AofTesting {
    private AofTesting() {
    }

    /** Starts Ebb on port 0 with {@code dir} and the extra config lines. */
    static EbbServer start(Path dir, String... lines) throws Exception {
        StringBuilder conf = new StringBuilder("port 0\nbind 127.0.0.1\ndir ").append(dir).append('\n');
        for (String line : lines) {
            conf.append(line).append('\n');
        }
        return EbbServer.start(ServerConfig.fromText(conf.toString()));
    }

    /**
     * Waits (generously) until no AOF rewrite runs or is scheduled: BGREWRITEAOF and CONFIG SET appendonly
     * yes return while the base is still being written, as in Redis.
     */
    static void awaitRewrite(Jedis j) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(300);
        while (true) {
            String info = j.info("persistence");
            if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the AOF rewrite did not finish: " + info);
            }
            Thread.sleep(20);
        }
    }

    /** Sends {@code args} as a command and returns the raw reply. */
    static Object cmd(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        return j.sendCommand(command, rest);
    }

    /**
     * Every key of every database with its type, its value read per type (sets and hashes sorted)
     * and its absolute expiry (PEXPIRETIME): two servers holding the same data give equal maps.
     */
    static Map<String, String> dump(Jedis j, int databases) {
        Map<String, String> all = new TreeMap<>();
        for (int db = 0; db < databases; db++) {
            j.select(db);
            String cursor = ScanParams.SCAN_POINTER_START;
            List<String> keys = new ArrayList<>();
            do {
                ScanResult<String> page = j.scan(cursor, new ScanParams().count(1000));
                keys.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            for (String key : keys) {
                String type = j.type(key);
                String value = switch (type) {
                    case "string" -> j.get(key);
                    case "list" -> j.lrange(key, 0, -1).toString();
                    case "set" -> sorted(new ArrayList<>(j.smembers(key)));
                    case "zset" -> j.zrangeWithScores(key, 0, -1).toString();
                    case "hash" -> new TreeMap<>(j.hgetAll(key)).toString();
                    default -> "?";
                };
                all.put(db + ":" + key, type + " " + value + " expireAt=" + j.pexpireTime(key));
            }
        }
        j.select(0);
        return all;
    }

    private static String sorted(List<String> items) {
        Collections.sort(items);
        return items.toString();
    }

    /** The text of every file in {@code dir}'s appendonlydir whose name ends with {@code suffix}, concatenated. */
    static String aofText(Path dir, String suffix) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir.resolve("appendonlydir"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList()) {
                sb.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }
}
