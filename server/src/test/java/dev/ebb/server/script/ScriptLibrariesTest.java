package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** The libraries Redis scripts use: cjson, cmsgpack, struct, bit, unpack — outputs as Redis 7 gives them. */
class ScriptLibrariesTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void cjsonShouldEncodeAsLuaCjson() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("[1,2,3,{\"a\":1}]", j.eval("return cjson.encode({1,2,3,{a=1}})"));
            assertEquals("\"a\\n\\u0001b\\/\"", j.eval("return cjson.encode('a\\n\\1b/')"));
            assertEquals("{}", j.eval("return cjson.encode({})"));
            assertEquals("[1,2,null,4]", j.eval("return cjson.encode({[1]=1,[2]=2,[4]=4})"));
            assertEquals("0.11e+20", j.eval("return cjson.encode(0.1) .. cjson.encode(1e20)"));
            String object = (String) j.eval("return cjson.encode({a='x/y', b=1.5, c=true, d=cjson.null})");
            assertEquals(38, object.length());
            for (String member : new String[] {"\"a\":\"x\\/y\"", "\"b\":1.5", "\"c\":true", "\"d\":null"}) {
                assertTrue(object.contains(member), object);
            }
            JedisDataException sparse = assertThrows(JedisDataException.class,
                    () -> j.eval("return cjson.encode({[1]=1,[20]=2})"));
            assertTrue(sparse.getMessage().startsWith("ERR user_script:1: Cannot serialise table: excessively sparse array"));
        }
    }

    @Test
    void cjsonShouldDecodeAndRoundTrip() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Object r = j.eval("local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":\"x\\\\u00e9y\",\"d\":1.5e3,\"e\":true}');"
                    + " return {t.a[1], t.a[2], tostring(t.a[3].b == cjson.null), t.c, t.d, tostring(t.e)}");
            assertEquals(Arrays.asList(1L, 2L, "true", "x\u00e9y", 1500L, "true"), r);
            assertEquals("{\"k\":[\"v\",2]}", j.eval("return cjson.encode(cjson.decode(ARGV[1]))", 0, "{\"k\":[\"v\",2]}"));
            JedisDataException e = assertThrows(JedisDataException.class, () -> j.eval("return cjson.decode('[1,2')"));
            assertTrue(e.getMessage().startsWith(
                    "ERR user_script:1: Expected comma or array end but found T_END at character 5"), e.getMessage());
        }
    }

    @Test
    void cmsgpackShouldPackAsLuaCmsgpackAndRoundTrip() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            byte[] packed = (byte[]) j.eval("return cmsgpack.pack(1, -1, 200, 70000, -200, 'abc', true, false, 1.5, 0.1)"
                    .getBytes(), 0);

            assertArrayEquals(bytes(0x01, 0xff, 0xcc, 0xc8, 0xce, 0x00, 0x01, 0x11, 0x70, 0xd1, 0xff, 0x38,
                    0xa3, 'a', 'b', 'c', 0xc3, 0xc2, 0xca, 0x3f, 0xc0, 0x00, 0x00,
                    0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a), packed);
            assertEquals(Arrays.asList(1L, "x", Arrays.asList(1L, 2L, List.of(3L)), -5L, "v"),
                    j.eval("local a, b, c, d, e = cmsgpack.unpack(cmsgpack.pack(1, 'x', {1, 2, {3}}, -5, {k='v'}));"
                            + " return {a, b, c, d, e.k}"));
        }
    }

    @Test
    void structShouldPackUnpackAndSizeAsRedisson() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            byte[] packed = (byte[]) j.eval("return struct.pack('>I2', 258) .. struct.pack('<i4', -2) .. struct.pack('b', -1)"
                    .getBytes(), 0);

            assertArrayEquals(bytes(0x01, 0x02, 0xfe, 0xff, 0xff, 0xff, 0xff), packed);
            assertEquals(Arrays.asList(1L, "hello", 22L),
                    j.eval("local t, v, next = struct.unpack('dLc0', struct.pack('dLc0', 1.5, 5, 'hello'));"
                            + " return {t == 1.5 and 1 or 0, v, next}"));
            assertEquals(Arrays.asList(-2L, 65535L, 5L), j.eval("return {struct.unpack('>hH', struct.pack('>hH', -2, 65535))}"));
            assertEquals(14L, j.eval("return struct.size('>iI2d')"));
        }
    }

    @Test
    void bitShouldWorkOnSigned32BitNumbers() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Object r = j.eval("return {bit.tobit(0xffffffff), bit.band(0xff, 0x0f), bit.bor(1,2,4), bit.bxor(5,3),"
                    + " bit.lshift(1,31), bit.rshift(-1, 28), bit.arshift(-256, 4), bit.bnot(0), bit.tohex(255),"
                    + " bit.tohex(-1, -4), bit.tohex(255, 2)}");

            assertEquals(Arrays.asList(-1L, 15L, 7L, 6L, -2147483648L, 15L, -16L, -1L, "000000ff", "FFFF", "ff"), r);
        }
    }

    @Test
    void unpackShouldBeGlobal() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Arrays.asList(1L, 2L, 3L), j.eval("return {unpack({1, 2, 3})}"));
        }
    }
}
