package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.FlushMode;
import io.lettuce.core.FunctionRestoreMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The rate-limiter library through Lettuce (RESP3): load, FCALL, FCALL_RO, LIST, DUMP, FLUSH, RESTORE. */
class FunctionsLettuceTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;

    @BeforeAll
    static void connect() {
        client = RedisClient.create(RedisURI.create(ebb.host(), ebb.port()));
        connection = client.connect();
    }

    @AfterAll
    static void disconnect() {
        connection.close();
        client.shutdown();
    }

    @BeforeEach
    void flushFunctions() {
        connection.sync().functionFlush(FlushMode.SYNC);
    }

    @Test
    void rateLimiterShouldWorkThroughLettuce() {
        RedisCommands<String, String> r = connection.sync();
        assertEquals("ratelimiter", r.functionLoad(FunctionsTest.RATE_LIMITER));

        String[] key = {"rl:lettuce"};
        assertEquals(1L, (Long) r.fcall("rl_allow", ScriptOutputType.INTEGER, key, "2", "60"));
        assertEquals(1L, (Long) r.fcall("rl_allow", ScriptOutputType.INTEGER, key, "2", "60"));
        assertEquals(0L, (Long) r.fcall("rl_allow", ScriptOutputType.INTEGER, key, "2", "60"));
        assertEquals(0L, (Long) r.fcallReadOnly("rl_remaining", ScriptOutputType.INTEGER, key, "2"));

        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> r.fcallReadOnly("rl_allow", ScriptOutputType.INTEGER, key, "2", "60"));
        assertEquals("ERR Can not execute a script with write flag using *_ro command.", e.getMessage());
    }

    @Test
    void listDumpFlushRestoreShouldRoundTrip() {
        RedisCommands<String, String> r = connection.sync();
        r.functionLoad(FunctionsTest.RATE_LIMITER);

        List<Map<String, Object>> list = r.functionList();
        assertEquals(1, list.size());
        assertEquals("ratelimiter", list.get(0).get("library_name"));
        assertEquals("LUA", list.get(0).get("engine"));
        assertEquals(2, ((List<?>) list.get(0).get("functions")).size());

        byte[] dump = r.functionDump();
        assertEquals("OK", r.functionFlush(FlushMode.ASYNC));
        assertEquals(List.of(), r.functionList());
        assertEquals("OK", r.functionRestore(dump));
        assertEquals("OK", r.functionRestore(dump, FunctionRestoreMode.REPLACE));

        assertEquals(1L, (Long) r.fcall("rl_allow", ScriptOutputType.INTEGER, new String[] {"k"}, "5", "60"));
        assertEquals(1, r.functionList("rate*").size());
    }
}
