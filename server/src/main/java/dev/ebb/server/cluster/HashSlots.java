package dev.ebb.server.cluster;

import dev.ebb.server.command.CommandSpec;

/**
 * Redis Cluster's key-to-slot mapping: {@code CRC16(key) mod 16384}, CRC16 being the XMODEM
 * variant (polynomial 0x1021, initial value 0, no reflection), computed with a 256-entry table.
 *
 * <p><b>Hash tags.</b> If the key contains a {@code {} and, after it, a {@code }} with at least one
 * byte between them, only the bytes between the first {@code {} and the first {@code }} after it
 * are hashed, so {@code {user:100}:profile} and {@code {user:100}:posts} share a slot. A key whose
 * first braces are empty ({@code foo{}{bar}}) or unclosed is hashed whole.
 *
 * <p>Costs: O(key length), no allocation. Stateless and thread-safe.
 */
public final class HashSlots {
    /** Number of hash slots in a Redis Cluster. */
    public static final int SLOTS = 16384;

    /** Returned by {@link #commonSlot} when the keys span more than one slot. */
    public static final int CROSS_SLOT = -2;
    /** Returned by {@link #commonSlot} when the command line names no key. */
    public static final int NO_KEYS = -1;

    private static final int[] CRC16_TABLE = crc16Table();

    private HashSlots() {
    }

    private static int[] crc16Table() {
        int[] table = new int[256];
        for (int b = 0; b < 256; b++) {
            int crc = b << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            table[b] = crc & 0xffff;
        }
        return table;
    }

    /** CRC16/XMODEM of {@code bytes[from, to)}. */
    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ CRC16_TABLE[((crc >>> 8) ^ bytes[i]) & 0xff]) & 0xffff;
        }
        return crc;
    }

    /** The hash slot of {@code key}, 0 to 16383, honouring a hash tag. */
    public static int slot(byte[] key) {
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{') {
                open = i;
                break;
            }
        }
        if (open >= 0) {
            for (int close = open + 1; close < key.length; close++) {
                if (key[close] == '}') {
                    if (close > open + 1) {
                        return crc16(key, open + 1, close) & (SLOTS - 1);
                    }
                    break;
                }
            }
        }
        return crc16(key, 0, key.length) & (SLOTS - 1);
    }

    /**
     * Whether the keys that {@code spec}'s key positions pick out of {@code argv} span more than one
     * slot (the CROSSSLOT condition). Free for commands with fewer than two keys.
     */
    public static boolean crossSlot(CommandSpec spec, byte[][] argv) {
        int first = spec.firstKey();
        if (first <= 0 || first >= argv.length) {
            return false;
        }
        int last = lastKeyIndex(spec, argv);
        if (first + Math.max(1, spec.keyStep()) > last) {
            return false;
        }
        return commonSlot(spec, argv, NO_KEYS) == CROSS_SLOT;
    }

    /**
     * The one slot of every key that {@code spec}'s key positions pick out of {@code argv}
     * ({@code firstKey}, {@code lastKey}, {@code keyStep} of the command table), {@code slot} when
     * there is none, or {@link #CROSS_SLOT}. Commands with movable keys and no fixed key positions
     * count as having no keys.
     *
     * @param slot the slot found so far ({@link #NO_KEYS} to start): lets a caller fold several
     *     commands (a transaction) into one answer
     */
    public static int commonSlot(CommandSpec spec, byte[][] argv, int slot) {
        int first = spec.firstKey();
        if (first <= 0 || first >= argv.length || slot == CROSS_SLOT) {
            return slot;
        }
        int last = lastKeyIndex(spec, argv);
        int step = Math.max(1, spec.keyStep());
        for (int i = first; i <= last; i += step) {
            int s = slot(argv[i]);
            if (slot == NO_KEYS) {
                slot = s;
            } else if (s != slot) {
                return CROSS_SLOT;
            }
        }
        return slot;
    }

    /** The argv index of the last key: {@code lastKey} counts from the end when negative. */
    private static int lastKeyIndex(CommandSpec spec, byte[][] argv) {
        return spec.lastKey() < 0 ? argv.length + spec.lastKey() : Math.min(spec.lastKey(), argv.length - 1);
    }
}
