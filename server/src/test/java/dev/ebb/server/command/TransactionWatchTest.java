package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/**
 * WATCH semantics through Jedis, mirroring the cases of Redis's own test suite: what touches a
 * watched key (writes from any client, DEL, EXPIRE, expiry, FLUSHDB, FLUSHALL, SWAPDB) and what
 * does not (other databases, keys absent before and after a flush, keys already stale when
 * watched). TTLs run on the manual clock; outcomes do not depend on whether the active expire
 * cycle or a lookup deletes an expired key first.
 */
class TransactionWatchTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    /** MULTI, SET ran yes, EXEC on {@code j}: ["OK"] if the transaction ran, null if a watch was touched. */
    private static List<Object> runTransaction(Jedis j) {
        Transaction t = j.multi();
        t.set("ran", "yes");
        return t.exec();
    }

    @Test
    void execShouldRunWhenNoWatchedKeyChanged() {
        try (Jedis j = connect()) {
            j.set("x", "30");
            j.watch("x", "y", "z");
            j.watch("k");

            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void aWriteFromAnotherClientShouldFailExecAndRunNoQueuedCommand() {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.set("x", "30");
            j.watch("a", "b", "x", "k", "z");
            other.set("x", "40");
            Transaction t = j.multi();
            t.set("x", "50");

            List<Object> result = t.exec();

            assertNull(result);
            assertEquals("40", j.get("x"));
        }
    }

    @Test
    void aWriteByTheWatchingClientItselfShouldAlsoTouchTheKey() {
        try (Jedis j = connect()) {
            j.watch("x");
            j.set("x", "1");

            assertNull(runTransaction(j));
        }
    }

    @Test
    void deletingAWatchedKeyOrSettingItsTtlShouldTouchIt() {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.set("x", "1");
            j.watch("x");
            other.del("x");
            assertNull(runTransaction(j));

            j.set("x", "1");
            j.watch("x");
            other.expire("x", 10);
            assertNull(runTransaction(j));

            j.watch("x");
            other.persist("x");
            assertNull(runTransaction(j));
        }
    }

    @Test
    void aFailedConditionalWriteShouldNotTouchTheKey() {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.set("x", "1");
            j.watch("x");
            other.setnx("x", "2");
            other.del("missing");

            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void afterExecOrAFailedExecTheKeyShouldNoLongerBeWatched() {
        try (Jedis j = connect()) {
            j.set("x", "30");
            j.watch("x");
            assertEquals(List.of("OK"), runTransaction(j));
            j.set("x", "40");
            assertEquals(List.of("OK"), runTransaction(j));

            j.watch("x");
            j.set("x", "50");
            assertNull(runTransaction(j));
            j.set("x", "60");
            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void unwatchShouldForgetTheKeysAndTheTouch() {
        try (Jedis j = connect()) {
            j.set("x", "30");
            j.watch("x");
            j.set("x", "40");

            j.unwatch();

            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void discardShouldClearTheTouchAndUnwatchEveryKey() {
        try (Jedis j = connect()) {
            j.watch("x");
            j.set("x", "10");
            j.multi().discard();
            Transaction t = j.multi();
            t.incr("x");
            assertEquals(List.of(11L), t.exec());

            j.watch("x");
            j.multi().discard();
            j.set("x", "10");
            t = j.multi();
            t.incr("x");
            assertEquals(List.of(11L), t.exec());
        }
    }

    @Test
    void flushallAndFlushdbShouldTouchWatchedKeysThatExist() {
        try (Jedis j = connect()) {
            j.set("x", "30");
            j.watch("x");
            j.flushAll();
            assertNull(runTransaction(j));

            j.set("x", "30");
            j.watch("x");
            j.flushDB();
            assertNull(runTransaction(j));
        }
    }

    @Test
    void flushesShouldNotTouchWatchedKeysThatDoNotExist() {
        try (Jedis j = connect()) {
            j.watch("x");
            j.flushAll();
            assertEquals(List.of("OK"), runTransaction(j));

            j.watch("x");
            j.flushDB();
            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void flushallWhileWatchingSeveralKeysShouldTouchThemAll() {
        try (Jedis j = connect()) {
            j.mset("a", "a", "b", "b");
            j.watch("b", "a");
            j.flushAll();

            assertEquals("PONG", j.ping());
            assertNull(runTransaction(j));
        }
    }

    @Test
    void swapdbShouldTouchWatchedKeysThatExistOrAppear() {
        try (Jedis j = connect()) {
            j.set("x", "30");
            j.watch("x");
            j.swapDB(0, 1);
            assertNull(runTransaction(j));

            j.flushAll();
            j.select(1);
            j.set("x", "30");
            j.select(0);
            j.watch("x");
            j.swapDB(0, 1);
            assertNull(runTransaction(j));
        }
    }

    @Test
    void watchShouldRememberTheDatabaseOfTheKey() {
        try (Jedis j = connect()) {
            j.select(5);
            j.set("x", "30");
            j.watch("x");
            j.select(1);
            j.set("x", "10");
            j.select(5);

            assertEquals(List.of("OK"), runTransaction(j));

            j.select(1);
            j.watch("x");
            j.select(5);
            j.set("x", "20");
            j.select(1);
            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void aWatchedKeyThatExpiresShouldFailExecEvenBeforeItIsDeleted() {
        try (Jedis j = connect()) {
            j.psetex("x", 1000, "foo");
            j.watch("x");

            ebb.advanceClock(1001);

            assertNull(runTransaction(j));
        }
    }

    @Test
    void watchingAKeyThatIsAlreadyStaleShouldNotFailExec() {
        try (Jedis j = connect()) {
            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);

            j.watch("x");

            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void deletingOrFlushingAWatchedStaleKeyShouldNotFailExec() {
        try (Jedis j = connect()) {
            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);
            j.watch("x");
            assertEquals(false, j.exists("x"));
            assertEquals(List.of("OK"), runTransaction(j));

            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);
            j.watch("x");
            j.flushDB();
            assertEquals(List.of("OK"), runTransaction(j));
        }
    }

    @Test
    void rewritingAWatchedStaleKeyShouldFailExec() {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);
            j.watch("x");

            other.set("x", "new");

            assertNull(runTransaction(j));
        }
    }

    @Test
    void swapdbBetweenStaleAndAbsentKeysShouldNotTouchTheWatch() {
        try (Jedis j = connect()) {
            j.select(1);
            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);
            j.watch("x");
            j.swapDB(0, 1);
            assertEquals(List.of("OK"), runTransaction(j));

            j.flushAll();
            j.select(0);
            j.psetex("x", 1, "foo");
            ebb.advanceClock(2);
            j.select(1);
            j.watch("x");
            j.swapDB(0, 1);
            assertEquals(List.of("OK"), runTransaction(j));

            j.flushAll();
            j.select(1);
            j.psetex("x", 1, "foo");
            j.select(0);
            j.psetex("x", 1, "bar");
            ebb.advanceClock(2);
            j.select(1);
            j.watch("x");
            j.swapDB(0, 1);
            assertEquals(List.of("OK"), runTransaction(j));
        }
    }
}
