package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.MemoryGuard;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.types.RawString;
import java.util.Arrays;
import java.util.List;

/**
 * BITFIELD and BITFIELD_RO: a string read as an array of integers of 1 to 64 bits at arbitrary
 * bit offsets; the arithmetic is {@link Bitfields}. Both go through {@link #bitfieldGeneric}, as
 * in Redis: every operation is parsed (and every argument error answered) before the key is
 * looked up, then the operations run in order, each seeing the writes of those before it.
 *
 * <p>Like SETBIT, a BITFIELD that writes works on a copy of the stored array, grown with zero
 * bytes to the farthest bit any SET or INCRBY reaches, and stores the copy (keeping the time to
 * live); the stored array is never written. As in Redis the grown string is stored even when
 * every write failed under OVERFLOW FAIL (the key then exists, zero-filled), but the
 * {@code setbit} event is published only when a field changed or the string grew.
 *
 * <p>Cost: O(1) per operation plus, for a write, one copy of the string. Loop thread only.
 */
public final class BitfieldCommands {
    private static final int GET = 0;
    private static final int SET = 1;
    private static final int INCRBY = 2;

    /** One parsed operation: what to do, on which field, with which value and overflow rule. */
    private record Op(int opcode, boolean signed, int bits, long offset, long value, int overflow) {
    }

    private BitfieldCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("bitfield", -2, WRITE | DENYOOM, 1, 1, 1, BitfieldCommands::bitfield)
                        .doc(CommandGroup.BITMAP, "3.2.0", "Performs arbitrary bitfield integer operations on strings.",
                                "key [GET encoding offset | [OVERFLOW <WRAP | SAT | FAIL>]"
                                        + " <SET encoding offset value | INCRBY encoding offset increment>"
                                        + " [GET encoding offset | [OVERFLOW <WRAP | SAT | FAIL>]"
                                        + " <SET encoding offset value | INCRBY encoding offset increment> ...]]")
                        .complexity("O(1) for each subcommand specified"),
                spec("bitfield_ro", -2, READONLY | FAST, 1, 1, 1, BitfieldCommands::bitfieldRo)
                        .doc(CommandGroup.BITMAP, "6.0.0", "Performs arbitrary read-only bitfield integer operations"
                                + " on strings.", "key [GET encoding offset [GET encoding offset ...]]")
                        .complexity("O(1) for each subcommand specified"));
    }

    static void bitfield(Client c, byte[][] argv) {
        bitfieldGeneric(c, argv, false);
    }

    static void bitfieldRo(Client c, byte[][] argv) {
        bitfieldGeneric(c, argv, true);
    }

    /**
     * BITFIELD key [GET type offset | SET type offset value | INCRBY type offset increment |
     * OVERFLOW WRAP|SAT|FAIL] ...: replies one integer per GET, SET (the old value) and INCRBY
     * (the new value), nil for a SET or INCRBY refused by OVERFLOW FAIL. A read-only command
     * (BITFIELD_RO) refuses SET and INCRBY once all arguments were checked.
     */
    private static void bitfieldGeneric(Client c, byte[][] argv, boolean readonlyCommand) {
        Op[] ops = new Op[(argv.length - 2) / 3 + 1];
        int count = 0;
        int overflow = Bitfields.WRAP;
        boolean writes = false;
        long highestBit = 0;
        for (int j = 2; j < argv.length; j++) {
            int remaining = argv.length - j - 1;
            byte[] arg = argv[j];
            int opcode;
            if (Arguments.is(arg, "get") && remaining >= 2) {
                opcode = GET;
            } else if (Arguments.is(arg, "set") && remaining >= 3) {
                opcode = SET;
            } else if (Arguments.is(arg, "incrby") && remaining >= 3) {
                opcode = INCRBY;
            } else if (Arguments.is(arg, "overflow") && remaining >= 1) {
                overflow = overflowOrReply(c, argv[++j]);
                if (overflow < 0) {
                    return;
                }
                continue;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
            int type = typeOrReply(c, argv[j + 1]);
            if (type == 0) {
                return;
            }
            boolean signed = type > 0;
            int bits = Math.abs(type);
            long offset = offsetOrReply(c, argv[j + 2], bits);
            if (offset < 0) {
                return;
            }
            long value = 0;
            if (opcode != GET) {
                writes = true;
                highestBit = Math.max(highestBit, offset + bits - 1);
                if (!Arguments.isLongOrReply(c, argv[j + 3])) {
                    return;
                }
                value = Arguments.parseLong(argv[j + 3]);
            }
            ops[count++] = new Op(opcode, signed, bits, offset, value, overflow);
            j += opcode == GET ? 2 : 3;
        }
        int length;
        byte[] target;
        boolean created = false;
        boolean edited = false;
        if (!writes) {
            Object v = StringCommands.lookupStringOrReply(c, argv[1]);
            if (v == Values.WRONG_TYPE) {
                return;
            }
            // Read in place: a RawString's spare capacity past its length is zeros, which is what
            // bits past the end of a string read as.
            target = Strings.array(v);
            length = Strings.length(v);
        } else {
            if (readonlyCommand) {
                c.reply().error(Errors.BITFIELD_RO_GET_ONLY);
                return;
            }
            Object v = StringCommands.lookupStringForWriteOrReply(c, argv[1]);
            if (v == Values.WRONG_TYPE) {
                return;
            }
            created = v == null;
            // Redis makes the string raw as soon as BITFIELD may write, changed or not.
            edited = v instanceof RawString;
            length = Strings.length(v);
            // A new array (stored bytes never change), checked against the heap as SETBIT's growth is.
            target = MemoryGuard.tryAllocate((int) Math.max(length, (highestBit >>> 3) + 1));
            if (target == null) {
                c.reply().error(Errors.OOM);
                return;
            }
            System.arraycopy(Strings.array(v), 0, target, 0, length);
        }
        boolean grown = created || target.length != length;
        int changes = 0;
        c.reply().arrayHeader(count);
        for (int k = 0; k < count; k++) {
            Op op = ops[k];
            if (op.opcode() == GET) {
                c.reply().integer(op.signed() ? Bitfields.getSigned(target, op.offset(), op.bits())
                        : Bitfields.getUnsigned(target, op.offset(), op.bits()));
            } else if (write(c, target, op, grown)) {
                changes++;
            }
        }
        if (writes && (grown || changes > 0 || !edited)) {
            c.db().setKeepTtl(argv[1], new RawString(target, target.length), c.server().nowMs());
        }
        if (changes > 0) {
            Notifications.notify(c, NotifyKeyspaceEvents.STRING, "setbit", argv[1]);
        }
    }

    /**
     * Runs one SET or INCRBY on {@code s} and replies its result (SET: the old value, INCRBY: the
     * new one; nil when OVERFLOW FAIL refuses it).
     *
     * @return whether it counts as a change: it wrote, and the value differs or the string grew
     */
    private static boolean write(Client c, byte[] s, Op op, boolean grown) {
        int bits = op.bits();
        long old = op.signed() ? Bitfields.getSigned(s, op.offset(), bits) : Bitfields.getUnsigned(s, op.offset(), bits);
        boolean incr = op.opcode() == INCRBY;
        long base = incr ? old : op.value();
        long delta = incr ? op.value() : 0;
        int direction = op.signed() ? Bitfields.signedOverflow(base, delta, bits)
                : Bitfields.unsignedOverflow(base, delta, bits);
        long updated;
        if (direction == 0) {
            updated = base + delta;
        } else if (op.overflow() == Bitfields.FAIL) {
            c.reply().nullBulk();
            return false;
        } else if (op.overflow() == Bitfields.WRAP) {
            updated = op.signed() ? Bitfields.signedWrap(base, delta, bits) : Bitfields.unsignedWrap(base, delta, bits);
        } else if (op.signed()) {
            updated = direction > 0 ? Bitfields.signedMax(bits) : Bitfields.signedMin(bits);
        } else {
            updated = direction > 0 ? Bitfields.unsignedMax(bits) : 0;
        }
        c.reply().integer(incr ? updated : old);
        Bitfields.set(s, op.offset(), bits, updated);
        return grown || old != updated;
    }

    /** An OVERFLOW argument: {@link Bitfields#WRAP}, SAT or FAIL, or -1 after replying the error. */
    private static int overflowOrReply(Client c, byte[] arg) {
        if (Arguments.is(arg, "wrap")) {
            return Bitfields.WRAP;
        } else if (Arguments.is(arg, "sat")) {
            return Bitfields.SAT;
        } else if (Arguments.is(arg, "fail")) {
            return Bitfields.FAIL;
        }
        c.reply().error(Errors.BITFIELD_OVERFLOW_TYPE);
        return -1;
    }

    /**
     * A field type, {@code i1}..{@code i64} or {@code u1}..{@code u63} (lower-case letter, as
     * Redis): the width, positive for signed and negative for unsigned; 0 after replying the error.
     */
    private static int typeOrReply(Client c, byte[] arg) {
        if (arg.length >= 2 && (arg[0] == 'i' || arg[0] == 'u')) {
            try {
                long bits = Arguments.parseLong(Arrays.copyOfRange(arg, 1, arg.length));
                if (bits >= 1 && bits <= (arg[0] == 'i' ? 64 : 63)) {
                    return arg[0] == 'i' ? (int) bits : -(int) bits;
                }
            } catch (NumberFormatException e) {
                // answered below
            }
        }
        c.reply().error(Errors.BITFIELD_TYPE);
        return 0;
    }

    /**
     * A bit offset: a non-negative integer, or {@code #N} meaning N fields of {@code bits} bits,
     * whose byte lies inside the longest allowed string; else -1 after replying the error. As in
     * Redis, {@code #N} times the width wraps as 64-bit arithmetic does before the range check.
     */
    private static long offsetOrReply(Client c, byte[] arg, int bits) {
        boolean fields = arg.length > 0 && arg[0] == '#';
        try {
            long offset = Arguments.parseLong(fields ? Arrays.copyOfRange(arg, 1, arg.length) : arg);
            if (fields) {
                offset *= bits;
            }
            if (offset >= 0 && (offset >>> 3) < StringCommands.maxStringLength(c)) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        c.reply().error(Errors.BIT_OFFSET);
        return -1;
    }
}
