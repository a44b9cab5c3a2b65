package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.BLOCKING;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.BlockingKeys;
import dev.ebb.server.Client;
import dev.ebb.server.command.ZSetPopCommands.MpopArguments;
import dev.ebb.server.command.ZSetPopCommands.PopReply;
import dev.ebb.storage.zset.SortedSet;
import java.util.Arrays;
import java.util.List;

/**
 * BZPOPMIN, BZPOPMAX and BZMPOP: the sorted-set pops that block on {@link BlockingKeys} while
 * every key is missing. Each command first tries its serving step (the first non-empty key is
 * popped through {@link ZSetPopCommands#popAndReply}, a key of another type answers WRONGTYPE);
 * if nothing can be served it blocks with that same step as its {@link BlockingKeys.Retry}, run
 * again when a write that creates a sorted set ({@link ZSetSupport#storeNew},
 * {@link ZSetSupport#storeResult}) signals one of its keys. Inside MULTI/EXEC (or any context
 * that may not block) the timeout reply, a null array, comes at once, as Redis answers.
 */
public final class ZSetBlockingCommands {
    private ZSetBlockingCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.SORTED_SET;
        return List.of(
                spec("bzpopmin", -3, WRITE | NOSCRIPT | BLOCKING | FAST, 1, -2, 1, ZSetBlockingCommands::bzpopmin)
                        .doc(g, "5.0.0", "Removes and returns the member with the lowest score from one or more"
                                + " sorted sets. Blocks until a member is available otherwise. Deletes the"
                                + " sorted set if the last element was popped.", "key [key ...] timeout"),
                spec("bzpopmax", -3, WRITE | NOSCRIPT | BLOCKING | FAST, 1, -2, 1, ZSetBlockingCommands::bzpopmax)
                        .doc(g, "5.0.0", "Removes and returns the member with the highest score from one or more"
                                + " sorted sets. Blocks until a member available otherwise. Deletes the"
                                + " sorted set if the last element was popped.", "key [key ...] timeout"),
                spec("bzmpop", -5, WRITE | BLOCKING | MOVABLE_KEYS, 0, 0, 0, ZSetBlockingCommands::bzmpop)
                        .doc(g, "7.0.0", "Removes and returns a member by score from one or more sorted sets."
                                + " Blocks until a member is available otherwise. Deletes the sorted set if the"
                                + " last element was popped.",
                                "timeout numkeys key [key ...] <MIN | MAX> [COUNT count]"));
    }

    static void bzpopmin(Client c, byte[][] argv) {
        blockingPop(c, argv, false);
    }

    static void bzpopmax(Client c, byte[][] argv) {
        blockingPop(c, argv, true);
    }

    /** BZPOPMIN/BZPOPMAX key [key ...] timeout: replies [key, member, score]. */
    private static void blockingPop(Client c, byte[][] argv, boolean max) {
        long deadline = ListMoveCommands.deadlineOrReply(c, argv[argv.length - 1]);
        if (deadline == ListMoveCommands.INVALID_TIMEOUT) {
            return;
        }
        byte[][] keys = Arrays.copyOfRange(argv, 1, argv.length - 1);
        if (!servePop(c, keys, max, 1, PopReply.KEYED_FLAT)) {
            block(c, keys, deadline, client -> servePop(client, keys, max, 1, PopReply.KEYED_FLAT));
        }
    }

    /**
     * BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]. As in Redis the pop arguments
     * are checked before the timeout.
     */
    static void bzmpop(Client c, byte[][] argv) {
        MpopArguments args = ZSetPopCommands.parseMpopOrReply(c, argv, 2);
        if (args == null) {
            return;
        }
        long deadline = ListMoveCommands.deadlineOrReply(c, argv[1]);
        if (deadline == ListMoveCommands.INVALID_TIMEOUT) {
            return;
        }
        byte[][] keys = Arrays.copyOfRange(argv, args.firstKey(), args.firstKey() + args.numKeys());
        boolean max = args.max();
        long count = args.count();
        if (!servePop(c, keys, max, count, PopReply.KEYED_PAIRS)) {
            block(c, keys, deadline, client -> servePop(client, keys, max, count, PopReply.KEYED_PAIRS));
        }
    }

    /**
     * The serving step: pops from the first key holding a sorted set and replies; replies
     * WRONGTYPE for a key of another type met first; false, without a reply, if every key is missing.
     */
    private static boolean servePop(Client c, byte[][] keys, boolean max, long count, PopReply shape) {
        for (byte[] key : keys) {
            Object v = ZSetSupport.lookupWrite(c, key);
            if (v == Values.WRONG_TYPE) {
                return true;
            }
            if (v != null) {
                ZSetPopCommands.popAndReply(c, key, (SortedSet) v, max, count, shape);
                return true;
            }
        }
        return false;
    }

    /** Blocks, or where the client may not block (MULTI) answers at once with the timeout reply. */
    private static void block(Client c, byte[][] keys, long deadline, BlockingKeys.Retry retry) {
        if (c.denyBlocking()) {
            c.reply().nullArray();
            return;
        }
        c.server().blockingKeys().block(c, keys, deadline, SortedSet.class, retry,
                client -> client.reply().nullArray());
    }
}
