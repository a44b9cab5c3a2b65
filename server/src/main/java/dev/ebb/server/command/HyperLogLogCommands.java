package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.MAY_REPLICATE;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.storage.types.RawString;
import dev.ebb.server.command.hll.Hll;
import dev.ebb.server.command.hll.HllEstimator;
import dev.ebb.server.command.hll.HllSelfTest;
import dev.ebb.server.command.hll.HllSketch;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import java.util.List;
import java.util.SplittableRandom;

/**
 * HyperLogLog commands. An HLL is a string value in Redis 7.2's exact format ({@link Hll}), so
 * GET, SET, APPEND … see and carry its bytes, and a value built here is byte-identical to the one
 * redis-server builds from the same PFADDs. Every command first checks the value's shape with
 * {@link #hllOrReply}; a sparse body found corrupt while walked answers {@link Errors#HLL_INVALID}.
 *
 * <p>Stored strings are never written in place: PFADD and PFMERGE work on an {@link HllSketch},
 * which copies the stored array (at most 12 KB) at its first change; PFCOUNT stores a copy with the
 * new cached cardinality. String values are read in one place, {@link #stringBytes}. Command loop
 * thread only.
 */
public final class HyperLogLogCommands {
    private HyperLogLogCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("pfadd", -2, WRITE | DENYOOM | FAST, 1, 1, 1, HyperLogLogCommands::pfadd)
                        .doc(CommandGroup.HYPERLOGLOG, "2.8.9",
                                "Adds elements to a HyperLogLog key. Creates the key if it doesn't exist.",
                                "key [element [element ...]]"),
                spec("pfcount", -2, READONLY | MAY_REPLICATE, 1, -1, 1, HyperLogLogCommands::pfcount)
                        .doc(CommandGroup.HYPERLOGLOG, "2.8.9", "Returns the approximated cardinality of the"
                                + " set(s) observed by the HyperLogLog key(s).", "key [key ...]"),
                spec("pfmerge", -2, WRITE | DENYOOM, 1, -1, 1, HyperLogLogCommands::pfmerge)
                        .doc(CommandGroup.HYPERLOGLOG, "2.8.9",
                                "Merges one or more HyperLogLog values into a single key.",
                                "destkey [sourcekey [sourcekey ...]]"),
                spec("pfselftest", 1, ADMIN, 0, 0, 0, HyperLogLogCommands::pfselftest)
                        .doc(CommandGroup.HYPERLOGLOG, "2.8.9", "An internal command for testing HyperLogLog"
                                + " values.", ""),
                spec("pfdebug", 3, WRITE | DENYOOM | ADMIN, 2, 2, 1, HyperLogLogCommands::pfdebug)
                        .doc(CommandGroup.HYPERLOGLOG, "2.8.9", "Internal commands for debugging HyperLogLog"
                                + " values.", "subcommand key"));
    }

    /** The bytes of a stored string value, exactly its length: the one place these commands read a string. */
    private static byte[] stringBytes(Object value) {
        return Strings.exact(value);
    }

    /**
     * Stores an HLL at {@code key}, keeping its time to live. As a {@link RawString} of exactly its
     * length, so OBJECT ENCODING reports {@code raw} as Redis does for the values it builds in place.
     */
    private static void store(Client c, byte[] key, byte[] hll) {
        c.db().setKeepTtl(key, new RawString(hll, hll.length), c.server().nowMs());
    }

    /**
     * The HLL held by the string {@code value}, or null after replying
     * {@link Errors#HLL_NOT_AN_HLL} when it has not an HLL's shape.
     */
    private static byte[] hllOrReply(Client c, Object value) {
        byte[] s = stringBytes(value);
        if (Hll.isHll(s)) {
            return s;
        }
        c.reply().error(Errors.HLL_NOT_AN_HLL);
        return null;
    }

    private static long sparseMaxBytes(Client c) {
        return c.server().config().hllSparseMaxBytes();
    }

    /**
     * PFADD key [element ...]: 1 if the key was created or a register grew, else 0. A corrupt sparse
     * HLL answers INVALIDOBJ; registers it had already raised stay raised, as in Redis.
     */
    static void pfadd(Client c, byte[][] argv) {
        Object v = StringCommands.lookupStringForWriteOrReply(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        HllSketch hll;
        int updated = 0;
        if (v == null) {
            hll = HllSketch.create(sparseMaxBytes(c));
            updated++;
        } else {
            byte[] stored = hllOrReply(c, v);
            if (stored == null) {
                return;
            }
            hll = HllSketch.over(stored, sparseMaxBytes(c));
        }
        for (int j = 2; j < argv.length; j++) {
            int result = hll.add(argv[j]);
            if (result < 0) {
                if (hll.changed()) {
                    store(c, argv[1], hll.toByteArray());
                }
                c.reply().error(Errors.HLL_INVALID);
                return;
            }
            updated += result;
        }
        if (updated > 0) {
            hll.invalidateCache();
            store(c, argv[1], hll.toByteArray());
            Notifications.notify(c, NotifyKeyspaceEvents.STRING, "pfadd", argv[1]);
        }
        c.reply().integer(updated > 0 ? 1 : 0);
    }

    /**
     * PFCOUNT key [key ...]. One key: the cached cardinality, or a fresh count that is then cached
     * in the value (a copy with the new header is stored, where Redis writes its header in place).
     * Several keys: the count of their union, built in plain registers, changing none of them.
     * Missing keys count as empty HLLs.
     */
    static void pfcount(Client c, byte[][] argv) {
        if (argv.length > 2) {
            byte[] max = new byte[Hll.REGISTERS];
            for (int j = 1; j < argv.length; j++) {
                if (!mergeOrReply(c, argv[j], max, null)) {
                    return;
                }
            }
            c.reply().integer(HllEstimator.countRegisters(max));
            return;
        }
        Object v = StringCommands.lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().integer(0);
            return;
        }
        byte[] s = v == Values.WRONG_TYPE ? null : hllOrReply(c, v);
        if (s == null) {
            return;
        }
        if (Hll.hasValidCache(s)) {
            c.reply().integer(Hll.cachedCardinality(s));
            return;
        }
        long card = HllEstimator.count(s);
        if (card == -1) {
            c.reply().error(Errors.HLL_INVALID);
            return;
        }
        byte[] cached = s.clone();
        Hll.setCachedCardinality(cached, card);
        store(c, argv[1], cached);
        c.reply().integer(card);
    }

    /**
     * Raises the plain registers {@code max} to those of the HLL at {@code key} (nothing for a
     * missing key), noting in {@code dense} whether it is dense. False after replying WRONGTYPE
     * or INVALIDOBJ.
     */
    private static boolean mergeOrReply(Client c, byte[] key, byte[] max, boolean[] dense) {
        Object v = StringCommands.lookupStringOrReply(c, key);
        if (v == null) {
            return true;
        }
        byte[] s = v == Values.WRONG_TYPE ? null : hllOrReply(c, v);
        if (s == null) {
            return false;
        }
        if (dense != null && Hll.encoding(s) == Hll.DENSE) {
            dense[0] = true;
        }
        if (!Hll.mergeInto(max, s)) {
            c.reply().error(Errors.HLL_INVALID);
            return false;
        }
        return true;
    }

    /**
     * PFMERGE destkey [sourcekey ...]: the destination (an operand too) gets every register's
     * maximum. It is created sparse if missing, made dense if any operand is dense, and may turn
     * dense on the way as PFADD does; its time to live is kept. Replies OK and notifies "pfadd".
     */
    static void pfmerge(Client c, byte[][] argv) {
        byte[] max = new byte[Hll.REGISTERS];
        boolean[] dense = {false};
        for (int j = 1; j < argv.length; j++) {
            if (!mergeOrReply(c, argv[j], max, dense)) {
                return;
            }
        }
        Object v = c.db().lookupWrite(argv[1], c.server().nowMs());
        HllSketch hll = v == null ? HllSketch.create(sparseMaxBytes(c))
                : HllSketch.over(stringBytes(v), sparseMaxBytes(c));
        if (dense[0] && !hll.toDense()) {
            c.reply().error(Errors.HLL_INVALID);
            return;
        }
        for (int j = 0; j < Hll.REGISTERS; j++) {
            if (max[j] != 0) {
                hll.set(j, max[j]);
            }
        }
        hll.invalidateCache();
        store(c, argv[1], hll.toByteArray());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "pfadd", argv[1]);
        c.reply().ok();
    }

    /** PFSELFTEST: OK, or the first failure of {@link HllSelfTest}. */
    static void pfselftest(Client c, byte[][] argv) {
        String failure = HllSelfTest.run(sparseMaxBytes(c), new SplittableRandom());
        if (failure == null) {
            c.reply().ok();
        } else {
            c.reply().error("ERR " + failure);
        }
    }

    /**
     * PFDEBUG GETREG|DECODE|ENCODING|TODENSE key. The key must exist and hold an HLL before the
     * subcommand is looked at. GETREG and TODENSE convert a sparse HLL to dense and store it.
     */
    static void pfdebug(Client c, byte[][] argv) {
        Object v = StringCommands.lookupStringForWriteOrReply(c, argv[2]);
        if (v == null) {
            c.reply().error(Errors.HLL_NO_SUCH_KEY);
            return;
        }
        byte[] s = v == Values.WRONG_TYPE ? null : hllOrReply(c, v);
        if (s == null) {
            return;
        }
        byte[] sub = argv[1];
        if (Arguments.is(sub, "getreg")) {
            byte[] dense = denseOrReply(c, argv[2], s);
            if (dense == null) {
                return;
            }
            int[] registers = Hll.registers(dense);
            c.reply().arrayHeader(registers.length);
            for (int r : registers) {
                c.reply().integer(r);
            }
        } else if (Arguments.is(sub, "decode")) {
            if (Hll.encoding(s) != Hll.SPARSE) {
                c.reply().error(Errors.HLL_NOT_SPARSE);
            } else {
                c.reply().bulk(Hll.decodeSparse(s));
            }
        } else if (Arguments.is(sub, "encoding")) {
            c.reply().simple(Hll.encoding(s) == Hll.DENSE ? "dense" : "sparse");
        } else if (Arguments.is(sub, "todense")) {
            boolean sparse = Hll.encoding(s) == Hll.SPARSE;
            if (denseOrReply(c, argv[2], s) != null) {
                c.reply().integer(sparse ? 1 : 0);
            }
        } else {
            c.reply().error(Errors.pfdebugUnknownSubcommand(sub));
        }
    }

    /**
     * The HLL {@code s} at {@code key} in the dense encoding, stored in its place if it was sparse
     * (Ebb's store also touches WATCH, which Redis's in-place conversion does not); null after
     * replying INVALIDOBJ.
     */
    private static byte[] denseOrReply(Client c, byte[] key, byte[] s) {
        if (Hll.encoding(s) == Hll.DENSE) {
            return s;
        }
        HllSketch hll = HllSketch.over(s, sparseMaxBytes(c));
        if (!hll.toDense()) {
            c.reply().error(Errors.HLL_INVALID);
            return null;
        }
        byte[] dense = hll.toByteArray();
        store(c, key, dense);
        return dense;
    }
}
