package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Database#usedMemory()} is maintained incrementally; these tests recompute it from scratch
 * (from an independent model of the contents) after long random operation sequences.
 */
class DatabaseMemoryTest {
    private static final int KEY_SPACE = 300;
    private static final int OPERATIONS = 20_000;

    /** A value whose size changes in place, as future aggregate types will. */
    static final class Blob implements MemoryEstimated {
        long bytes;

        Blob(long bytes) {
            this.bytes = bytes;
        }

        @Override
        public long memoryBytes() {
            return bytes;
        }
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void usedMemoryShouldEqualARecomputationAfterRandomOperations(ExpiryStrategyKind kind) {
        Random random = new Random(7 + kind.ordinal());
        Database db = new Database(0, 11, kind);
        Map<ByteBuffer, Object> model = new HashMap<>();
        Map<ByteBuffer, Long> modelExpires = new HashMap<>();
        long now = 1_000_000;

        for (int op = 0; op < OPERATIONS; op++) {
            byte[] key = ("key:" + random.nextInt(KEY_SPACE)).getBytes();
            ByteBuffer k = ByteBuffer.wrap(key);
            int choice = random.nextInt(100);
            if (choice < 30) {
                Object v = randomValue(random);
                expireInModel(model, modelExpires, k, now);
                db.setKey(key, v, now);
                model.put(k, v);
                modelExpires.remove(k);
            } else if (choice < 38) {
                Object v = randomValue(random);
                expireInModel(model, modelExpires, k, now);
                db.setKeepTtl(key, v, now);
                model.put(k, v);
            } else if (choice < 50) {
                db.delete(key);
                model.remove(k);
                modelExpires.remove(k);
            } else if (choice < 65) {
                if (db.lookupWrite(key, now) != null) {
                    long when = now + random.nextInt(50);
                    db.setExpire(key, when);
                    modelExpires.put(k, when);
                }
                expireInModel(model, modelExpires, k, now);
            } else if (choice < 72) {
                db.persist(key);
                modelExpires.remove(k);
            } else if (choice < 80) {
                Object v = db.lookupWrite(key, now);
                expireInModel(model, modelExpires, k, now);
                if (v instanceof Blob) {
                    long delta = random.nextInt(200) - 100;
                    Blob blob = (Blob) v;
                    if (blob.bytes + delta > 0) {
                        blob.bytes += delta;
                        db.adjustMemory(delta);
                    }
                }
            } else if (choice < 99) {
                db.lookupRead(key, now);
                expireInModel(model, modelExpires, k, now);
                now += random.nextInt(3);
            } else {
                db.flush();
                model.clear();
                modelExpires.clear();
            }
            if (op % 97 == 0) {
                assertMatchesModel(db, model, modelExpires);
            }
        }

        assertMatchesModel(db, model, modelExpires);
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void keyAndValueBytesShouldReturnToZeroWhenEveryKeyIsDeleted(ExpiryStrategyKind kind) {
        Database db = new Database(0, 5, kind);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            byte[] key = ("k" + i).getBytes();
            keys.add(key);
            db.setKey(key, new byte[i % 37], 0);
            db.setExpire(key, 100 + i);
        }
        long payloadWhenFull = db.usedMemory() - db.slotArrayBytes() - db.expiryStrategy().memoryBytes();

        for (byte[] key : keys) {
            db.delete(key.clone());
        }

        assertEquals(0, db.size());
        assertEquals(0, db.expiresSize());
        assertTrue(payloadWhenFull >= 5000L * 2 * Values.ARRAY_HEADER_BYTES, "payload=" + payloadWhenFull);
        assertEquals(0, db.usedMemory() - db.slotArrayBytes() - db.expiryStrategy().memoryBytes());
    }

    private static void expireInModel(Map<ByteBuffer, Object> model, Map<ByteBuffer, Long> modelExpires,
            ByteBuffer k, long now) {
        Long when = modelExpires.get(k);
        if (when != null && now > when) {
            model.remove(k);
            modelExpires.remove(k);
        }
    }

    private static Object randomValue(Random random) {
        if (random.nextInt(4) == 0) {
            return new Blob(16 + random.nextInt(500));
        }
        byte[] v = new byte[random.nextInt(random.nextBoolean() ? 10 : 300)];
        random.nextBytes(v);
        return v;
    }

    private static void assertMatchesModel(Database db, Map<ByteBuffer, Object> model,
            Map<ByteBuffer, Long> modelExpires) {
        assertEquals(model.size(), db.size());
        assertEquals(modelExpires.size(), db.expiresSize());
        long payload = 0;
        for (Map.Entry<ByteBuffer, Object> e : model.entrySet()) {
            byte[] key = e.getKey().array();
            payload += Values.keyBytes(key) + Values.memoryOf(e.getValue());
            Object stored = db.lookupReadNoTouch(key, Long.MIN_VALUE);
            if (e.getValue() instanceof byte[]) {
                assertArrayEquals((byte[]) e.getValue(), (byte[]) stored);
            } else {
                assertEquals(e.getValue(), stored);
            }
            Long when = modelExpires.get(e.getKey());
            assertEquals(when == null ? Database.NO_EXPIRE : when, db.getExpire(key));
        }
        long expected = payload + db.slotArrayBytes() + db.expiryStrategy().memoryBytes();
        assertEquals(expected, db.usedMemory());
    }
}
