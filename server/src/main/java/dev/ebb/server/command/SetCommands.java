package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.types.SetValue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The set family: SADD, SREM, SPOP, SRANDMEMBER, SMOVE, the algebra (SINTER, SUNION, SDIFF, their
 * STORE forms, SINTERCARD) and SSCAN, over {@link SetValue}.
 *
 * <p>The algebra first looks up every key and answers WRONGTYPE if any holds another type (a
 * missing key is an empty set), then computes: intersection walks the smallest set and probes the
 * others (O(smallest * sets)); union and difference walk every set (O(total)).
 */
public final class SetCommands {
    private static final int RANDOM_SAMPLE_FACTOR = 3;

    private SetCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("sadd", -3, WRITE | DENYOOM | FAST, 1, 1, 1, SetCommands::sadd)
                        .doc(CommandGroup.SET, "1.0.0",
                                "Adds one or more members to a set. Creates the key if it doesn't exist.",
                                "key member [member ...]"),
                spec("srem", -3, WRITE | FAST, 1, 1, 1, SetCommands::srem)
                        .doc(CommandGroup.SET, "1.0.0",
                                "Removes one or more members from a set. Deletes the set if the last member was"
                                        + " removed.", "key member [member ...]"),
                spec("smembers", 2, READONLY, 1, 1, 1, SetCommands::smembers)
                        .doc(CommandGroup.SET, "1.0.0", "Returns all members of a set.", "key"),
                spec("sismember", 3, READONLY | FAST, 1, 1, 1, SetCommands::sismember)
                        .doc(CommandGroup.SET, "1.0.0", "Determines whether a member belongs to a set.",
                                "key member"),
                spec("smismember", -3, READONLY | FAST, 1, 1, 1, SetCommands::smismember)
                        .doc(CommandGroup.SET, "6.2.0", "Determines whether multiple members belong to a set.",
                                "key member [member ...]"),
                spec("scard", 2, READONLY | FAST, 1, 1, 1, SetCommands::scard)
                        .doc(CommandGroup.SET, "1.0.0", "Returns the number of members in a set.", "key"),
                spec("spop", -2, WRITE | FAST, 1, 1, 1, SetCommands::spop)
                        .doc(CommandGroup.SET, "1.0.0",
                                "Returns one or more random members from a set after removing them."
                                        + " Deletes the set if the last member was popped.", "key [count]"),
                spec("srandmember", -2, READONLY, 1, 1, 1, SetCommands::srandmember)
                        .doc(CommandGroup.SET, "1.0.0", "Get one or multiple random members from a set",
                                "key [count]"),
                spec("smove", 4, WRITE | FAST, 1, 2, 1, SetCommands::smove)
                        .doc(CommandGroup.SET, "1.0.0", "Moves a member from one set to another.",
                                "source destination member"),
                spec("sinter", -2, READONLY, 1, -1, 1, SetCommands::sinter)
                        .doc(CommandGroup.SET, "1.0.0", "Returns the intersect of multiple sets.", "key [key ...]"),
                spec("sinterstore", -3, WRITE | DENYOOM, 1, -1, 1, SetCommands::sinterstore)
                        .doc(CommandGroup.SET, "1.0.0", "Stores the intersect of multiple sets in a key.",
                                "destination key [key ...]"),
                spec("sunion", -2, READONLY, 1, -1, 1, SetCommands::sunion)
                        .doc(CommandGroup.SET, "1.0.0", "Returns the union of multiple sets.", "key [key ...]"),
                spec("sunionstore", -3, WRITE | DENYOOM, 1, -1, 1, SetCommands::sunionstore)
                        .doc(CommandGroup.SET, "1.0.0", "Stores the union of multiple sets in a key.",
                                "destination key [key ...]"),
                spec("sdiff", -2, READONLY, 1, -1, 1, SetCommands::sdiff)
                        .doc(CommandGroup.SET, "1.0.0", "Returns the difference of multiple sets.", "key [key ...]"),
                spec("sdiffstore", -3, WRITE | DENYOOM, 1, -1, 1, SetCommands::sdiffstore)
                        .doc(CommandGroup.SET, "1.0.0", "Stores the difference of multiple sets in a key.",
                                "destination key [key ...]"),
                spec("sintercard", -3, READONLY | MOVABLE_KEYS, 0, 0, 0, SetCommands::sintercard)
                        .doc(CommandGroup.SET, "7.0.0", "Returns the number of members of the intersect of multiple"
                                + " sets.", "numkeys key [key ...] [LIMIT limit]"),
                spec("sscan", -3, READONLY, 1, 1, 1, SetCommands::sscan)
                        .doc(CommandGroup.SET, "2.8.0", "Iterates over members of a set.",
                                "key cursor [MATCH pattern] [COUNT count]"));
    }

    private static Object setForReadOrReply(Client c, byte[] key) {
        return Aggregates.lookupReadOrReply(c, key, SetValue.class);
    }

    private static Object setForWriteOrReply(Client c, byte[] key) {
        return Aggregates.lookupWriteOrReply(c, key, SetValue.class);
    }

    /** Adds with the configured encoding thresholds. */
    static boolean add(Client c, SetValue set, byte[] member) {
        ServerConfig config = c.server().config();
        return set.add(member, config.setMaxIntsetEntries(), config.setMaxListpackEntries(),
                config.setMaxListpackValue());
    }

    /** A new set in the encoding Redis picks for {@code sizeHint} members, {@code first} among them. */
    private static SetValue sized(Client c, byte[] first, long sizeHint) {
        ServerConfig config = c.server().config();
        return SetValue.sized(first, sizeHint, config.setMaxIntsetEntries(), config.setMaxListpackEntries());
    }

    private static boolean maybeConvert(Client c, SetValue set, long sizeHint) {
        ServerConfig config = c.server().config();
        return set.convertForSizeHint(sizeHint, config.setMaxIntsetEntries(), config.setMaxListpackEntries());
    }

    static void sadd(Client c, byte[][] argv) {
        Object found = setForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        SetValue set = found == null ? sized(c, argv[2], argv.length - 2) : (SetValue) found;
        long before = set.memoryBytes();
        // As Redis's setTypeMaybeConvert: more arguments than the encoding may hold convert it first.
        boolean converted = found != null && maybeConvert(c, set, argv.length - 2);
        long added = 0;
        for (int i = 2; i < argv.length; i++) {
            if (add(c, set, argv[i])) {
                added++;
            }
        }
        if (found == null) {
            Aggregates.created(c, argv[1], set, NotifyKeyspaceEvents.SET, "sadd");
        } else if (added > 0) {
            Aggregates.changed(c, argv[1], set, before, false, NotifyKeyspaceEvents.SET, "sadd");
        } else if (converted) {
            c.db().adjustMemory(set.memoryBytes() - before);
        }
        c.reply().integer(added);
    }

    static void srem(Client c, byte[][] argv) {
        Object found = setForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        SetValue set = (SetValue) found;
        long before = set.memoryBytes();
        long removed = 0;
        for (int i = 2; i < argv.length && set.size() > 0; i++) {
            if (set.remove(argv[i])) {
                removed++;
            }
        }
        if (removed > 0) {
            Aggregates.changed(c, argv[1], set, before, set.size() == 0, NotifyKeyspaceEvents.SET, "srem");
        }
        c.reply().integer(removed);
    }

    static void smembers(Client c, byte[][] argv) {
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().setHeader(0);
            return;
        }
        SetValue set = (SetValue) found;
        c.reply().setHeader(set.size());
        set.forEach(member -> c.reply().bulk(member));
    }

    static void sismember(Client c, byte[][] argv) {
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().integer(found != null && ((SetValue) found).contains(argv[2]) ? 1 : 0);
    }

    static void smismember(Client c, byte[][] argv) {
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            c.reply().integer(found != null && ((SetValue) found).contains(argv[i]) ? 1 : 0);
        }
    }

    static void scard(Client c, byte[][] argv) {
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().integer(found == null ? 0 : ((SetValue) found).size());
    }

    /**
     * SPOP key [count]: without a count one random member or nil; with one, up to count distinct
     * members (the whole set when count covers it, and the key goes). O(count).
     */
    /** Redis's SPOP_MOVE_STRATEGY_MUL: past remaining * this popped, the rest moves to a new set. */
    private static final long SPOP_MOVE_STRATEGY_MUL = 5;

    static void spop(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        long count = 1;
        if (argv.length == 3) {
            try {
                count = Arguments.parseLong(argv[2]);
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) {
                c.reply().error(Errors.NOT_POSITIVE);
                return;
            }
        }
        Object found = setForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            if (argv.length == 3) {
                c.reply().setHeader(0);
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        SetValue set = (SetValue) found;
        long before = set.memoryBytes();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (argv.length == 2) {
            byte[] member = set.popRandom(random.nextLong());
            c.reply().bulk(member);
            Propagate.as(c, Propagate.SREM, argv[1], member);
        } else if (count >= set.size()) {
            // The whole set, in its iteration order (sorted for an intset), as Redis replies it.
            c.reply().setHeader(set.size());
            set.forEach(member -> c.reply().bulk(member));
            Notifications.notify(c, NotifyKeyspaceEvents.SET, "spop", argv[1]);
            c.db().delete(argv[1]);
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", argv[1]);
            Propagate.asServerDelete(c, argv[1]);
            return;
        } else if (count == 0) {
            c.reply().setHeader(0);
            return;
        } else {
            int n = (int) Math.min(count, set.size());
            long remaining = set.size() - n;
            c.reply().setHeader(n);
            SremBatches batches = Propagate.active(c) ? new SremBatches(c, argv[1]) : null;
            for (int i = 0; i < n; i++) {
                byte[] member = set.popRandom(random.nextLong());
                c.reply().bulk(member);
                if (batches != null) {
                    batches.add(member);
                }
            }
            if (batches != null) {
                batches.finish();
            }
            if (remaining * SPOP_MOVE_STRATEGY_MUL <= n) {
                // Redis moves the few members left into a new set (SPOP's "case 3"): a hashtable
                // leaves a listpack if they fit one.
                ServerConfig config = c.server().config();
                set.repackHashtable(config.setMaxIntsetEntries(), config.setMaxListpackEntries(),
                        config.setMaxListpackValue());
            }
        }
        Aggregates.changed(c, argv[1], set, before, set.size() == 0, NotifyKeyspaceEvents.SET, "spop");
    }

    /**
     * SPOP with a count propagates as SREMs of at most {@link Propagate#SREM_BATCH} members each,
     * in the order popped, and not as itself (its members are random), as Redis does.
     */
    private static final class SremBatches {
        private final Client c;
        private final byte[] key;
        private final java.util.ArrayList<byte[]> argv = new java.util.ArrayList<>();

        SremBatches(Client c, byte[] key) {
            this.c = c;
            this.key = key;
            c.server().propagation().prevent();
            reset();
        }

        void add(byte[] member) {
            argv.add(member);
            if (argv.size() == 2 + Propagate.SREM_BATCH) {
                flush();
            }
        }

        void finish() {
            if (argv.size() > 2) {
                flush();
            }
        }

        private void flush() {
            c.server().propagation().also(c.db().id(), argv.toArray(new byte[0][]));
            reset();
        }

        private void reset() {
            argv.clear();
            argv.add(Propagate.SREM);
            argv.add(key);
        }
    }

    /**
     * SRANDMEMBER key [count]: negative counts draw with repetition; a count at least the size
     * returns the whole set; otherwise distinct members, by removal from a copy when the count is
     * above a third of the size and by sampling below, as Redis does.
     */
    static void srandmember(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        long count = 0;
        if (argv.length == 3) {
            try {
                count = Arguments.parseLong(argv[2]);
            } catch (NumberFormatException e) {
                c.reply().error(Errors.NOT_INTEGER);
                return;
            }
            if (count == Long.MIN_VALUE) {
                c.reply().error(Errors.COUNT_OUT_OF_RANGE);
                return;
            }
        }
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (argv.length == 2) {
            c.reply().bulk(found == null ? null : ((SetValue) found).randomMember(random.nextLong()));
            return;
        }
        if (found == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        SetValue set = (SetValue) found;
        if (count < 0) {
            // A reply header holds an int: larger repeated draws are cut there (Redis would try to send them all).
            int n = (int) Math.min(-count, Integer.MAX_VALUE);
            c.reply().arrayHeader(n);
            for (int i = 0; i < n; i++) {
                c.reply().bulk(set.randomMember(random.nextLong()));
            }
            return;
        }
        if (count >= set.size()) {
            c.reply().arrayHeader(set.size());
            set.forEach(member -> c.reply().bulk(member));
            return;
        }
        int wanted = (int) count;
        List<byte[]> picked;
        if ((long) wanted * RANDOM_SAMPLE_FACTOR > set.size()) {
            picked = members(set);
            for (int left = picked.size(); left > wanted; left--) {
                picked.set(random.nextInt(left), picked.get(left - 1));
            }
            picked = picked.subList(0, wanted);
        } else {
            picked = new ArrayList<>(wanted);
            Set<ByteBuffer> seen = new HashSet<>();
            while (picked.size() < wanted) {
                byte[] member = set.randomMember(random.nextLong());
                if (seen.add(ByteBuffer.wrap(member))) {
                    picked.add(member);
                }
            }
        }
        c.reply().arrayHeader(picked.size());
        for (byte[] member : picked) {
            c.reply().bulk(member);
        }
    }

    static void smove(Client c, byte[][] argv) {
        Object src = setForWriteOrReply(c, argv[1]);
        if (src == Values.WRONG_TYPE) {
            return;
        }
        Object dst = c.db().lookupWrite(argv[2], c.server().nowMs());
        if (src == null) {
            c.reply().integer(0);
            return;
        }
        if (dst != null && !(dst instanceof SetValue)) {
            c.reply().error(Errors.WRONGTYPE);
            return;
        }
        SetValue from = (SetValue) src;
        if (src == dst) {
            c.reply().integer(from.contains(argv[3]) ? 1 : 0);
            return;
        }
        long fromBefore = from.memoryBytes();
        if (!from.remove(argv[3])) {
            c.reply().integer(0);
            return;
        }
        Aggregates.changed(c, argv[1], from, fromBefore, from.size() == 0, NotifyKeyspaceEvents.SET, "srem");
        if (dst == null) {
            SetValue to = sized(c, argv[3], 1);
            add(c, to, argv[3]);
            Aggregates.created(c, argv[2], to, NotifyKeyspaceEvents.SET, "sadd");
        } else {
            SetValue to = (SetValue) dst;
            long toBefore = to.memoryBytes();
            if (add(c, to, argv[3])) {
                Aggregates.changed(c, argv[2], to, toBefore, false, NotifyKeyspaceEvents.SET, "sadd");
            }
        }
        c.reply().integer(1);
    }

    /**
     * The sets at {@code argv[from..to)}, null for missing keys; or null after replying WRONGTYPE
     * if any key holds another type (every key is checked, as Redis does).
     */
    private static SetValue[] setsOrReply(Client c, byte[][] argv, int from, int to, boolean forWrite) {
        SetValue[] sets = new SetValue[to - from];
        for (int i = from; i < to; i++) {
            Object v = forWrite ? c.db().lookupWrite(argv[i], c.server().nowMs())
                    : c.db().lookupRead(argv[i], c.server().nowMs());
            if (!forWrite) {
                c.server().stats().lookup(v != null);
            }
            if (v != null && !(v instanceof SetValue)) {
                c.reply().error(Errors.WRONGTYPE);
                return null;
            }
            sets[i - from] = (SetValue) v;
        }
        return sets;
    }

    static void sinter(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 1, argv.length, false);
        if (sets != null) {
            replyMembers(c, intersection(sets, Long.MAX_VALUE));
        }
    }

    static void sunion(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 1, argv.length, false);
        if (sets != null) {
            replyMembers(c, union(sets));
        }
    }

    static void sdiff(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 1, argv.length, false);
        if (sets != null) {
            replyMembers(c, difference(sets));
        }
    }

    static void sinterstore(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 2, argv.length, true);
        if (sets != null) {
            store(c, argv[1], intersection(sets, Long.MAX_VALUE), "sinterstore");
        }
    }

    static void sunionstore(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 2, argv.length, true);
        if (sets != null) {
            store(c, argv[1], union(sets), "sunionstore");
        }
    }

    static void sdiffstore(Client c, byte[][] argv) {
        SetValue[] sets = setsOrReply(c, argv, 2, argv.length, true);
        if (sets != null) {
            store(c, argv[1], difference(sets), "sdiffstore");
        }
    }

    /** SINTERCARD numkeys key [key ...] [LIMIT limit]: the intersection's size, stopping at LIMIT (0 = none). */
    static void sintercard(Client c, byte[][] argv) {
        long numkeys;
        try {
            numkeys = Arguments.parseLong(argv[1]);
        } catch (NumberFormatException e) {
            numkeys = 0;
        }
        if (numkeys <= 0) {
            c.reply().error(Errors.NUMKEYS_NOT_POSITIVE);
            return;
        }
        if (numkeys > argv.length - 2) {
            c.reply().error(Errors.NUMKEYS_TOO_LARGE);
            return;
        }
        long limit = 0;
        for (int i = 2 + (int) numkeys; i < argv.length; i += 2) {
            if (Arguments.is(argv[i], "limit") && i + 1 < argv.length) {
                try {
                    limit = Arguments.parseLong(argv[i + 1]);
                } catch (NumberFormatException e) {
                    limit = -1;
                }
                if (limit < 0) {
                    c.reply().error(Errors.LIMIT_NEGATIVE);
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        SetValue[] sets = setsOrReply(c, argv, 2, 2 + (int) numkeys, false);
        if (sets != null) {
            c.reply().integer(intersection(sets, limit == 0 ? Long.MAX_VALUE : limit).size());
        }
    }

    /** SSCAN key cursor [MATCH pattern] [COUNT count], as {@link HashCommands#hscan} for members. */
    static void sscan(Client c, byte[][] argv) {
        if (!Aggregates.cursorValidOrReply(c, argv[2])) {
            return;
        }
        Object found = setForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            Aggregates.replyEmptyScan(c);
            return;
        }
        Aggregates.ScanOptions options = Aggregates.scanOptionsOrReply(c, argv);
        if (options == null) {
            return;
        }
        SetValue set = (SetValue) found;
        List<byte[]> out = new ArrayList<>();
        long[] visited = new long[1];
        long cursor = options.cursor();
        long stepsLeft = options.maxSteps();
        do {
            cursor = set.scan(cursor, member -> {
                visited[0]++;
                if (options.matches(member)) {
                    out.add(member);
                }
            });
        } while (cursor != 0 && --stepsLeft > 0 && visited[0] < options.count());
        c.reply().arrayHeader(2);
        c.reply().bulk(Long.toUnsignedString(cursor));
        c.reply().arrayHeader(out.size());
        for (byte[] member : out) {
            c.reply().bulk(member);
        }
    }

    private static List<byte[]> members(SetValue set) {
        List<byte[]> all = new ArrayList<>(set.size());
        set.forEach(all::add);
        return all;
    }

    /** Members of every set, walking the smallest and probing the rest; stops at {@code limit} members. */
    private static List<byte[]> intersection(SetValue[] sets, long limit) {
        for (SetValue s : sets) {
            if (s == null) {
                return List.of();
            }
        }
        SetValue[] bySize = sets.clone();
        Arrays.sort(bySize, Comparator.comparingInt(SetValue::size));
        List<byte[]> out = new ArrayList<>();
        for (byte[] member : members(bySize[0])) {
            if (out.size() >= limit) {
                break;
            }
            boolean inAll = true;
            for (int i = 1; i < bySize.length && inAll; i++) {
                inAll = bySize[i] == bySize[0] || bySize[i].contains(member);
            }
            if (inAll) {
                out.add(member);
            }
        }
        return out;
    }

    private static List<byte[]> union(SetValue[] sets) {
        Set<ByteBuffer> seen = new HashSet<>();
        List<byte[]> out = new ArrayList<>();
        for (SetValue s : sets) {
            if (s != null) {
                s.forEach(member -> {
                    if (seen.add(ByteBuffer.wrap(member))) {
                        out.add(member);
                    }
                });
            }
        }
        return out;
    }

    /** Members of the first set in none of the others: O(first * sets). */
    private static List<byte[]> difference(SetValue[] sets) {
        if (sets[0] == null) {
            return List.of();
        }
        List<byte[]> out = new ArrayList<>();
        for (byte[] member : members(sets[0])) {
            boolean elsewhere = false;
            for (int i = 1; i < sets.length && !elsewhere; i++) {
                elsewhere = sets[i] != null && (sets[i] == sets[0] || sets[i].contains(member));
            }
            if (!elsewhere) {
                out.add(member);
            }
        }
        return out;
    }

    private static void replyMembers(Client c, List<byte[]> members) {
        c.reply().setHeader(members.size());
        for (byte[] member : members) {
            c.reply().bulk(member);
        }
    }

    /**
     * The STORE forms: the result replaces {@code destination} (any type, TTL dropped) and
     * publishes {@code event}, or deletes it when empty (publishing "del" if it existed).
     */
    private static void store(Client c, byte[] destination, List<byte[]> members, String event) {
        if (members.isEmpty()) {
            c.db().expireIfNeeded(destination, c.server().nowMs());
            if (c.db().delete(destination) != null) {
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", destination);
            }
            c.reply().integer(0);
            return;
        }
        SetValue result = new SetValue();
        for (byte[] member : members) {
            add(c, result, member);
        }
        c.db().setKey(destination, result, c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.SET, event, destination);
        c.reply().integer(result.size());
    }
}
