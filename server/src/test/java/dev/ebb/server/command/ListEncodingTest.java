package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.args.ListPosition;

/**
 * List encodings where redis-server 7.2.4's answer depends on when it converts (before a push, from
 * the pushed lengths) and on its quicklist's nodes (back to listpack only from one node); each case
 * reproduced on the reference (the full walk is the encodings-lists conformance transcript).
 */
class ListEncodingTest {
    private static final String HUNDRED = "x".repeat(100);

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @AfterEach
    void restoreFill() {
        try (Jedis j = connect()) {
            j.configSet("list-max-listpack-size", "-2");
        }
    }

    /** 79 elements of 100 bytes and one of {@code tail} bytes: a listpack of 8137 + tail + 2 + 7 bytes. */
    private static String[] almostFull(int tail) {
        List<String> elements = new ArrayList<>(Collections.nCopies(79, HUNDRED));
        elements.add("y".repeat(tail));
        return elements.toArray(String[]::new);
    }

    @Test
    void pushShouldJudgeTheLimitByTheRawLengthsOfTheNewElements() {
        try (Jedis j = connect()) {
            List<String> all = new ArrayList<>(List.of(almostFull(24)));
            all.add(HUNDRED);

            j.rpush("once", all.toArray(String[]::new));
            j.rpush("twice", almostFull(24));
            j.rpush("twice", HUNDRED);

            assertEquals("listpack", j.objectEncoding("once"));
            assertEquals("quicklist", j.objectEncoding("twice"));
        }
    }

    @Test
    void quicklistShouldStayUntilASingleNodeIsLeft() {
        try (Jedis j = connect()) {
            j.configSet("list-max-listpack-size", "4");
            j.rpush("t", "a", "b", "c", "d");
            j.rpush("t", "e");

            j.lpop("t", 3);

            assertEquals("quicklist", j.objectEncoding("t"));
            j.lpop("t");
            assertEquals("listpack", j.objectEncoding("t"));
        }
    }

    @Test
    void queueShouldStayAQuicklistWhileItsFirstNodeRemains() {
        try (Jedis j = connect()) {
            j.rpush("q", Collections.nCopies(70, HUNDRED).toArray(String[]::new));
            j.rpush("q", Collections.nCopies(30, HUNDRED).toArray(String[]::new));

            j.lpop("q", 70);
            j.rpop("q", 20);

            assertEquals("quicklist", j.objectEncoding("q"));
            j.lpop("q", 9);
            assertEquals("listpack", j.objectEncoding("q"));
            assertEquals(1, j.llen("q"));
        }
    }

    @Test
    void lmoveShouldNotCountAnIntegerPoppedFromAQuicklist() {
        try (Jedis j = connect()) {
            j.rpush("source", Collections.nCopies(100, HUNDRED).toArray(String[]::new));
            j.lpush("source", "1234567890123456789");
            j.rpush("fromQuicklist", almostFull(28));
            j.rpush("small", "1234567890123456789");
            j.rpush("fromListpack", almostFull(28));

            j.lmove("source", "fromQuicklist", ListDirection.LEFT, ListDirection.RIGHT);
            j.lmove("small", "fromListpack", ListDirection.LEFT, ListDirection.RIGHT);

            assertEquals("listpack", j.objectEncoding("fromQuicklist"));
            assertEquals("quicklist", j.objectEncoding("fromListpack"));
        }
    }

    @Test
    void linsertSplittingFullNodesShouldKeepTheNodeLayoutRedisHas() {
        try (Jedis j = connect()) {
            j.configSet("list-max-listpack-size", "3");
            j.rpush("n", "a", "b", "c", "d", "e", "f", "g", "h", "i");
            j.linsert("n", ListPosition.AFTER, "b", "X1");
            j.linsert("n", ListPosition.BEFORE, "e", "X2");
            j.linsert("n", ListPosition.AFTER, "h", "X3");

            j.lpop("n", 5);
            j.rpop("n", 3);

            assertEquals(List.of("X2", "e", "f", "g"), j.lrange("n", 0, -1));
            assertEquals("quicklist", j.objectEncoding("n"));
        }
    }
}
