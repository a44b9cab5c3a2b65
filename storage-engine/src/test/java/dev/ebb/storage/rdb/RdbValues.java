package dev.ebb.storage.rdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.RawString;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.types.UnsharedString;
import dev.ebb.storage.zset.SortedSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds values of every type and encoding, and compares values by content and encoding. */
final class RdbValues {
    static final RdbLimits LIMITS = RdbLimits.DEFAULTS;

    private RdbValues() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static ListValue list(String... items) {
        ListValue list = ListValue.quicklist(LIMITS.listMaxListpackSize(), LIMITS.listCompressDepth());
        for (String s : items) {
            list.pushTail(b(s));
        }
        list.settleBuilt(LIMITS.listMaxListpackSize());
        return list;
    }

    static SetValue set(String... members) {
        SetValue set = SetValue.sized(b(members[0]), members.length, LIMITS.setMaxIntsetEntries(), LIMITS.setMaxListpackEntries());
        for (String m : members) {
            set.add(b(m), LIMITS.setMaxIntsetEntries(), LIMITS.setMaxListpackEntries(), LIMITS.setMaxListpackValue());
        }
        return set;
    }

    static HashValue hash(String... pairs) {
        HashValue hash = new HashValue();
        for (int i = 0; i < pairs.length; i += 2) {
            hash.put(b(pairs[i]), b(pairs[i + 1]), LIMITS.hashMaxListpackEntries(), LIMITS.hashMaxListpackValue());
        }
        return hash;
    }

    static SortedSet zset(Object... memberScores) {
        SortedSet zset = SortedSet.create(memberScores.length / 2, 0, LIMITS.zsetMaxListpackEntries(), LIMITS.zsetMaxListpackValue());
        for (int i = 0; i < memberScores.length; i += 2) {
            zset.add(b((String) memberScores[i]), ((Number) memberScores[i + 1]).doubleValue(), 0,
                    LIMITS.zsetMaxListpackEntries(), LIMITS.zsetMaxListpackValue());
        }
        return zset;
    }

    static String[] numbered(String prefix, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = prefix + i;
        }
        return out;
    }

    /** One value of every type in every encoding Ebb writes, by a name saying which. */
    static Map<String, Object> everyEncoding() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("str:int8", b("-12"));
        values.put("str:int16", b("12345"));
        values.put("str:int32", b("-2000000000"));
        values.put("str:int64-text", b("9223372036854775807"));
        values.put("str:embstr", b("hello world"));
        values.put("str:empty", b(""));
        values.put("str:compressible", b("abc".repeat(100)));
        values.put("str:random", b("x7#k!q$Lw2@zP0%vB9^cN3&mR6*tY1(".repeat(2)));
        values.put("str:raw", new RawString(b("appended"), 8));
        values.put("str:unshared-int", new UnsharedString(b("42"), true));
        values.put("list:listpack", list("a", "1", "-5000", "70000", "3000000000", "hello", "x".repeat(100)));
        String[] many = numbered("element-", 2000);
        values.put("list:quicklist", list(many));
        values.put("set:intset", set("1", "2", "70000", "-9000000000"));
        values.put("set:listpack", set("a", "b", "3"));
        values.put("set:hashtable", set(numbered("m", 300)));
        values.put("zset:listpack", zset("a", 1, "b", 2.5, "c", -3, "d", 1e20, "e", 0.1, "f", Double.POSITIVE_INFINITY));
        List<Object> big = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            big.add("member" + i);
            big.add(i * 1.25 - 100);
        }
        values.put("zset:skiplist", zset(big.toArray()));
        values.put("hash:listpack", hash("f", "v", "n", "42", "neg", "-1"));
        String[] pairs = numbered("field", 400);
        values.put("hash:hashtable", hash(pairs));
        values.put("hash:longvalue", hash("f", "v".repeat(100)));
        return values;
    }

    /** The encoding name and the content of a value, in an order-independent form for sets and hashes. */
    static String describe(Object value) {
        if (value instanceof byte[] s) {
            return "string:" + new String(s, StandardCharsets.ISO_8859_1);
        }
        if (value instanceof RawString r) {
            return "string:" + new String(r.bytes(), 0, r.length(), StandardCharsets.ISO_8859_1);
        }
        if (value instanceof UnsharedString u) {
            return "string:" + new String(u.bytes(), StandardCharsets.ISO_8859_1);
        }
        if (value instanceof ListValue l) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                items.add(new String(l.get(i), StandardCharsets.ISO_8859_1));
            }
            return "list/" + l.encodingName() + ":" + items;
        }
        if (value instanceof SetValue s) {
            TreeMap<String, Boolean> members = new TreeMap<>();
            s.forEach(m -> members.put(new String(m, StandardCharsets.ISO_8859_1), true));
            return "set/" + s.encodingName() + ":" + members.keySet();
        }
        if (value instanceof HashValue h) {
            TreeMap<String, String> fields = new TreeMap<>();
            h.forEach((f, v) -> fields.put(new String(f, StandardCharsets.ISO_8859_1), new String(v, StandardCharsets.ISO_8859_1)));
            return "hash/" + (h.isCompact() ? "listpack" : "hashtable") + ":" + fields;
        }
        SortedSet z = (SortedSet) value;
        List<String> entries = new ArrayList<>();
        z.forEach((m, score) -> entries.add(new String(m, StandardCharsets.ISO_8859_1) + "=" + score));
        return "zset/" + z.encoding() + ":" + entries;
    }

    /** Strings lose their Java class through a file (all come back as byte[]); the rest must match. */
    static void assertSameValue(Object expected, Object actual) {
        assertEquals(describe(expected), describe(actual));
    }

    static byte[] hex(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static void assertHex(String expectedHex, byte[] actual) {
        assertArrayEquals(hex(expectedHex), actual, () -> "expected " + expectedHex + " got " + java.util.HexFormat.of().formatHex(actual));
    }
}
