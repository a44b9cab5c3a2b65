package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Hash field expiry through a real client with the manual clock: lazy expiry on access, the active
 * cycle (waited for, never timed), keyspace events, WATCH, INFO, OBJECT ENCODING, MEMORY USAGE, and
 * the Redis 8.0 commands HGETEX, HSETEX and HGETDEL (from Redis's documentation: the reference
 * server 7.4.1 has no such commands, the 7.4 ones are covered by the hash-field-expiry transcript).
 */
class HashFieldExpiryCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("notify-keyspace-events", "KEA");

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return SafeEncoder.encodeObject(j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length)));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    private static long info(Jedis j, String field) {
        for (String line : j.info("stats").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void lazyExpiryShouldHideRemoveAndFinallyDeleteTheHash() {
        try (Jedis j = connect()) {
            j.hset("h", Map.of("a", "1", "b", "2", "c", "3"));
            assertEquals(List.of(1L, 1L), raw(j, "HPEXPIRE", "h", "100", "FIELDS", "2", "a", "b"));
            long before = info(j, "expired_subkeys");

            ebb.advanceClock(101);

            assertNull(j.hget("h", "a"));
            assertEquals(1, j.hlen("h"));
            assertEquals(Map.of("c", "3"), j.hgetAll("h"));
            assertEquals(before + 2, info(j, "expired_subkeys"));
            raw(j, "HPEXPIRE", "h", "50", "FIELDS", "1", "c");
            ebb.advanceClock(51);
            assertFalse(j.hexists("h", "c"));
            assertFalse(j.exists("h"));
        }
    }

    @Test
    void readsShouldNeverReturnExpiredFieldsOfALargeHash() {
        try (Jedis j = connect()) {
            for (int i = 0; i < 1000; i++) {
                j.hset("big", "f" + i, "v" + i);
            }
            String[] all = new String[1006];
            all[0] = "HPEXPIRE";
            all[1] = "big";
            all[2] = "10";
            all[3] = "FIELDS";
            all[4] = "1000";
            for (int i = 0; i < 1000; i++) {
                all[5 + i] = "f" + i;
            }
            all[1005] = "f0";
            assertTrue(error(j, all).contains("numfields"));
            raw(j, Arrays.copyOf(all, 1005));
            j.hset("big", "keep", "x");

            ebb.advanceClock(11);

            assertEquals("hashtable", j.objectEncoding("big"));
            assertEquals(Map.of("keep", "x"), j.hgetAll("big"));
            assertEquals(List.of("keep"), new ArrayList<>(j.hkeys("big")));
            assertEquals("keep", j.hrandfield("big"));
            assertEquals(1, j.hlen("big"));
            // The active cycle keeps reclaiming the expired fields while the scan runs, so the table
            // may shrink between pages; SCAN then may return an element twice (as Redis's may), but
            // never an expired one.
            Set<String> scanned = new HashSet<>();
            String cursor = "0";
            do {
                var page = j.hscan("big", cursor);
                page.getResult().forEach(e -> scanned.add(e.getKey()));
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
            assertEquals(Set.of("keep"), scanned);
        }
    }

    @Test
    void activeExpiryShouldReclaimFieldsNobodyTouchesAndPublishHexpired() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); Jedis j = connect()) {
            sub.call("SUBSCRIBE", "__keyevent@0__:hexpired", "__keyevent@0__:del");
            for (int i = 0; i < 300; i++) {
                j.hset("s" + i, Map.of("a", "1", "b", "2"));
                raw(j, "HPEXPIRE", "s" + i, "100", "FIELDS", "1", "a");
            }
            j.hset("gone", "only", "1");
            raw(j, "HPEXPIRE", "gone", "100", "FIELDS", "1", "only");
            long before = info(j, "expired_subkeys");

            ebb.advanceClock(200);

            waitFor(() -> info(j, "expired_subkeys") == before + 301, "the active cycle to expire 301 fields");
            assertEquals(300, j.dbSize());
            List<String> events = new ArrayList<>();
            while (!events.contains("del gone")) {
                String[] parts = sub.reply().split("\r\n");
                if (!parts[2].equals("message")) {
                    continue;
                }
                events.add(parts[4].substring(parts[4].indexOf("__:") + 3) + " " + parts[6]);
            }
            assertTrue(events.contains("hexpired gone"), events.toString());
            for (int i = 0; i < 300; i++) {
                assertEquals(Map.of("b", "2"), j.hgetAll("s" + i));
            }
        }
    }

    @Test
    void watchShouldBeInvalidatedWhenAWatchedHashLosesAFieldToExpiry() throws Exception {
        try (Jedis j = connect(); Jedis other = connect()) {
            other.hset("w", Map.of("a", "1", "b", "2"));
            raw(other, "HPEXPIRE", "w", "100", "FIELDS", "1", "a");
            long before = info(other, "expired_subkeys");
            j.watch("w");

            ebb.advanceClock(200);
            waitFor(() -> info(other, "expired_subkeys") > before, "the field to expire");

            Transaction t = j.multi();
            t.set("x", "1");
            assertNull(t.exec());
        }
    }

    @Test
    void encodingAndMemoryShouldReflectFieldTtls() {
        try (Jedis j = connect()) {
            j.hset("m", Map.of("a", "1", "b", "2", "c", "3"));
            long plain = j.memoryUsage("m");
            assertEquals("listpack", j.objectEncoding("m"));

            raw(j, "HEXPIRE", "m", "100", "FIELDS", "2", "a", "b");

            assertEquals("listpackex", j.objectEncoding("m"));
            assertTrue(j.memoryUsage("m") >= plain + 16, j.memoryUsage("m") + " vs " + plain);
            raw(j, "HPERSIST", "m", "FIELDS", "2", "a", "b");
            assertEquals("listpackex", j.objectEncoding("m"));
        }
    }

    @Test
    void hgetexShouldReturnValuesAndSetPersistOrDeleteFieldExpiry() {
        try (Jedis j = connect()) {
            j.hset("g", Map.of("a", "1", "b", "2", "c", "3"));

            assertEquals(Arrays.asList("1", null), raw(j, "HGETEX", "g", "EX", "100", "FIELDS", "2", "a", "nope"));
            assertEquals(List.of(100L, -2L), raw(j, "HTTL", "g", "FIELDS", "2", "a", "nope"));
            assertEquals(List.of("2"), raw(j, "HGETEX", "g", "PX", "5000", "FIELDS", "1", "b"));
            assertEquals(List.of(5000L), raw(j, "HPTTL", "g", "FIELDS", "1", "b"));
            assertEquals(List.of("1"), raw(j, "HGETEX", "g", "PERSIST", "FIELDS", "1", "a"));
            assertEquals(List.of(-1L), raw(j, "HTTL", "g", "FIELDS", "1", "a"));
            assertEquals(List.of("3"), raw(j, "HGETEX", "g", "FIELDS", "1", "c"));
            assertEquals(List.of(-1L), raw(j, "HTTL", "g", "FIELDS", "1", "c"));
            long now = (Long) ((List<?>) raw(j, "HPEXPIRETIME", "g", "FIELDS", "1", "b")).get(0) - 5000;
            assertEquals(List.of("3"), raw(j, "HGETEX", "g", "PXAT", Long.toString(now + 7000), "FIELDS", "1", "c"));
            assertEquals(List.of(now + 7000), raw(j, "HPEXPIRETIME", "g", "FIELDS", "1", "c"));
            assertEquals(List.of("3"), raw(j, "HGETEX", "g", "EXAT", "1", "FIELDS", "1", "c"));
            assertFalse(j.hexists("g", "c"));
            assertEquals(Arrays.asList(null, null), raw(j, "HGETEX", "missing", "EX", "10", "FIELDS", "2", "a", "b"));
            assertFalse(j.exists("missing"));

            assertEquals("ERR Only one of EX, PX, EXAT, PXAT or PERSIST arguments can be specified",
                    error(j, "HGETEX", "g", "EX", "10", "PERSIST", "FIELDS", "1", "a"));
            assertEquals("ERR invalid number of fields", error(j, "HGETEX", "g", "FIELDS", "0", "a"));
            assertEquals("ERR wrong number of arguments for 'hgetex' command",
                    error(j, "HGETEX", "g", "FIELDS", "2", "a"));
            assertEquals("ERR invalid expire time, must be >= 0", error(j, "HGETEX", "g", "EX", "-1", "FIELDS", "1", "a"));
            assertEquals("ERR syntax error", error(j, "HGETEX", "g", "BOGUS", "FIELDS", "1", "a"));
            j.set("str", "v");
            assertTrue(error(j, "HGETEX", "str", "FIELDS", "1", "a").startsWith("WRONGTYPE"));
        }
    }

    @Test
    void hsetexShouldSetFieldsWithTheirExpiryUnderFnxAndFxx() {
        try (Jedis j = connect()) {
            assertEquals(1L, raw(j, "HSETEX", "s", "EX", "100", "FIELDS", "2", "a", "1", "b", "2"));
            assertEquals(List.of(100L, 100L), raw(j, "HTTL", "s", "FIELDS", "2", "a", "b"));
            assertEquals(0L, raw(j, "HSETEX", "s", "FNX", "EX", "60", "FIELDS", "2", "a", "x", "c", "3"));
            assertEquals(1L, raw(j, "HSETEX", "s", "FNX", "FIELDS", "1", "c", "3"));
            assertEquals(0L, raw(j, "HSETEX", "s", "FXX", "FIELDS", "2", "a", "x", "d", "4"));
            assertEquals(1L, raw(j, "HSETEX", "s", "FXX", "KEEPTTL", "FIELDS", "2", "a", "x", "c", "y"));
            assertEquals(List.of(100L, -1L), raw(j, "HTTL", "s", "FIELDS", "2", "a", "c"));
            assertEquals("x", j.hget("s", "a"));
            assertEquals(1L, raw(j, "HSETEX", "s", "FIELDS", "1", "a", "z"));
            assertEquals(List.of(-1L), raw(j, "HTTL", "s", "FIELDS", "1", "a"));
            assertEquals(1L, raw(j, "HSETEX", "s", "PX", "0", "FIELDS", "1", "b", "gone"));
            assertFalse(j.hexists("s", "b"));
            assertEquals(0L, raw(j, "HSETEX", "fxx-missing", "FXX", "FIELDS", "1", "a", "1"));
            assertFalse(j.exists("fxx-missing"));

            assertEquals("ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified",
                    error(j, "HSETEX", "s", "EX", "10", "KEEPTTL", "FIELDS", "1", "a", "1"));
            assertEquals("ERR Only one of FXX or FNX arguments can be specified",
                    error(j, "HSETEX", "s", "FNX", "FXX", "FIELDS", "1", "a", "1"));
            assertEquals("ERR wrong number of arguments for 'hsetex' command",
                    error(j, "HSETEX", "s", "FIELDS", "2", "a", "1"));
            assertEquals("ERR invalid number of fields", error(j, "HSETEX", "s", "FIELDS", "x", "a", "1"));
            assertEquals("ERR invalid expire time in 'hsetex' command",
                    error(j, "HSETEX", "s", "EX", "99999999999999", "FIELDS", "1", "a", "1"));
        }
    }

    @Test
    void hgetdelShouldReturnAndDeleteFieldsAndTheEmptiedKey() {
        try (Jedis j = connect()) {
            j.hset("d", Map.of("a", "1", "b", "2"));

            assertEquals(Arrays.asList("1", null), raw(j, "HGETDEL", "d", "FIELDS", "2", "a", "nope"));
            assertEquals(1, j.hlen("d"));
            assertEquals(List.of("2"), raw(j, "HGETDEL", "d", "FIELDS", "1", "b"));
            assertFalse(j.exists("d"));
            assertEquals(Arrays.asList((Object) null), raw(j, "HGETDEL", "d", "FIELDS", "1", "b"));
            assertEquals("ERR Number of fields must be a positive integer", error(j, "HGETDEL", "d", "FIELDS", "0", "a"));
            assertEquals("ERR Mandatory argument FIELDS is missing or not at the right position",
                    error(j, "HGETDEL", "d", "NOPE", "1", "a"));
        }
    }
}
