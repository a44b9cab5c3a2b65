package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * SORT and SORT_RO, one routine ({@link #sortGeneric}) as in Redis: the elements of a list, set or
 * sorted set, ordered numerically or (ALPHA) as bytes, by themselves or by weights read through a
 * BY pattern, cut by LIMIT, each replaced by the values GET patterns point at, and replied or
 * (SORT … STORE) stored as a list.
 *
 * <p><b>Patterns.</b> The first {@code *} of a pattern is replaced by the element to name a key;
 * {@code key*->field} reads a hash field instead of a string; {@code #} (GET only) is the element
 * itself; a pattern without {@code *} points at nothing. A BY pattern without {@code *} (by
 * convention {@code nosort}) means "do not sort": lists and sorted sets keep their order (DESC
 * reverses it), and a set keeps its iteration order, except under STORE or inside a script, where
 * Redis sorts it ALPHA so that replicas and AOF see the same result; so does Ebb.
 *
 * <p><b>Order.</b> Numeric weights are parsed as C's strtod does (leading blanks, hexadecimal,
 * {@code inf}; an empty string is 0); a missing weight counts as 0; anything else, NaN, overflow
 * and underflow fail the whole command with "One or more scores can't be converted into double"
 * (after sorting, as Redis, so nothing is stored). Redis tests a strtod {@code errno} it never
 * clears, so after one overflowing weight a later valid numeric SORT may fail there too; Ebb
 * judges each weight on its own. Equal numbers are ordered by the elements'
 * bytes. ALPHA compares bytes, never a locale: under STORE the whole strings (memcmp, then
 * length), otherwise as C strings (up to a NUL), which is what Redis's strcoll does in the C and
 * C.UTF-8 locales; with BY, a missing weight sorts first. Ebb's sort is stable where Redis's
 * qsort is not: elements with equal ALPHA weights may come in a different order.
 *
 * <p><b>Cluster mode</b> refuses GET and BY patterns (their keys could be anywhere); STORE's
 * destination is a key of the command ({@link #keys}), so it is checked for CROSSSLOT.
 *
 * <p>As in Redis, sorting a sorted set (even with SORT_RO) converts it to the skiplist encoding
 * for good.
 *
 * <p>Cost: O(N) to gather N elements plus O(N log N) to sort them, and one key look-up per
 * element and pattern. Loop thread only.
 */
public final class SortCommands {
    /** Longest weight {@link Arguments#parseDouble} takes (it refuses longer ones; strtod does not). */
    private static final int MAX_FAST_DOUBLE_LENGTH = 5000;
    /**
     * Past this binary exponent a hexadecimal weight is not checked for exactness (a subnormal
     * written so is inexact in practice, and 2^exponent would cost too much to build).
     */
    private static final long MAX_EXACT_EXPONENT = 4096;

    private SortCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        String syntax = "key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern ...]] [ASC | DESC] [ALPHA]";
        return List.of(
                spec("sort", -2, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1, SortCommands::sort)
                        .keys(SortCommands::keys, "RO access", "OW update")
                        .doc(CommandGroup.GENERIC, "1.0.0", "Sorts the elements in a list, a set, or a sorted set,"
                                + " optionally storing the result.", syntax + " [STORE destination]")
                        .complexity("O(N+M*log(M)) where N is the number of elements in the list or set to sort,"
                                + " and M the number of returned elements. When the elements are not sorted,"
                                + " complexity is O(N)."),
                spec("sort_ro", -2, READONLY | MOVABLE_KEYS, 1, 1, 1, SortCommands::sortRo)
                        .doc(CommandGroup.GENERIC, "7.0.0", "Returns the sorted elements of a list, a set, or a"
                                + " sorted set.", syntax)
                        .complexity("O(N+M*log(M)) where N is the number of elements in the list or set to sort,"
                                + " and M the number of returned elements. When the elements are not sorted,"
                                + " complexity is O(N)."));
    }

    /**
     * The argv indexes of SORT's keys, as Redis's sortGetKeys finds them: the sorted key, and the
     * destination of the last STORE. Options are skipped by their argument counts (LIMIT 2, GET
     * and BY 1); anything else counts as an option without arguments.
     */
    static int[] keys(byte[][] argv) {
        int store = -1;
        for (int i = 2; i < argv.length; i++) {
            if (Arguments.is(argv[i], "limit")) {
                i += 2;
            } else if (Arguments.is(argv[i], "get") || Arguments.is(argv[i], "by")) {
                i += 1;
            } else if (Arguments.is(argv[i], "store") && i + 1 < argv.length) {
                store = i + 1;
            }
        }
        return store < 0 ? new int[] {1} : new int[] {1, store};
    }

    static void sort(Client c, byte[][] argv) {
        sortGeneric(c, argv, false);
    }

    static void sortRo(Client c, byte[][] argv) {
        sortGeneric(c, argv, true);
    }

    /** One element being sorted, with its numeric weight or (ALPHA BY) the bytes it sorts by. */
    private static final class Item {
        final byte[] element;
        double score;
        byte[] weight;

        Item(byte[] element) {
            this.element = element;
        }
    }

    /** SORT's options, as parsed. */
    private static final class Options {
        boolean desc;
        boolean alpha;
        boolean dontSort;
        long limitStart;
        long limitCount = -1;
        byte[] by;
        byte[] store;
        final List<byte[]> gets = new ArrayList<>();
    }

    private static void sortGeneric(Client c, byte[][] argv, boolean readonly) {
        Options o = optionsOrReply(c, argv, readonly);
        if (o == null) {
            return;
        }
        Object value = c.db().lookupRead(argv[1], c.server().nowMs());
        c.server().stats().lookup(value != null);
        Notifications.keyMissIf(value == null, c, argv[1]);
        if (value != null && !(value instanceof ListValue) && !(value instanceof SetValue)
                && !(value instanceof SortedSet)) {
            c.reply().error(Errors.WRONGTYPE);
            return;
        }
        if (value instanceof SortedSet zset && zset.encoding().equals("listpack")) {
            // As Redis's SORT (and SORT_RO): the sorted set keeps the skiplist encoding for good.
            long before = zset.memoryBytes();
            zset.toSkiplistEncoding();
            c.db().adjustMemory(zset.memoryBytes() - before);
        }
        if (o.dontSort && value instanceof SetValue && (o.store != null || c.inScript())) {
            // Redis sorts a set here so that replicas and the AOF see the same order.
            o.dontSort = false;
            o.alpha = true;
            o.by = null;
        }
        int size = value == null ? 0 : size(value);
        long start = Math.min(Math.max(o.limitStart, 0), size);
        long count = Math.min(Math.max(o.limitCount, -1), size);
        long end = count < 0 ? size - 1 : start + count - 1;
        if (start >= size) {
            start = size - 1;
            end = size - 2;
        }
        end = Math.min(end, size - 1);
        int from = (int) start;
        int to = (int) end;
        Item[] items;
        if (o.dontSort && !(value instanceof SetValue)) {
            items = ordered(value, from, to, o.desc);
            to -= from;
            from = 0;
        } else {
            items = all(value);
        }
        boolean numberError = false;
        if (!o.dontSort) {
            numberError = weigh(c, items, o);
            Arrays.sort(items, comparator(o));
        }
        if (numberError) {
            c.reply().error(Errors.SORT_NOT_DOUBLE);
        } else if (o.store == null) {
            reply(c, items, from, to, o);
        } else {
            store(c, items, from, to, o);
        }
    }

    /** Parses the options after the key, or replies the error and returns null. */
    private static Options optionsOrReply(Client c, byte[][] argv, boolean readonly) {
        Options o = new Options();
        for (int j = 2; j < argv.length; j++) {
            int left = argv.length - j - 1;
            byte[] arg = argv[j];
            if (Arguments.is(arg, "asc")) {
                o.desc = false;
            } else if (Arguments.is(arg, "desc")) {
                o.desc = true;
            } else if (Arguments.is(arg, "alpha")) {
                o.alpha = true;
            } else if (Arguments.is(arg, "limit") && left >= 2) {
                if (!Arguments.isLongOrReply(c, argv[j + 1]) || !Arguments.isLongOrReply(c, argv[j + 2])) {
                    return null;
                }
                o.limitStart = Arguments.parseLong(argv[j + 1]);
                o.limitCount = Arguments.parseLong(argv[j + 2]);
                j += 2;
            } else if (!readonly && Arguments.is(arg, "store") && left >= 1) {
                o.store = argv[++j];
            } else if (Arguments.is(arg, "by") && left >= 1) {
                o.by = argv[++j];
                if (star(o.by) < 0) {
                    o.dontSort = true;
                } else if (c.server().clusterEnabled()) {
                    c.reply().error(Errors.SORT_BY_IN_CLUSTER);
                    return null;
                }
            } else if (Arguments.is(arg, "get") && left >= 1) {
                if (c.server().clusterEnabled()) {
                    c.reply().error(Errors.SORT_GET_IN_CLUSTER);
                    return null;
                }
                o.gets.add(argv[++j]);
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        return o;
    }

    private static int size(Object value) {
        if (value instanceof ListValue list) {
            return list.size();
        }
        return value instanceof SetValue set ? set.size() : ((SortedSet) value).size();
    }

    /** Ranks {@code from..to} of a list or sorted set in its own order (reversed if {@code desc}). */
    private static Item[] ordered(Object value, int from, int to, boolean desc) {
        Item[] items = new Item[Math.max(0, to - from + 1)];
        if (items.length == 0) {
            return items;
        }
        if (value instanceof ListValue list) {
            int n = list.size();
            for (int k = 0; k < items.length; k++) {
                items[k] = new Item(list.get(desc ? n - 1 - from - k : from + k));
            }
        } else {
            int[] k = {0};
            ((SortedSet) value).visitRange(from, to, desc, (member, score) -> items[k[0]++] = new Item(member));
        }
        return items;
    }

    /** Every element, in the value's iteration order; none for a missing key. */
    private static Item[] all(Object value) {
        if (value == null) {
            return new Item[0];
        }
        Item[] items = new Item[size(value)];
        int[] k = {0};
        if (value instanceof ListValue list) {
            for (int i = 0; i < items.length; i++) {
                items[i] = new Item(list.get(i));
            }
        } else if (value instanceof SetValue set) {
            set.forEach(member -> items[k[0]++] = new Item(member));
        } else {
            ((SortedSet) value).forEach((member, score) -> items[k[0]++] = new Item(member));
        }
        return items;
    }

    /**
     * Gives each item what it sorts by: for ALPHA with BY the weight's bytes (null when missing);
     * numerically the element's or its weight's value (0 when the weight is missing).
     *
     * @return whether some value is not a number
     */
    private static boolean weigh(Client c, Item[] items, Options o) {
        if (o.alpha && o.by == null) {
            return false;
        }
        boolean error = false;
        for (Item item : items) {
            byte[] weight = o.by == null ? item.element : lookupByPattern(c, o.by, item.element);
            if (o.alpha) {
                item.weight = weight;
            } else if (weight != null) {
                item.score = score(weight);
                error |= Double.isNaN(item.score);
            }
        }
        return error;
    }

    private static Comparator<Item> comparator(Options o) {
        Comparator<Item> cmp;
        if (!o.alpha) {
            cmp = (a, b) -> {
                int byScore = Double.compare(a.score, b.score);
                // Double.compare orders -0.0 before 0.0; C's comparison, as Redis's, does not.
                return a.score == b.score ? Arrays.compareUnsigned(a.element, b.element) : byScore;
            };
        } else if (o.by != null) {
            boolean binary = o.store != null;
            cmp = (a, b) -> {
                if (a.weight == null || b.weight == null) {
                    return a.weight == b.weight ? 0 : a.weight == null ? -1 : 1;
                }
                return binary ? Arrays.compareUnsigned(a.weight, b.weight) : compareCString(a.weight, b.weight);
            };
        } else if (o.store != null) {
            cmp = (a, b) -> Arrays.compareUnsigned(a.element, b.element);
        } else {
            cmp = (a, b) -> compareCString(a.element, b.element);
        }
        return o.desc ? cmp.reversed() : cmp;
    }

    /** C's strcmp on the bytes up to the first NUL (or the end), unsigned. */
    static int compareCString(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int x = a[i] & 0xff;
            int y = b[i] & 0xff;
            if (x != y) {
                return x - y;
            }
            if (x == 0) {
                return 0;
            }
        }
        int x = a.length > n ? a[n] & 0xff : 0;
        int y = b.length > n ? b[n] & 0xff : 0;
        return x - y;
    }

    /**
     * A weight's numeric value as Redis's SORT reads it with strtod: the text up to the first NUL,
     * after optional blanks, must be a whole number in C syntax that neither overflows nor
     * underflows; the empty string is 0. NaN when it is not.
     */
    static double score(byte[] weight) {
        int end = 0;
        while (end < weight.length && weight[end] != 0) {
            end++;
        }
        if (end == 0) {
            return 0;
        }
        int begin = 0;
        while (begin < end && isCSpace(weight[begin])) {
            begin++;
        }
        if (begin == end) {
            return Double.NaN;
        }
        double d;
        try {
            // The common case (a whole weight, no blanks) takes parseDouble's integer fast path.
            d = begin == 0 && end == weight.length && end <= MAX_FAST_DOUBLE_LENGTH ? Arguments.parseDouble(weight)
                    : Arguments.strtod(latin1(weight, begin, end));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
        if (Double.isNaN(d) || (!Double.isInfinite(d) && Math.abs(d) >= Double.MIN_NORMAL)) {
            return d;
        }
        String text = latin1(weight, begin, end);
        boolean overflow = Double.isInfinite(d) && !text.toLowerCase(Locale.ROOT).contains("inf");
        // glibc's strtod reports ERANGE for a result rounded to 0 or to an inexact subnormal.
        boolean underflow = d == 0 ? nonZeroMantissa(text) : Math.abs(d) < Double.MIN_NORMAL && !exactly(text, d);
        return overflow || underflow ? Double.NaN : d;
    }

    /** Whether the number written {@code text} (decimal or C99 hexadecimal) is exactly {@code d}. */
    private static boolean exactly(String text, double d) {
        String t = text.toLowerCase(Locale.ROOT);
        boolean negative = t.startsWith("-");
        String unsigned = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        BigDecimal value;
        try {
            if (!unsigned.startsWith("0x")) {
                value = new BigDecimal(unsigned);
            } else {
                int p = unsigned.indexOf('p');
                String digits = p < 0 ? unsigned.substring(2) : unsigned.substring(2, p);
                long exponent = p < 0 ? 0 : Long.parseLong(unsigned.substring(p + 1).replace("+", ""));
                int point = digits.indexOf('.');
                if (point >= 0) {
                    exponent -= 4L * (digits.length() - point - 1);
                    digits = digits.replace(".", "");
                }
                if (Math.abs(exponent) > MAX_EXACT_EXPONENT) {
                    return false;
                }
                value = new BigDecimal(new BigInteger(digits, 16));
                BigDecimal two = BigDecimal.valueOf(2);
                value = exponent >= 0 ? value.multiply(two.pow((int) exponent))
                        : value.divide(two.pow((int) -exponent));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            return false;
        }
        return (negative ? value.negate() : value).compareTo(new BigDecimal(d)) == 0;
    }

    private static String latin1(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static boolean isCSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    /** Whether a number's digits before its exponent are not all zero (its value cannot be 0). */
    private static boolean nonZeroMantissa(String text) {
        boolean hex = text.toLowerCase(Locale.ROOT).contains("0x");
        int at = hex ? text.toLowerCase(Locale.ROOT).indexOf("0x") + 2 : 0;
        for (int i = at; i < text.length(); i++) {
            char ch = Character.toLowerCase(text.charAt(i));
            if (hex ? ch == 'p' : ch == 'e') {
                return false;
            }
            if ((ch >= '1' && ch <= '9') || (hex && ch >= 'a' && ch <= 'f')) {
                return true;
            }
        }
        return false;
    }

    private static void reply(Client c, Item[] items, int from, int to, Options o) {
        int n = Math.max(0, to - from + 1);
        c.reply().arrayHeader(o.gets.isEmpty() ? n : n * o.gets.size());
        for (int j = from; j <= to; j++) {
            if (o.gets.isEmpty()) {
                c.reply().bulk(items[j].element);
            }
            for (byte[] pattern : o.gets) {
                c.reply().bulk(lookupByPattern(c, pattern, items[j].element));
            }
        }
    }

    /**
     * SORT … STORE: the result (GET values, "" for missing ones) replaces the destination as a
     * list, dropping its time to live, and publishes {@code sortstore}; an empty result deletes
     * the destination instead ({@code del}). Replies the number of elements stored.
     */
    private static void store(Client c, Item[] items, int from, int to, Options o) {
        int fill = c.server().config().listMaxListpackSize();
        ListValue list = ListValue.quicklist(fill, c.server().config().listCompressDepth());
        for (int j = from; j <= to; j++) {
            if (o.gets.isEmpty()) {
                list.pushTail(items[j].element);
            }
            for (byte[] pattern : o.gets) {
                byte[] v = lookupByPattern(c, pattern, items[j].element);
                list.pushTail(v == null ? new byte[0] : v);
            }
        }
        Database db = c.db();
        long now = c.server().nowMs();
        if (list.size() > 0) {
            list.settleBuilt(fill);
            db.setKey(o.store, list, now);
            Notifications.notify(c, NotifyKeyspaceEvents.LIST, "sortstore", o.store);
            c.server().blockingKeys().signalKeyAsReady(db, o.store);
        } else {
            db.expireIfNeeded(o.store, now);
            if (db.delete(o.store) != null) {
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", o.store);
            }
        }
        c.reply().integer(list.size());
    }

    /** The index of the first {@code *} in a pattern, or -1. */
    private static int star(byte[] pattern) {
        for (int i = 0; i < pattern.length; i++) {
            if (pattern[i] == '*') {
                return i;
            }
        }
        return -1;
    }

    /**
     * What a BY or GET pattern points at for {@code element}: the element for {@code #}; else the
     * string at the key the pattern names with its first {@code *} replaced by the element, or the
     * hash field named after the first {@code ->} that follows the {@code *} (when a name follows
     * it). Null when the pattern has no {@code *}, the key is missing or of another type, or the
     * field is missing. Look-ups count as keyspace hits and misses.
     */
    static byte[] lookupByPattern(Client c, byte[] pattern, byte[] element) {
        if (pattern.length == 1 && pattern[0] == '#') {
            return element;
        }
        int star = star(pattern);
        if (star < 0) {
            return null;
        }
        int arrow = -1;
        for (int i = star + 1; i + 1 < pattern.length; i++) {
            if (pattern[i] == '-' && pattern[i + 1] == '>') {
                arrow = i;
                break;
            }
        }
        if (arrow >= 0 && arrow + 2 == pattern.length) {
            arrow = -1;
        }
        int postfixEnd = arrow >= 0 ? arrow : pattern.length;
        byte[] key = new byte[star + element.length + postfixEnd - star - 1];
        System.arraycopy(pattern, 0, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(pattern, star + 1, key, star + element.length, postfixEnd - star - 1);
        Object v = c.db().lookupRead(key, c.server().nowMs());
        c.server().stats().lookup(v != null);
        Notifications.keyMissIf(v == null, c, key);
        if (arrow >= 0) {
            return v instanceof HashValue hash
                    ? hash.get(Arrays.copyOfRange(pattern, arrow + 2, pattern.length), c.server().nowMs()) : null;
        }
        return Values.stringBytes(v);
    }
}
