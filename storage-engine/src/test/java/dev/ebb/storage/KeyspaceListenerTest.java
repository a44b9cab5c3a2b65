package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyspaceListenerTest {
    private static final long T0 = 1_700_000_000_000L;

    private final List<String> events = new ArrayList<>();
    private final KeyspaceListener recorder = new KeyspaceListener() {
        @Override
        public void keyModified(Database db, byte[] key) {
            events.add("modified " + db.id() + " " + new String(key, StandardCharsets.UTF_8));
        }

        @Override
        public void beforeFlush(Database db) {
            events.add("flush " + db.id() + " size=" + db.size());
        }

        @Override
        public void beforeSwap(Database db, Database other) {
            events.add("swap " + db.id() + " " + other.id() + " sizes=" + db.size() + "," + other.size());
        }
    };
    private Database db;

    @BeforeEach
    void setUp() {
        db = new Database(0, 7);
        db.setKeyspaceListener(recorder);
    }

    @Test
    void everyWriteMethodShouldReportItsKeyOnce() {
        db.setKey(key("a"), key("1"), T0);
        db.setKeepTtl(key("a"), key("2"), T0);
        db.add(key("b"), key("1"), T0);
        db.setExpire(key("b"), T0 + 1000);
        db.persist(key("b"));
        db.signalModifiedKey(key("b"));
        db.delete(key("a"));

        assertEquals(List.of("modified 0 a", "modified 0 a", "modified 0 b", "modified 0 b", "modified 0 b",
                "modified 0 b", "modified 0 a"), events);
    }

    @Test
    void overwritingAVolatileKeyShouldReportOneModificationNotTwo() {
        db.setKey(key("a"), key("1"), T0);
        db.setExpire(key("a"), T0 + 1000);
        events.clear();

        db.setKey(key("a"), key("2"), T0);

        assertEquals(List.of("modified 0 a"), events);
        assertEquals(Database.NO_EXPIRE, db.getExpire(key("a")));
    }

    @Test
    void changesThatChangeNothingShouldNotBeReported() {
        db.setKey(key("a"), key("1"), T0);
        events.clear();

        db.delete(key("missing"));
        db.persist(key("a"));
        db.lookupRead(key("a"), T0);
        db.lookupWrite(key("a"), T0);

        assertEquals(List.of(), events);
    }

    @Test
    void lazyExpiryShouldReportTheKeyAfterItIsGone() {
        db.setKey(key("a"), key("1"), T0);
        db.setExpire(key("a"), T0 + 10);
        List<Boolean> presentWhenTold = new ArrayList<>();
        db.setKeyspaceListener(new KeyspaceListener() {
            @Override
            public void keyModified(Database d, byte[] key) {
                presentWhenTold.add(d.hasEntry(key));
            }

            @Override
            public void beforeFlush(Database d) {
            }

            @Override
            public void beforeSwap(Database d, Database other) {
            }
        });

        db.lookupRead(key("a"), T0 + 11);

        assertEquals(List.of(false), presentWhenTold);
    }

    @Test
    void flushAndSwapShouldBeReportedBeforeTheContentsChange() {
        Database other = new Database(1, 8);
        other.setKeyspaceListener(recorder);
        db.setKey(key("a"), key("1"), T0);
        events.clear();

        db.swapWith(other);
        other.flush();

        assertEquals(List.of("swap 0 1 sizes=1,0", "flush 1 size=1"), events);
    }

    @Test
    void isExpiredAndHasEntryShouldNotDeleteAStaleKey() {
        db.setKey(key("a"), key("1"), T0);
        db.setExpire(key("a"), T0 + 10);
        events.clear();

        boolean expired = db.isExpired(key("a"), T0 + 11);
        boolean present = db.hasEntry(key("a"));

        assertTrue(expired);
        assertTrue(present);
        assertFalse(db.isExpired(key("a"), T0 + 10));
        assertFalse(db.isExpired(key("missing"), T0 + 11));
        assertEquals(1, db.size());
        assertEquals(List.of(), events);
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
