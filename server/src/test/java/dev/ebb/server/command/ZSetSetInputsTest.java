package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Plain sets as operands of ZUNION, ZINTER, ZDIFF, their STORE forms and ZINTERCARD, every
 * member with score 1: a transcript of exact replies recorded from redis-server 7.0.15 (intset and
 * listpack sets, weights, AGGREGATE, an empty intersection deleting nothing), plus a set large
 * enough for the hashtable encoding.
 */
class ZSetSetInputsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    /** Each row: the reply redis-server gave, then the command. */
    private static final String[][] TRANSCRIPT = {
            {":3\r\n", "SADD", "s1", "a", "b", "c"},
            {":3\r\n", "SADD", "s2", "b", "c", "d"},
            {":3\r\n", "SADD", "si", "1", "2", "3"},
            {":2\r\n", "ZADD", "z1", "5", "b", "7", "x"},
            {"*8\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nc\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n6\r\n$1\r\nx\r\n$1\r\n7\r\n", "ZUNION", "2", "s1", "z1", "withscores"},
            {"*2\r\n$1\r\nb\r\n$1\r\n6\r\n", "ZINTER", "2", "s1", "z1", "withscores"},
            {"*10\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n3\r\n$1\r\nb\r\n$1\r\n5\r\n$1\r\nx\r\n$1\r\n7\r\n", "ZUNION", "3", "s1", "s2", "z1", "weights", "2", "3", "1", "aggregate", "max", "withscores"},
            {"*4\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\nc\r\n$1\r\n2\r\n", "ZINTER", "2", "s1", "s2", "withscores"},
            {"*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nc\r\n$1\r\n1\r\n", "ZDIFF", "2", "s1", "z1", "withscores"},
            {"*2\r\n$1\r\nx\r\n$1\r\n7\r\n", "ZDIFF", "2", "z1", "s1", "withscores"},
            {":2\r\n", "ZINTERCARD", "2", "s1", "s2"},
            {":1\r\n", "ZINTERCARD", "3", "s1", "s2", "z1", "limit", "1"},
            {":6\r\n", "ZUNIONSTORE", "d", "2", "si", "s1"},
            {"*12\r\n$1\r\n1\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n1\r\n$1\r\n3\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n1\r\n$1\r\nc\r\n$1\r\n1\r\n", "ZRANGE", "d", "0", "-1", "withscores"},
            {":0\r\n", "ZINTERSTORE", "d", "2", "si", "s1"},
            {":0\r\n", "EXISTS", "d"},
            {":1\r\n", "ZDIFFSTORE", "d", "2", "s2", "s1"},
            {"*2\r\n$1\r\nd\r\n$1\r\n1\r\n", "ZRANGE", "d", "0", "-1", "withscores"},
            {"*6\r\n$1\r\n1\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n1\r\n$1\r\n3\r\n$1\r\n1\r\n", "ZUNION", "1", "si", "withscores"},
            {"+OK\r\n", "SET", "str", "x"},
            {"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "ZUNION", "2", "s1", "str"},
    };

    @Test
    void setOperandsShouldReplyAsRedis() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            for (String[] row : TRANSCRIPT) {
                String[] command = Arrays.copyOfRange(row, 1, row.length);
                assertEquals(row[0], c.call(command), String.join(" ", command));
            }
        }
    }

    @Test
    void aHashtableSetShouldJoinWithScoreOne() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            String[] sadd = new String[2 + 300];
            sadd[0] = "SADD";
            sadd[1] = "big";
            for (int i = 0; i < 300; i++) {
                sadd[2 + i] = "m" + i;
            }
            c.call(sadd);
            c.call("ZADD", "z", "10", "m7", "20", "m299", "30", "other");

            assertEquals("$9\r\nhashtable\r\n", c.call("OBJECT", "ENCODING", "big"));
            assertEquals(":2\r\n", c.call("ZINTERSTORE", "d", "2", "big", "z"));
            assertEquals("*4\r\n$2\r\nm7\r\n$2\r\n11\r\n$4\r\nm299\r\n$2\r\n21\r\n",
                    c.call("ZRANGE", "d", "0", "-1", "WITHSCORES"));
            assertEquals(":301\r\n", c.call("ZUNIONSTORE", "d", "2", "big", "z"));
            assertEquals(":298\r\n", c.call("ZDIFFSTORE", "d", "2", "big", "z"));
            assertEquals(":1\r\n", c.call("ZINTERCARD", "2", "big", "z", "LIMIT", "1"));
        }
    }
}
