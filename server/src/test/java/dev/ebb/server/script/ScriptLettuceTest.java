package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Scripts returning every type through Lettuce, which connects with its default RESP3 handshake. */
class ScriptLettuceTest {
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

    @Test
    void scriptsShouldReturnEveryRespType() {
        RedisCommands<String, String> r = connection.sync();
        r.set("k", "v");

        assertEquals(42L, (Long) r.eval("return 42", ScriptOutputType.INTEGER));
        assertEquals("v", r.eval("return redis.call('get', KEYS[1])", ScriptOutputType.VALUE, "k"));
        assertEquals("OK", r.eval("return redis.call('set', KEYS[1], ARGV[1])", ScriptOutputType.STATUS,
                new String[] {"k"}, "w"));
        assertEquals(Arrays.asList(1L, "two", Arrays.asList(3L)), r.eval("return {1, 'two', {3}}", ScriptOutputType.MULTI));
        assertEquals(Boolean.TRUE, r.eval("return true", ScriptOutputType.BOOLEAN));
        assertNull(r.eval("return redis.call('get', 'missing')", ScriptOutputType.VALUE));
        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> r.eval("return redis.error_reply('MYERR custom')", ScriptOutputType.STATUS));
        assertEquals("MYERR custom", e.getMessage());
    }

    @Test
    void resp3ScriptsShouldReturnMapsDoublesAndBooleans() {
        RedisCommands<String, String> r = connection.sync();

        // Lettuce's OBJECT output cannot take a top-level double, so the double sits in the map.
        Object map = r.eval("redis.setresp(3); return {map={a=1, d={double=3.5}, f=false}}", ScriptOutputType.OBJECT);
        Object bool = r.eval("redis.setresp(3); return false", ScriptOutputType.BOOLEAN);
        Object since = r.eval("redis.setresp(3); local t = redis.call('command', 'docs', 'get');"
                + " return t.map.get.map.since", ScriptOutputType.VALUE);

        assertEquals(Map.of("a", 1L, "d", 3.5, "f", false), map);
        assertEquals(Boolean.FALSE, bool);
        assertEquals("1.0.0", since, "a RESP3 map reply reaches Lua as {map={...}}");
    }

    @Test
    void evalShaShouldUseTheCache() {
        RedisCommands<String, String> r = connection.sync();
        String sha = r.scriptLoad("return ARGV[1] .. '!'");

        Object result = r.evalsha(sha, ScriptOutputType.VALUE, new String[0], "hi");

        assertEquals("hi!", result);
        assertEquals(List.of(true), r.scriptExists(sha));
        RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> r.evalsha("0000000000000000000000000000000000000000", ScriptOutputType.VALUE));
        assertTrue(e.getMessage().startsWith("NOSCRIPT"), e.getMessage());
    }
}
