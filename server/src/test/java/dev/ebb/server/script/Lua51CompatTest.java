package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** Lua 5.1 functions that LuaJ lacks and Redis scripts use; replies as Redis 7 gives them. */
class Lua51CompatTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void tableGetnAndMaxnShouldMeasureTables() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(3L, j.eval("return table.getn({'a','b','c'})"));
            assertEquals(0L, j.eval("return table.getn({})"));
            assertEquals(10L, j.eval("local t={1,2} t[10]=1 t[2.5]=1 return table.maxn(t)"));
            assertEquals(0L, j.eval("return table.maxn({x=1})"));
            assertEquals("7.5", j.eval("local t={2.5} t[7.5]=1 return tostring(table.maxn(t))"));
            assertEquals(2L, j.eval("local k = {'a','b'} return math.min(2, table.getn(k))"));
        }
    }

    @Test
    void tableGetnShouldRejectANonTableAndSetnShouldBeObsolete() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            JedisDataException getn = assertThrows(JedisDataException.class, () -> j.eval("return table.getn(nil)"));
            assertEquals("ERR user_script:1: bad argument #1 to 'getn' (table expected, got nil)",
                    getn.getMessage().substring(0, getn.getMessage().indexOf(" script: ")));
            JedisDataException setn = assertThrows(JedisDataException.class, () -> j.eval("return table.setn({}, 1)"));
            assertEquals("ERR user_script:1: 'setn' is obsolete",
                    setn.getMessage().substring(0, setn.getMessage().indexOf(" script: ")));
        }
    }

    @Test
    void tableForeachShouldCallTheFunctionUntilItReturnsAValue() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("1a2b", j.eval("local s='' table.foreachi({'a','b'}, function(i,v) s=s..i..v end) return s"));
            assertEquals(20L, j.eval("return table.foreachi({7,8}, function(i,v) if v==8 then return i*10 end end)"));
            assertEquals("x1", j.eval("return table.foreach({x=1}, function(k,v) return k..v end)"));
        }
    }

    @Test
    void mathModLog10AndStringGfindShouldExist() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(1L, j.eval("return math.mod(7,3)"));
            assertEquals("-1", j.eval("return tostring(math.mod(-7,3))"));
            assertEquals("3", j.eval("return tostring(math.log10(1000))"));
            assertEquals("abc", j.eval("local s='' for w in string.gfind('a b c','%a') do s=s..w end return s"));
        }
    }
}
