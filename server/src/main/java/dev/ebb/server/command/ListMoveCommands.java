package dev.ebb.server.command;

import static dev.ebb.server.command.ListCommands.HEAD;
import static dev.ebb.server.command.ListCommands.TAIL;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.types.ListValue;
import java.util.Arrays;

/**
 * The list commands that take from one list and may wait: LMOVE, RPOPLPUSH, LMPOP and the blocking
 * BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP. Registered through {@link ListCommands#specs()}.
 *
 * <p>Each blocking command has one serving step that both the first call and every retry use
 * (Redis 7.2 re-executes the command when a key becomes ready): it replies and returns true when
 * it could serve or must fail (WRONGTYPE), and returns false without replying when every key is
 * empty. The first call then blocks through {@link dev.ebb.server.BlockingKeys}, unless the
 * client may not block (inside MULTI/EXEC, see {@link Client#denyBlocking()}), in which case it
 * answers as on a timeout.
 */
public final class ListMoveCommands {
    /** Returned by {@link #deadlineOrReply} after an error reply. */
    static final long INVALID_TIMEOUT = -1;

    private ListMoveCommands() {
    }

    // ---------------------------------------------------------------- LMOVE, RPOPLPUSH

    /** LEFT or RIGHT as {@link ListCommands#HEAD}/{@link ListCommands#TAIL}, or -1 after replying a syntax error. */
    private static int whereOrReply(Client c, byte[] arg) {
        if (Arguments.is(arg, "left")) {
            return HEAD;
        }
        if (Arguments.is(arg, "right")) {
            return TAIL;
        }
        c.reply().error(Errors.SYNTAX);
        return -1;
    }

    static void lmove(Client c, byte[][] argv) {
        int from = whereOrReply(c, argv[3]);
        if (from < 0) {
            return;
        }
        int to = whereOrReply(c, argv[4]);
        if (to < 0) {
            return;
        }
        if (!serveMove(c, argv[1], argv[2], from, to, false)) {
            c.reply().nullBulk();
        }
    }

    static void rpoplpush(Client c, byte[][] argv) {
        if (!serveMove(c, argv[1], argv[2], TAIL, HEAD, true)) {
            c.reply().nullBulk();
        }
    }

    /**
     * Moves one element from {@code source} to {@code destination} and replies it; false without
     * a reply if the source is missing. The destination's type is checked before anything moves.
     * Propagated as LMOVE, or as RPOPLPUSH for {@code legacy} RPOPLPUSH / BRPOPLPUSH.
     */
    private static boolean serveMove(Client c, byte[] source, byte[] destination, int from, int to, boolean legacy) {
        Object src = ListCommands.listForWriteOrReply(c, source);
        if (src == Values.WRONG_TYPE) {
            return true;
        }
        if (src == null) {
            return false;
        }
        Object dst = ListCommands.listForWriteOrReply(c, destination);
        if (dst == Values.WRONG_TYPE) {
            return true;
        }
        ListValue sourceList = (ListValue) src;
        long srcBefore = sourceList.memoryBytes();
        byte[] element = ListCommands.pop(sourceList, from);
        // Redis publishes the push on the destination first, then the pop on the source (and "del").
        String pushEvent = to == HEAD ? "lpush" : "rpush";
        String popEvent = from == HEAD ? "lpop" : "rpop";
        if (dst == null) {
            ListValue created = new ListValue();
            created.growing(ListCommands.fill(c), ListCommands.depth(c), sourceList.movedBytes(element), 1);
            ListCommands.push(created, to, element);
            ListCommands.storeNew(c, destination, created, pushEvent);
            ListCommands.finishChange(c, source, sourceList, srcBefore, popEvent);
        } else {
            ListValue target = (ListValue) dst;
            long dstBefore = target == sourceList ? srcBefore : target.memoryBytes();
            target.growing(ListCommands.fill(c), ListCommands.depth(c), sourceList.movedBytes(element), 1);
            ListCommands.push(target, to, element);
            ListCommands.finishChange(c, destination, target, dstBefore, pushEvent);
            if (target != sourceList) {
                ListCommands.finishChange(c, source, sourceList, srcBefore, popEvent);
            } else {
                Notifications.notify(c, NotifyKeyspaceEvents.LIST, popEvent, source);
            }
            c.server().blockingKeys().signalKeyAsReady(c.db(), destination);
        }
        c.reply().bulk(element);
        if (legacy) {
            Propagate.as(c, Propagate.RPOPLPUSH, source, destination);
        } else {
            Propagate.as(c, Propagate.LMOVE, source, destination, from == HEAD ? Propagate.LEFT : Propagate.RIGHT,
                    to == HEAD ? Propagate.LEFT : Propagate.RIGHT);
        }
        return true;
    }

    // ---------------------------------------------------------------- LMPOP

    /** Parsed {@code numkeys key [key ...] <LEFT | RIGHT> [COUNT count]}. */
    private record MultiPop(byte[][] keys, int where, long count) {
    }

    /** Parses the LMPOP/BLMPOP arguments from {@code argv[from]} (numkeys), or null after replying. */
    private static MultiPop multiPopOrReply(Client c, byte[][] argv, int from) {
        long numkeys;
        try {
            numkeys = Arguments.parseLong(argv[from]);
        } catch (NumberFormatException e) {
            numkeys = 0;
        }
        if (numkeys <= 0) {
            c.reply().error(Errors.NUMKEYS_NOT_POSITIVE);
            return null;
        }
        // Redis checks only that a direction follows the keys: too large a numkeys is a syntax error.
        if (numkeys >= argv.length - from - 1) {
            c.reply().error(Errors.SYNTAX);
            return null;
        }
        int whereAt = from + 1 + (int) numkeys;
        int where = whereOrReply(c, argv[whereAt]);
        if (where < 0) {
            return null;
        }
        long count = 1;
        boolean countSeen = false;
        for (int i = whereAt + 1; i < argv.length; i += 2) {
            if (!countSeen && Arguments.is(argv[i], "count") && i + 1 < argv.length) {
                countSeen = true;
                try {
                    count = Arguments.parseLong(argv[i + 1]);
                } catch (NumberFormatException e) {
                    count = 0;
                }
                if (count <= 0) {
                    c.reply().error(Errors.COUNT_NOT_POSITIVE);
                    return null;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        return new MultiPop(Arrays.copyOfRange(argv, from + 1, whereAt), where, count);
    }

    static void lmpop(Client c, byte[][] argv) {
        MultiPop request = multiPopOrReply(c, argv, 1);
        if (request != null && !serveMultiPop(c, request)) {
            c.reply().nullArray();
        }
    }

    /** Pops up to COUNT from the first non-empty list and replies {@code [key, [elements]]}; false if all are empty. */
    private static boolean serveMultiPop(Client c, MultiPop request) {
        for (byte[] key : request.keys()) {
            Object found = ListCommands.listForWriteOrReply(c, key);
            if (found == Values.WRONG_TYPE) {
                return true;
            }
            if (found != null) {
                ListValue list = (ListValue) found;
                long before = list.memoryBytes();
                int n = (int) Math.min(request.count(), list.size());
                c.reply().arrayHeader(2);
                c.reply().bulk(key);
                c.reply().arrayHeader(n);
                for (int i = 0; i < n; i++) {
                    c.reply().bulk(ListCommands.pop(list, request.where()));
                }
                ListCommands.finishChange(c, key, list, before, request.where() == HEAD ? "lpop" : "rpop");
                if (Propagate.active(c)) {
                    Propagate.as(c, request.where() == HEAD ? Propagate.LPOP : Propagate.RPOP, key, Propagate.number(n));
                }
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- blocking forms

    /**
     * Redis's getTimeoutFromObjectOrReply: seconds as a decimal, rounded up to whole ms; 0 means
     * forever. Returns the absolute deadline on the server clock (0 for forever), or
     * {@link #INVALID_TIMEOUT} after replying the error Redis gives.
     */
    static long deadlineOrReply(Client c, byte[] arg) {
        double seconds;
        try {
            seconds = Arguments.parseDouble(arg);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.TIMEOUT_NOT_FLOAT);
            return INVALID_TIMEOUT;
        }
        double ms = Math.ceil(seconds * 1000);
        if (ms > Long.MAX_VALUE) {
            c.reply().error(Errors.TIMEOUT_OUT_OF_RANGE);
            return INVALID_TIMEOUT;
        }
        if (ms < 0) {
            c.reply().error(Errors.TIMEOUT_NEGATIVE);
            return INVALID_TIMEOUT;
        }
        long timeoutMs = (long) ms;
        if (timeoutMs == 0) {
            return 0;
        }
        long now = c.server().nowMs();
        return timeoutMs > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeoutMs;
    }

    static void blpop(Client c, byte[][] argv) {
        blockingPop(c, argv, HEAD);
    }

    static void brpop(Client c, byte[][] argv) {
        blockingPop(c, argv, TAIL);
    }

    private static void blockingPop(Client c, byte[][] argv, int where) {
        long deadline = deadlineOrReply(c, argv[argv.length - 1]);
        if (deadline == INVALID_TIMEOUT) {
            return;
        }
        byte[][] keys = Arrays.copyOfRange(argv, 1, argv.length - 1);
        if (servePop(c, keys, where)) {
            return;
        }
        block(c, keys, deadline, client -> servePop(client, keys, where));
    }

    /** BLPOP/BRPOP's step: the first non-empty list gives one element, replied as {@code [key, element]}. */
    private static boolean servePop(Client c, byte[][] keys, int where) {
        for (byte[] key : keys) {
            Object found = ListCommands.listForWriteOrReply(c, key);
            if (found == Values.WRONG_TYPE) {
                return true;
            }
            if (found != null) {
                ListValue list = (ListValue) found;
                long before = list.memoryBytes();
                c.reply().arrayHeader(2);
                c.reply().bulk(key);
                c.reply().bulk(ListCommands.pop(list, where));
                ListCommands.finishChange(c, key, list, before, where == HEAD ? "lpop" : "rpop");
                Propagate.as(c, where == HEAD ? Propagate.LPOP : Propagate.RPOP, key);
                return true;
            }
        }
        return false;
    }

    static void blmove(Client c, byte[][] argv) {
        int from = whereOrReply(c, argv[3]);
        if (from < 0) {
            return;
        }
        int to = whereOrReply(c, argv[4]);
        if (to < 0) {
            return;
        }
        blockingMove(c, argv[1], argv[2], from, to, argv[5], false);
    }

    static void brpoplpush(Client c, byte[][] argv) {
        blockingMove(c, argv[1], argv[2], TAIL, HEAD, argv[3], true);
    }

    private static void blockingMove(Client c, byte[] source, byte[] destination, int from, int to, byte[] timeout,
            boolean legacy) {
        long deadline = deadlineOrReply(c, timeout);
        if (deadline == INVALID_TIMEOUT) {
            return;
        }
        if (serveMove(c, source, destination, from, to, legacy)) {
            return;
        }
        if (c.denyBlocking()) {
            c.reply().nullBulk();
            return;
        }
        block(c, new byte[][] {source}, deadline, client -> serveMove(client, source, destination, from, to, legacy));
    }

    /** BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]; as Redis, the timeout is checked last. */
    static void blmpop(Client c, byte[][] argv) {
        MultiPop request = multiPopOrReply(c, argv, 2);
        if (request == null) {
            return;
        }
        long deadline = deadlineOrReply(c, argv[1]);
        if (deadline == INVALID_TIMEOUT || serveMultiPop(c, request)) {
            return;
        }
        block(c, request.keys(), deadline, client -> serveMultiPop(client, request));
    }

    /** Blocks, or inside MULTI answers at once with the timeout reply (a null array). */
    private static void block(Client c, byte[][] keys, long deadline, dev.ebb.server.BlockingKeys.Retry retry) {
        if (c.denyBlocking()) {
            c.reply().nullArray();
            return;
        }
        c.server().blockingKeys().block(c, keys, deadline, ListValue.class, retry,
                client -> client.reply().nullArray());
    }
}
