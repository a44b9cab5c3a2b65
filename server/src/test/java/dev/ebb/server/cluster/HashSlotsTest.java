package dev.ebb.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Commands;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** CRC16 slots and hash tags; expected slots were read from a real redis-server 7 (CLUSTER KEYSLOT). */
class HashSlotsTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[][] argv(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = bytes(args[i]);
        }
        return out;
    }

    @Test
    void crc16ShouldBeTheXmodemVariant() {
        assertEquals(0x31C3, HashSlots.crc16(bytes("123456789"), 0, 9));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "foo               | 12182",
        "bar               | 5061",
        "''                | 0",
        "{user:100}:profile| 9308",
        "{user:100}:posts  | 9308",
        "foo{}bar          | 14292",
        "foo{bar           | 15278",
        "{}{a}             | 13650",
        "a{b}c{d}          | 3300",
        "b                 | 3300",
        "{{a}}             | 10276",
        "{a                | 10276",
        "é                 | 10180",
    })
    void slotShouldMatchRedis(String key, int slot) {
        assertEquals(slot, HashSlots.slot(bytes(key)));
    }

    @Test
    void crossSlotShouldFollowTheCommandTableKeyPositions() {
        CommandSpec mset = Commands.table().lookup(bytes("mset"));
        CommandSpec get = Commands.table().lookup(bytes("get"));
        CommandSpec rename = Commands.table().lookup(bytes("rename"));

        assertFalse(HashSlots.crossSlot(get, argv("get", "a")));
        assertFalse(HashSlots.crossSlot(mset, argv("mset", "{u}a", "1", "{u}b", "2")));
        assertTrue(HashSlots.crossSlot(mset, argv("mset", "a", "1", "b", "2")));
        assertFalse(HashSlots.crossSlot(mset, argv("mset", "a", "1", "a", "2")));
        assertTrue(HashSlots.crossSlot(rename, argv("rename", "a", "b")));
        assertFalse(HashSlots.crossSlot(rename, argv("rename", "{x}a", "{x}b")));
    }

    @Test
    void commonSlotShouldFoldSeveralCommands() {
        CommandSpec set = Commands.table().lookup(bytes("set"));
        CommandSpec ping = Commands.table().lookup(bytes("ping"));

        int slot = HashSlots.commonSlot(set, argv("set", "{u}a", "1"), HashSlots.NO_KEYS);
        slot = HashSlots.commonSlot(ping, argv("ping"), slot);
        int same = HashSlots.commonSlot(set, argv("set", "{u}b", "1"), slot);
        int other = HashSlots.commonSlot(set, argv("set", "b", "1"), slot);

        assertEquals(HashSlots.slot(bytes("u")), same);
        assertEquals(HashSlots.CROSS_SLOT, other);
        assertEquals(HashSlots.NO_KEYS, HashSlots.commonSlot(ping, argv("ping"), HashSlots.NO_KEYS));
    }
}
