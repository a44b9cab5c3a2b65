package dev.ebb.storage.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ebb.storage.Database;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The snapshot hands over exactly the keyspace of its instant (no key missing, none twice, no later
 * write) while the "loop" keeps mutating, deleting, expiring, adding, flushing and swapping between the
 * walk's slices. Time is a manual clock.
 */
class SnapshotTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final int DATABASES = 4;

    private long now = T0;

    @Test
    void emittedKeysShouldEqualTheKeyspaceAtTheInstantUnderRandomWrites() {
        for (long seed = 1; seed <= 12; seed++) {
            runRandomScenario(seed, 1500 + (int) (seed * 250));
        }
    }

    @Test
    void keysCreatedAfterTheInstantShouldNeverBeEmitted() {
        Database[] dbs = databases();
        dbs[0].setKey(bytes("old"), bytes("v1"), now);
        Map<String, String> emitted = new HashMap<>();

        Snapshot snapshot = Snapshot.begin(dbs, (db, key, value, expireAt, meta) ->
                emitted.put(db + "/" + text(key), canonical(value)));
        dbs[0].setKey(bytes("new"), bytes("v2"), now);
        dbs[0].setKey(bytes("old"), bytes("changed"), now);
        dbs[0].lookupWrite(bytes("new"), now);
        while (!snapshot.isComplete()) {
            snapshot.advance(3);
        }

        assertEquals(Map.of("0/old", "s:v1"), emitted);
        assertEquals(1, snapshot.keysAtStart());
    }

    @Test
    void anAbandonedSnapshotShouldLeaveTheTablesReadyForTheNextOne() {
        Database[] dbs = databases();
        for (int i = 0; i < 200; i++) {
            dbs[i % DATABASES].setKey(bytes("k" + i), bytes("v" + i), now);
        }
        Snapshot first = Snapshot.begin(dbs, (db, key, value, expireAt, meta) -> { });
        first.advance(40);
        first.abandon();
        Map<String, String> expected = image(dbs);
        Map<String, String> emitted = new HashMap<>();

        Snapshot second = Snapshot.begin(dbs, recorder(emitted));
        while (!second.isComplete()) {
            second.advance(7);
        }

        assertSameImage(expected, emitted, "second snapshot");
    }

    @Test
    void aFlushedDatabaseShouldStillBeWrittenAsItWasAtTheInstant() {
        Database[] dbs = databases();
        for (int i = 0; i < 500; i++) {
            dbs[1].setKey(bytes("k" + i), bytes("v" + i), now);
        }
        Map<String, String> expected = image(dbs);
        Map<String, String> emitted = new HashMap<>();

        Snapshot snapshot = Snapshot.begin(dbs, recorder(emitted));
        snapshot.advance(100);
        dbs[1].flush();
        dbs[1].setKey(bytes("k1"), bytes("after"), now);
        dbs[0].swapWith(dbs[1]);
        while (!snapshot.isComplete()) {
            snapshot.advance(50);
        }

        assertSameImage(expected, emitted, "flushed");
        assertNull(emitted.get("0/k1"));
    }

    private void runRandomScenario(long seed, int initialKeys) {
        Random random = new Random(seed);
        Database[] dbs = databases();
        List<byte[]> names = new ArrayList<>();
        for (int i = 0; i < initialKeys; i++) {
            byte[] key = bytes("key:" + i);
            names.add(key);
            write(dbs[random.nextInt(DATABASES)], key, random);
            if (random.nextInt(4) == 0) {
                Database db = dbs[random.nextInt(DATABASES)];
                if (db.exists(key, now)) {
                    db.setExpire(key, now + 1 + random.nextInt(5000));
                }
            }
        }
        Map<String, String> expected = image(dbs);
        Map<String, String> emitted = new HashMap<>();
        Snapshot snapshot = Snapshot.begin(dbs, recorder(emitted));

        int created = initialKeys;
        int steps = 0;
        while (!snapshot.isComplete()) {
            int ops = random.nextInt(20);
            for (int i = 0; i < ops; i++) {
                Database db = dbs[random.nextInt(DATABASES)];
                byte[] key = random.nextInt(10) == 0 ? bytes("key:" + created++) : names.get(random.nextInt(names.size()));
                switch (random.nextInt(12)) {
                    case 0, 1, 2 -> mutateInPlace(db, key, random);
                    case 3 -> write(db, key, random);
                    case 4 -> db.delete(key);
                    case 5 -> {
                        if (db.exists(key, now)) {
                            db.setExpire(key, now + random.nextInt(3000));
                        }
                    }
                    case 6 -> db.persist(key);
                    case 7 -> {
                        now += random.nextInt(200);
                        db.lookupRead(key, now);
                    }
                    case 8 -> bulkInsert(db, random, created, 300);
                    case 9 -> bulkDelete(db, names, random, 200);
                    case 10 -> db.randomKey(now);
                    default -> {
                        int r = random.nextInt(200);
                        if (r == 0) {
                            db.flush();
                        } else if (r < 4) {
                            db.swapWith(dbs[random.nextInt(DATABASES)]);
                        } else {
                            db.lookupReadNoTouch(key, now);
                        }
                    }
                }
                if (random.nextInt(10) == 0) {
                    created += 300;
                }
            }
            snapshot.advance(1 + random.nextInt(64));
            steps++;
            if (steps > 1_000_000) {
                fail("snapshot did not complete: seed=" + seed + ", remaining=" + snapshot.remaining());
            }
        }

        assertSameImage(expected, emitted, "seed=" + seed);
    }

    /** Fails with the first few missing, extra and differing keys rather than both whole maps. */
    private static void assertSameImage(Map<String, String> expected, Map<String, String> emitted, String context) {
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String got = emitted.get(e.getKey());
            if (got == null) {
                differences.add("missing " + e.getKey());
            } else if (!got.equals(e.getValue())) {
                differences.add("changed " + e.getKey() + ": expected " + e.getValue() + ", emitted " + got);
            }
        }
        for (String key : emitted.keySet()) {
            if (!expected.containsKey(key)) {
                differences.add("extra " + key);
            }
        }
        if (!differences.isEmpty()) {
            fail(context + ": " + differences.size() + " differences, first: "
                    + differences.subList(0, Math.min(5, differences.size())));
        }
    }

    private Snapshot.KeySink recorder(Map<String, String> emitted) {
        return (db, key, value, expireAt, meta) -> {
            String previous = emitted.put(db + "/" + text(key), canonical(value) + " ttl=" + expireAt);
            if (previous != null) {
                fail("emitted twice: " + db + "/" + text(key));
            }
        };
    }

    private Database[] databases() {
        Database[] dbs = new Database[DATABASES];
        for (int i = 0; i < DATABASES; i++) {
            dbs[i] = new Database(i, 7 + i);
        }
        return dbs;
    }

    /** Every key of every database with its canonical value and expiry, read without side effects. */
    private static Map<String, String> image(Database[] dbs) {
        Map<String, String> image = new HashMap<>();
        for (int i = 0; i < dbs.length; i++) {
            int db = i;
            Database d = dbs[i];
            d.forEachKey((key, value) -> image.put(db + "/" + text(key), canonical(value) + " ttl=" + d.getExpire(key)));
        }
        return image;
    }

    private void write(Database db, byte[] key, Random random) {
        Object value = switch (random.nextInt(5)) {
            case 0 -> bytes("str" + random.nextInt(1000));
            case 1 -> {
                HashValue h = new HashValue();
                for (int i = random.nextInt(200); i >= 0; i--) {
                    h.put(bytes("f" + random.nextInt(300)), bytes("v" + random.nextInt(9)), 128, 64);
                }
                yield h;
            }
            case 2 -> {
                SetValue s = new SetValue();
                for (int i = random.nextInt(200); i >= 0; i--) {
                    s.add(bytes(String.valueOf(random.nextInt(random.nextBoolean() ? 600 : 1000_000))), 512, 128, 64);
                }
                yield s;
            }
            case 3 -> {
                ListValue l = new ListValue();
                for (int i = random.nextInt(200); i >= 0; i--) {
                    l.pushTail(bytes("e" + random.nextInt(50)));
                }
                yield l;
            }
            default -> {
                SortedSet z = SortedSet.create(0, 8, 128, 64);
                for (int i = random.nextInt(200); i >= 0; i--) {
                    z.add(bytes("m" + random.nextInt(300)), random.nextInt(100) / 4.0, 0, 128, 64);
                }
                yield z;
            }
        };
        db.setKey(key, value, now);
    }

    /** What a command that changes a value in place does: a lookup for write, then the change. */
    private void mutateInPlace(Database db, byte[] key, Random random) {
        Object value = db.lookupWrite(key, now);
        if (value instanceof HashValue h) {
            if (random.nextBoolean()) {
                h.put(bytes("f" + random.nextInt(300)), bytes("x"), 128, 64);
            } else {
                h.remove(bytes("f" + random.nextInt(300)));
            }
        } else if (value instanceof SetValue s) {
            s.add(bytes("new" + random.nextInt(100)), 512, 128, 64);
        } else if (value instanceof ListValue l) {
            if (random.nextBoolean() && l.size() > 0) {
                l.set(random.nextInt(l.size()), bytes("changed"));
            } else {
                l.pushHead(bytes("head"));
            }
        } else if (value instanceof SortedSet z) {
            z.add(bytes("m" + random.nextInt(300)), -1, 0, 128, 64);
        } else if (value != null) {
            db.setKeepTtl(key, bytes(text((byte[]) value) + "+"), now);
        }
    }

    private void bulkInsert(Database db, Random random, int from, int count) {
        for (int i = 0; i < count; i++) {
            db.setKey(bytes("bulk:" + from + ":" + i + ":" + random.nextInt(1000)), bytes("b"), now);
        }
    }

    private void bulkDelete(Database db, List<byte[]> names, Random random, int count) {
        for (int i = 0; i < count; i++) {
            db.delete(names.get(random.nextInt(names.size())));
        }
    }

    /** A type-tagged, order-canonical text of a value (the order of hashes and sets does not matter). */
    static String canonical(Object value) {
        if (value instanceof byte[] b) {
            return "s:" + text(b);
        }
        if (value instanceof HashValue h) {
            Set<String> fields = new TreeSet<>();
            h.forEach((f, v) -> fields.add(text(f) + "=" + text(v)));
            return "h:" + fields;
        }
        if (value instanceof SetValue s) {
            Set<String> members = new TreeSet<>();
            s.forEach(m -> members.add(text(m)));
            return "S:" + members;
        }
        if (value instanceof ListValue l) {
            List<String> elements = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                elements.add(text(l.get(i)));
            }
            return "l:" + elements;
        }
        if (value instanceof SortedSet z) {
            List<String> entries = new ArrayList<>();
            z.forEach((m, score) -> entries.add(text(m) + ":" + score));
            return "z:" + entries;
        }
        throw new AssertionError("unexpected value type: " + value.getClass());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void markBitsShouldNotDisturbLookupsAcrossManySnapshots() {
        Database[] dbs = databases();
        Set<String> keys = new HashSet<>();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 3000; i++) {
                dbs[0].setKey(bytes("r" + round + ":" + i), bytes("v"), now);
                keys.add("r" + round + ":" + i);
            }
            Snapshot snapshot = Snapshot.begin(dbs, (db, key, value, expireAt, meta) -> { });
            while (!snapshot.isComplete()) {
                snapshot.advance(1000);
            }
            assertEquals(keys.size(), snapshot.keysAtStart());
        }

        for (String key : keys) {
            assertTrue(dbs[0].exists(bytes(key), now), key);
        }
        assertFalse(dbs[0].exists(bytes("absent"), now));
    }
}
