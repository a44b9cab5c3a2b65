package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.FunctionRestorePolicy;

/**
 * FUNCTION DUMP payloads cross between Ebb and redis-server 7.2.4 both ways: Redis's (its long
 * library code LZF-compressed) restores into Ebb, and Ebb's restores into Redis. Skipped with a
 * message where the reference binary cannot run.
 */
class FunctionsReferenceTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static ReferenceRedis reference;

    @BeforeAll
    static void startReference() {
        reference = ReferenceRedis.startOrNull();
    }

    @AfterAll
    static void stopReference() {
        if (reference != null) {
            reference.close();
        }
    }

    @Test
    void aDumpFromRedisShouldRestoreIntoEbbAndEbbsDumpIntoRedis() {
        Assumptions.assumeTrue(reference != null, () -> "reference redis-server unavailable: " + ReferenceRedis.unavailableReason);
        try (Jedis redis = new Jedis("127.0.0.1", reference.port()); Jedis ours = new Jedis(ebb.host(), ebb.port())) {
            redis.functionFlush();
            ours.functionFlush();
            redis.functionLoad(FunctionsTest.RATE_LIMITER);
            redis.functionLoad("#!lua name=tiny\nredis.register_function('t', function() return 7 end)");
            byte[] fromRedis = redis.functionDump();

            assertEquals("OK", ours.functionRestore(fromRedis));

            assertEquals(1L, ours.fcall("rl_allow", List.of("k"), List.of("1", "60")));
            assertEquals(7L, ours.fcall("t", List.of(), List.of()));
            assertEquals(FunctionsTest.RATE_LIMITER, ours.functionListWithCode("ratelimiter").get(0).getLibraryCode());
            ours.functionLoad("#!lua name=ebbs\nredis.register_function('from_ebb', function() return 'ebb' end)");
            byte[] fromEbb = ours.functionDump();
            assertEquals("OK", redis.functionRestore(fromEbb, FunctionRestorePolicy.FLUSH));
            assertEquals("ebb", redis.fcall("from_ebb", List.of(), List.of()));
            assertEquals(3, redis.functionList().size());
        }
    }
}
