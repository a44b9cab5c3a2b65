package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Transactions through the real client libraries: Jedis (RESP2) and Lettuce with its default
 * RESP3 handshake. Covers WATCH conflicts caused by another connection, optimistic-locking retry
 * loops under contention (no increment may be lost), EXECABORT after a queue-time error, and
 * run-time errors inside EXEC that leave the other commands applied.
 */
class TransactionClientsTest {
    private static final int THREADS = 4;
    private static final int INCREMENTS_PER_THREAD = 50;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static ClientResources resources;
    private static RedisClient lettuce;

    @BeforeAll
    static void startLettuce() {
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
        lettuce = RedisClient.create(resources, RedisURI.create(ebb.host(), ebb.port()));
    }

    @AfterAll
    static void stopLettuce() {
        lettuce.shutdown(0, 1, TimeUnit.SECONDS);
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private static Jedis jedis() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @Test
    void jedisWatchConflictFromAnotherConnectionShouldDiscardTheTransaction() {
        try (Jedis j = jedis(); Jedis other = jedis()) {
            j.set("balance", "100");
            j.watch("balance");
            long balance = Long.parseLong(j.get("balance"));
            other.decrBy("balance", 30);
            Transaction t = j.multi();
            t.set("balance", String.valueOf(balance - 50));

            List<Object> result = t.exec();

            assertNull(result);
            assertEquals("70", j.get("balance"));
        }
    }

    @Test
    void jedisQueueTimeErrorShouldAbortExec() {
        try (Jedis j = jedis()) {
            Transaction t = j.multi();
            t.set("a", "1");
            t.sendCommand(Protocol.Command.GET, new String[0]);

            JedisDataException e = assertThrows(JedisDataException.class, t::exec);

            assertEquals("EXECABORT Transaction discarded because of previous errors.", e.getMessage());
            assertFalse(j.exists("a"));
        }
    }

    @Test
    void jedisRunTimeErrorShouldNotRollBackTheOtherCommands() {
        try (Jedis j = jedis()) {
            j.set("text", "abc");
            Transaction t = j.multi();
            Response<String> set = t.set("a", "1");
            Response<Long> incr = t.incr("text");
            Response<Long> incrA = t.incr("a");

            List<Object> result = t.exec();

            assertEquals(3, result.size());
            assertEquals("OK", set.get());
            JedisDataException e = assertThrows(JedisDataException.class, incr::get);
            assertEquals("ERR value is not an integer or out of range", e.getMessage());
            assertEquals(2L, incrA.get());
            assertEquals("2", j.get("a"));
        }
    }

    @Test
    void jedisOptimisticIncrementsUnderContentionShouldNeverLoseAnUpdate() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> retries = new ArrayList<>();
            for (int n = 0; n < THREADS; n++) {
                retries.add(pool.submit(() -> {
                    int conflicts = 0;
                    try (Jedis j = jedis()) {
                        for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                            while (true) {
                                j.watch("counter");
                                String current = j.get("counter");
                                long next = (current == null ? 0 : Long.parseLong(current)) + 1;
                                Transaction t = j.multi();
                                t.set("counter", String.valueOf(next));
                                if (t.exec() != null) {
                                    break;
                                }
                                conflicts++;
                            }
                        }
                    }
                    return conflicts;
                }));
            }
            for (Future<Integer> f : retries) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        try (Jedis j = jedis()) {
            assertEquals(String.valueOf(THREADS * INCREMENTS_PER_THREAD), j.get("counter"));
        }
    }

    @Test
    void lettuceWatchConflictFromAnotherConnectionShouldReportADiscardedTransaction() {
        try (StatefulRedisConnection<String, String> conn = lettuce.connect();
                StatefulRedisConnection<String, String> otherConn = lettuce.connect()) {
            RedisCommands<String, String> r = conn.sync();
            RedisCommands<String, String> other = otherConn.sync();
            r.set("{user:100}:name", "ann");
            assertEquals("OK", r.watch("{user:100}:name"));
            other.set("{user:100}:name", "bob");
            assertEquals("OK", r.multi());
            r.set("{user:100}:name", "carl");

            TransactionResult result = r.exec();

            assertTrue(result.wasDiscarded());
            assertEquals("bob", r.get("{user:100}:name"));
            assertTrue(r.clientInfo().contains(" resp=3 "), "Lettuce negotiated RESP3");
        }
    }

    @Test
    void lettuceTransactionShouldReturnEveryReplyWithRunTimeErrorsInPlace() {
        try (StatefulRedisConnection<String, String> conn = lettuce.connect()) {
            RedisCommands<String, String> r = conn.sync();
            r.set("text", "abc");
            r.multi();
            r.set("a", "1");
            r.incr("text");
            r.incrby("a", 41);
            r.get("a");

            TransactionResult result = r.exec();

            assertFalse(result.wasDiscarded());
            assertEquals(4, result.size());
            assertEquals("OK", result.get(0));
            RedisCommandExecutionException error = assertInstanceOf(RedisCommandExecutionException.class,
                    result.get(1));
            assertEquals("ERR value is not an integer or out of range", error.getMessage());
            assertEquals(42L, (Long) result.get(2));
            assertEquals("42", result.get(3));
        }
    }

    @Test
    void lettuceQueueTimeErrorShouldMakeExecFailWithExecabort() {
        try (StatefulRedisConnection<String, String> conn = lettuce.connect()) {
            RedisCommands<String, String> r = conn.sync();
            r.multi();
            r.set("a", "1");
            r.dispatch(CommandType.GET, new StatusOutput<>(StringCodec.UTF8));

            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class, r::exec);

            assertEquals("EXECABORT Transaction discarded because of previous errors.", e.getMessage());
            assertEquals(0L, r.exists("a"));
        }
    }

    @Test
    void lettuceDiscardShouldLeaveTheKeysUntouched() {
        try (StatefulRedisConnection<String, String> conn = lettuce.connect()) {
            RedisCommands<String, String> r = conn.sync();
            r.set("a", "before");
            r.multi();
            r.set("a", "after");

            assertEquals("OK", r.discard());
            assertEquals("before", r.get("a"));
        }
    }
}
