package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.types.RawString;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Bitmap commands: strings read as arrays of bits, bit 0 being the most significant bit of the
 * first byte. Like every string edit, SETBIT and BITOP store a new array rather than changing the
 * stored one (see {@link StringCommands}). BITCOUNT and BITPOS share GETRANGE's range rule
 * ({@link StringCommands#rangeStart}); counting and searching read eight bytes at a time.
 */
public final class BitmapCommands {
    /** Big-endian 8-byte reads: bit 0 of the range is the word's most significant bit. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int AND = 0;
    private static final int OR = 1;
    private static final int XOR = 2;
    private static final int NOT = 3;
    /** {@link #unitOrReply}'s answer after a syntax error. */
    private static final int BAD_UNIT = -1;

    private BitmapCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("setbit", 4, WRITE | DENYOOM, 1, 1, 1, BitmapCommands::setbit)
                        .doc(CommandGroup.BITMAP, "2.2.0", "Sets or clears the bit at offset of the string value."
                                + " Creates the key if it doesn't exist.", "key offset value"),
                spec("getbit", 3, READONLY | FAST, 1, 1, 1, BitmapCommands::getbit)
                        .doc(CommandGroup.BITMAP, "2.2.0", "Returns a bit value by offset.", "key offset"),
                spec("bitcount", -2, READONLY, 1, 1, 1, BitmapCommands::bitcount)
                        .doc(CommandGroup.BITMAP, "2.6.0",
                                "Counts the number of set bits (population counting) in a string.",
                                "key [start end [BYTE | BIT]]"),
                spec("bitpos", -3, READONLY, 1, 1, 1, BitmapCommands::bitpos)
                        .doc(CommandGroup.BITMAP, "2.8.7", "Finds the first set (1) or clear (0) bit in a string.",
                                "key bit [start [end [BYTE | BIT]]]"),
                spec("bitop", -4, WRITE | DENYOOM, 2, -1, 1, BitmapCommands::bitop)
                        .doc(CommandGroup.BITMAP, "2.6.0",
                                "Performs bitwise operations on multiple strings, and stores the result.",
                                "<AND | OR | XOR | NOT> destkey key [key ...]"));
    }

    /**
     * A bit offset argument: a non-negative integer whose byte lies inside the longest allowed
     * string; else -1 after replying {@code ERR bit offset is not an integer or out of range}.
     */
    private static long bitOffsetOrReply(Client c, byte[] arg) {
        try {
            long offset = Arguments.parseLong(arg);
            if (offset >= 0 && (offset >>> 3) < StringCommands.maxStringLength(c)) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // answered below, as for an offset out of range
        }
        c.reply().error(Errors.BIT_OFFSET);
        return -1;
    }

    /** SETBIT: grows the string with zero bytes as needed; replies the bit's previous value. */
    static void setbit(Client c, byte[][] argv) {
        long offset = bitOffsetOrReply(c, argv[2]);
        if (offset < 0) {
            return;
        }
        long on = Arguments.longOrReply(c, argv[3], Errors.BIT_VALUE);
        if (on == Arguments.INVALID) {
            return;
        }
        if (on != 0 && on != 1) {
            c.reply().error(Errors.BIT_VALUE);
            return;
        }
        Object old = StringCommands.lookupStringForWriteOrReply(c, argv[1]);
        if (old == Values.WRONG_TYPE) {
            return;
        }
        int length = Strings.length(old);
        int index = (int) (offset >>> 3);
        int mask = 0x80 >>> (offset & 7);
        int current = index < length ? Strings.array(old)[index] : 0;
        int previous = (current & mask) != 0 ? 1 : 0;
        if (previous != on || index >= length) {
            byte[] patch = {(byte) (on == 1 ? current | mask : current & ~mask)};
            Object updated = Strings.setRangeOrReply(c, old, index, patch);
            if (updated == null) {
                return;
            }
            c.db().setKeepTtl(argv[1], updated, c.server().nowMs());
            Notifications.notify(c, NotifyKeyspaceEvents.STRING, "setbit", argv[1]);
        } else if (!(old instanceof RawString)) {
            // The bit is already as asked, but Redis has made the string raw all the same.
            c.db().setKeepTtl(argv[1], Strings.raw(old), c.server().nowMs());
        }
        c.reply().integer(previous);
    }

    /** GETBIT: 0 past the end of the string and for a missing key. */
    static void getbit(Client c, byte[][] argv) {
        long offset = bitOffsetOrReply(c, argv[2]);
        if (offset < 0) {
            return;
        }
        Object v = StringCommands.lookupStringOrReply(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        byte[] s = Strings.array(v);
        int index = (int) (offset >>> 3);
        c.reply().integer(index < Strings.length(v) && (s[index] & (0x80 >>> (offset & 7))) != 0 ? 1 : 0);
    }

    /**
     * BITCOUNT key [start end [BYTE|BIT]]. As in Redis 7.2, a missing key answers 0 before the
     * arguments are checked, and so does a reversed pair of negative indexes before the unit is.
     */
    static void bitcount(Client c, byte[][] argv) {
        Object v = StringCommands.lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().integer(0);
            return;
        }
        if (v == Values.WRONG_TYPE) {
            return;
        }
        byte[] s = Strings.array(v);
        int length = Strings.length(v);
        if (argv.length == 2) {
            c.reply().integer(countBits(s, 0, length * 8L - 1));
            return;
        }
        if (argv.length != 4 && argv.length != 5) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if (!Arguments.isLongOrReply(c, argv[2]) || !Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long start = Arguments.parseLong(argv[2]);
        long end = Arguments.parseLong(argv[3]);
        if (StringCommands.negativeAndReversed(start, end)) {
            c.reply().integer(0);
            return;
        }
        int unit = argv.length == 5 ? unitOrReply(c, argv[4]) : 8;
        if (unit == BAD_UNIT) {
            return;
        }
        long total = length * 8L / unit;
        long from = StringCommands.rangeStart(start, total);
        long to = StringCommands.rangeEnd(end, total);
        if (from > to) {
            c.reply().integer(0);
        } else {
            c.reply().integer(countBits(s, from * unit, to * unit + unit - 1));
        }
    }

    /** The bits per index of a BYTE (8) or BIT (1) argument, or {@link #BAD_UNIT} after a syntax error. */
    private static int unitOrReply(Client c, byte[] arg) {
        if (Arguments.is(arg, "byte")) {
            return 8;
        }
        if (Arguments.is(arg, "bit")) {
            return 1;
        }
        c.reply().error(Errors.SYNTAX);
        return BAD_UNIT;
    }

    /** Set bits from bit {@code fromBit} to bit {@code toBit}, both inclusive; 0 when the range is empty. */
    private static long countBits(byte[] s, long fromBit, long toBit) {
        if (fromBit > toBit) {
            return 0;
        }
        int first = (int) (fromBit >>> 3);
        int last = (int) (toBit >>> 3);
        long count = 0;
        int i = first;
        for (; i + Long.BYTES <= last + 1; i += Long.BYTES) {
            count += Long.bitCount((long) WORDS.get(s, i));
        }
        for (; i <= last; i++) {
            count += Integer.bitCount(s[i] & 0xff);
        }
        count -= Integer.bitCount((s[first] & 0xff) >>> (8 - (fromBit & 7)));
        count -= Integer.bitCount(s[last] & ((1 << (7 - (toBit & 7))) - 1));
        return count;
    }

    /**
     * BITPOS key bit [start [end [BYTE|BIT]]]: the first bit equal to {@code bit} in the range, or
     * -1. Searching for 0 without an explicit end treats the string as padded with zeros, so a
     * string of all ones answers its length in bits. As in Redis 7.2, a missing key answers (-1
     * for 1, 0 for 0) before the range arguments are checked.
     */
    static void bitpos(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long bit = Arguments.parseLong(argv[2]);
        if (bit != 0 && bit != 1) {
            c.reply().error(Errors.BIT_ARGUMENT);
            return;
        }
        Object v = StringCommands.lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().integer(bit == 1 ? -1 : 0);
            return;
        }
        if (v == Values.WRONG_TYPE) {
            return;
        }
        if (argv.length > 6) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        byte[] s = Strings.array(v);
        int length = Strings.length(v);
        boolean endGiven = argv.length >= 5;
        if (argv.length >= 4 && !Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        int unit = argv.length == 6 ? unitOrReply(c, argv[5]) : 8;
        if (unit == BAD_UNIT || (endGiven && !Arguments.isLongOrReply(c, argv[4]))) {
            return;
        }
        long start = argv.length >= 4 ? Arguments.parseLong(argv[3]) : 0;
        long end = endGiven ? Arguments.parseLong(argv[4]) : -1;
        long total = length * 8L / unit;
        long from = StringCommands.rangeStart(start, total);
        long to = StringCommands.rangeEnd(end, total);
        if (from > to) {
            c.reply().integer(-1);
            return;
        }
        long lastBit = to * unit + unit - 1;
        long position = findBit(s, from * unit, lastBit, bit == 1);
        c.reply().integer(position < 0 && bit == 0 && !endGiven ? lastBit + 1 : position);
    }

    /** The first bit equal to {@code one} from {@code fromBit} to {@code toBit} (inclusive), or -1. */
    private static long findBit(byte[] s, long fromBit, long toBit, boolean one) {
        int first = (int) (fromBit >>> 3);
        int last = (int) (toBit >>> 3);
        int flip = one ? 0 : 0xff;
        int headMask = 0xff >>> (fromBit & 7);
        int tailMask = (0xff << (7 - (toBit & 7))) & 0xff;
        int i = first;
        while (i <= last) {
            if (i > first && i + Long.BYTES <= last) {
                long word = (long) WORDS.get(s, i) ^ (one ? 0L : -1L);
                if (word != 0) {
                    return i * 8L + Long.numberOfLeadingZeros(word);
                }
                i += Long.BYTES;
                continue;
            }
            int x = (s[i] ^ flip) & 0xff;
            if (i == first) {
                x &= headMask;
            }
            if (i == last) {
                x &= tailMask;
            }
            if (x != 0) {
                return i * 8L + Integer.numberOfLeadingZeros(x) - 24;
            }
            i++;
        }
        return -1;
    }

    /**
     * BITOP AND|OR|XOR|NOT destkey key...: missing keys and the short ends of shorter strings count
     * as zero bytes; the result has the length of the longest source. An empty result deletes the
     * destination; otherwise it replaces it, dropping its time to live.
     */
    static void bitop(Client c, byte[][] argv) {
        int op = operation(argv[1]);
        if (op < 0) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if (op == NOT && argv.length != 4) {
            c.reply().error(Errors.BITOP_NOT_SINGLE_KEY);
            return;
        }
        byte[][] sources = new byte[argv.length - 3][];
        int length = 0;
        for (int k = 0; k < sources.length; k++) {
            Object v = StringCommands.lookupStringOrReply(c, argv[k + 3]);
            if (v == Values.WRONG_TYPE) {
                return;
            }
            sources[k] = Strings.exact(v);
            length = Math.max(length, sources[k].length);
        }
        if (length == 0) {
            if (c.db().delete(argv[2]) != null) {
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", argv[2]);
            }
            c.reply().integer(0);
            return;
        }
        byte[] result = combine(op, sources, length);
        c.db().setKey(argv[2], new RawString(result, result.length), c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "set", argv[2]);
        c.reply().integer(length);
    }

    private static int operation(byte[] arg) {
        if (Arguments.is(arg, "and")) {
            return AND;
        } else if (Arguments.is(arg, "or")) {
            return OR;
        } else if (Arguments.is(arg, "xor")) {
            return XOR;
        } else if (Arguments.is(arg, "not")) {
            return NOT;
        }
        return -1;
    }

    private static byte[] combine(int op, byte[][] sources, int length) {
        byte[] result = Arrays.copyOf(sources[0], length);
        if (op == NOT) {
            for (int i = 0; i < length; i++) {
                result[i] = (byte) ~result[i];
            }
            return result;
        }
        for (int k = 1; k < sources.length; k++) {
            byte[] s = sources[k];
            if (op == AND) {
                for (int i = 0; i < s.length; i++) {
                    result[i] &= s[i];
                }
                Arrays.fill(result, s.length, length, (byte) 0);
            } else if (op == OR) {
                for (int i = 0; i < s.length; i++) {
                    result[i] |= s[i];
                }
            } else {
                for (int i = 0; i < s.length; i++) {
                    result[i] ^= s[i];
                }
            }
        }
        return result;
    }
}
