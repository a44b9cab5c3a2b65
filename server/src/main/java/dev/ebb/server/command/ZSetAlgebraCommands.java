package dev.ebb.server.command;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import dev.ebb.storage.zset.ZEntryVisitor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * ZUNION, ZINTER, ZDIFF, their STORE forms, and ZINTERCARD: one routine, {@link #algebra}, as
 * Redis's zunionInterDiffGenericCommand. Inputs are read through {@link Input}, so any value with
 * members can take part; a missing key is an empty input.
 *
 * <p>Costs: union O(sum of input sizes) plus O(r log r) to order the r results; inter walks the
 * smallest input and probes the others (O(1) each on the large encoding, O(n) on listpacks of at
 * most 128); diff walks the first input and probes the others. Results are built in a
 * {@link HashMap} keyed by the members' bytes, then stored or replied in score order.
 */
final class ZSetAlgebraCommands {
    private static final int UNION = 0;
    private static final int INTER = 1;
    private static final int DIFF = 2;
    private static final int SUM = 0;
    private static final int MIN = 1;
    private static final int MAX = 2;

    private ZSetAlgebraCommands() {
    }

    /**
     * A sorted set operand: its size, a member's score (NaN if absent) and a walk of its members.
     * A plain set takes part with every score 1, as in Redis; it joins with one adapter in
     * {@link #inputOf}.
     */
    interface Input {
        int size();

        double score(byte[] member);

        void forEach(ZEntryVisitor visitor);
    }

    private record SortedSetInput(SortedSet set) implements Input {
        @Override
        public int size() {
            return set.size();
        }

        @Override
        public double score(byte[] member) {
            return set.score(member);
        }

        @Override
        public void forEach(ZEntryVisitor visitor) {
            set.forEach(visitor);
        }
    }

    /** A plain set as an operand: every member with score 1. O(1) size, membership as the set's encoding. */
    private record SetInput(SetValue set) implements Input {
        @Override
        public int size() {
            return set.size();
        }

        @Override
        public double score(byte[] member) {
            return set.contains(member) ? 1 : Double.NaN;
        }

        @Override
        public void forEach(ZEntryVisitor visitor) {
            set.forEach(member -> visitor.visit(member, 1));
        }
    }

    private static final Input EMPTY = new Input() {
        @Override
        public int size() {
            return 0;
        }

        @Override
        public double score(byte[] member) {
            return Double.NaN;
        }

        @Override
        public void forEach(ZEntryVisitor visitor) {
        }
    };

    /** The operand view of a stored value; null for a value that cannot be an operand. */
    private static Input inputOf(Object value) {
        if (value instanceof SortedSet set) {
            return new SortedSetInput(set);
        }
        if (value instanceof SetValue set) {
            return new SetInput(set);
        }
        return null;
    }

    static void zunion(Client c, byte[][] argv) {
        algebra(c, argv, 1, null, UNION, false, "zunion");
    }

    static void zinter(Client c, byte[][] argv) {
        algebra(c, argv, 1, null, INTER, false, "zinter");
    }

    static void zdiff(Client c, byte[][] argv) {
        algebra(c, argv, 1, null, DIFF, false, "zdiff");
    }

    static void zunionstore(Client c, byte[][] argv) {
        algebra(c, argv, 2, argv[1], UNION, false, "zunionstore");
    }

    static void zinterstore(Client c, byte[][] argv) {
        algebra(c, argv, 2, argv[1], INTER, false, "zinterstore");
    }

    static void zdiffstore(Client c, byte[][] argv) {
        algebra(c, argv, 2, argv[1], DIFF, false, "zdiffstore");
    }

    static void zintercard(Client c, byte[][] argv) {
        algebra(c, argv, 1, null, INTER, true, "zintercard");
    }

    /**
     * The routine behind every command here. As in Redis the keys are looked up (and type
     * checked) before the options are parsed.
     */
    private static void algebra(Client c, byte[][] argv, int numKeysIndex, byte[] destination, int op,
            boolean cardinalityOnly, String name) {
        if (!Arguments.isLongOrReply(c, argv[numKeysIndex])) {
            return;
        }
        long numKeys = Arguments.parseLong(argv[numKeysIndex]);
        if (numKeys < 1) {
            c.reply().error(Errors.atLeastOneInputKey(name));
            return;
        }
        int firstKey = numKeysIndex + 1;
        if (numKeys > argv.length - firstKey) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        int n = (int) numKeys;
        Input[] inputs = new Input[n];
        for (int i = 0; i < n; i++) {
            Object v = c.db().lookupRead(argv[firstKey + i], c.server().nowMs());
            c.server().stats().lookup(v != null);
            if (v == null) {
                inputs[i] = EMPTY;
                continue;
            }
            inputs[i] = inputOf(v);
            if (inputs[i] == null) {
                c.reply().error(Errors.WRONGTYPE);
                return;
            }
        }
        double[] weights = new double[n];
        Arrays.fill(weights, 1);
        int aggregate = SUM;
        boolean withScores = false;
        long limit = 0;
        for (int j = firstKey + n; j < argv.length; j++) {
            int remaining = argv.length - j - 1;
            byte[] a = argv[j];
            boolean weighted = op != DIFF && !cardinalityOnly;
            if (weighted && remaining >= n && Arguments.is(a, "weights")) {
                for (int i = 0; i < n; i++) {
                    weights[i] = ZSetSupport.parseScore(argv[j + 1 + i]);
                    if (Double.isNaN(weights[i])) {
                        c.reply().error(Errors.ZSET_WEIGHT_NOT_FLOAT);
                        return;
                    }
                }
                j += n;
            } else if (weighted && remaining >= 1 && Arguments.is(a, "aggregate")) {
                byte[] kind = argv[++j];
                if (Arguments.is(kind, "sum")) {
                    aggregate = SUM;
                } else if (Arguments.is(kind, "min")) {
                    aggregate = MIN;
                } else if (Arguments.is(kind, "max")) {
                    aggregate = MAX;
                } else {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
            } else if (cardinalityOnly && remaining >= 1 && Arguments.is(a, "limit")) {
                try {
                    limit = Arguments.parseLong(argv[++j]);
                } catch (NumberFormatException e) {
                    limit = -1;
                }
                if (limit < 0) {
                    c.reply().error(Errors.LIMIT_NEGATIVE);
                    return;
                }
            } else if (destination == null && !cardinalityOnly && Arguments.is(a, "withscores")) {
                withScores = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (cardinalityOnly) {
            c.reply().integer(interCard(inputs, limit));
            return;
        }
        Map<ByteBuffer, double[]> result = switch (op) {
            case UNION -> union(inputs, weights, aggregate);
            case INTER -> inter(inputs, weights, aggregate);
            default -> diff(inputs);
        };
        SortedSet set = toSortedSet(c, result);
        if (destination != null) {
            ZSetSupport.storeResult(c, destination, set, name);
            c.reply().integer(set.size());
            return;
        }
        RespWriter w = c.reply();
        boolean scores = withScores;
        ZSetSupport.entriesHeader(w, set.size(), scores);
        set.forEach((m, s) -> ZSetSupport.entry(w, m, s, scores));
    }

    private static double weighted(double score, double weight) {
        double d = score * weight;
        return Double.isNaN(d) ? 0 : d;
    }

    private static double combine(double target, double value, int aggregate) {
        switch (aggregate) {
            case MIN:
                return Math.min(target, value);
            case MAX:
                return Math.max(target, value);
            default:
                double sum = target + value;
                return Double.isNaN(sum) ? 0 : sum;
        }
    }

    private static Map<ByteBuffer, double[]> union(Input[] inputs, double[] weights, int aggregate) {
        Map<ByteBuffer, double[]> acc = new HashMap<>();
        for (int i = 0; i < inputs.length; i++) {
            double weight = weights[i];
            inputs[i].forEach((member, score) -> {
                double value = weighted(score, weight);
                double[] slot = acc.get(ByteBuffer.wrap(member));
                if (slot == null) {
                    acc.put(ByteBuffer.wrap(member), new double[] {value});
                } else {
                    slot[0] = combine(slot[0], value, aggregate);
                }
            });
        }
        return acc;
    }

    private static Input[] bySize(Input[] inputs) {
        Input[] sorted = inputs.clone();
        Arrays.sort(sorted, Comparator.comparingInt(Input::size));
        return sorted;
    }

    private static Map<ByteBuffer, double[]> inter(Input[] inputs, double[] weights, int aggregate) {
        Map<ByteBuffer, double[]> acc = new HashMap<>();
        Integer[] order = new Integer[inputs.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> inputs[i].size()));
        Input smallest = inputs[order[0]];
        if (smallest.size() == 0) {
            return acc;
        }
        smallest.forEach((member, score) -> {
            double value = weighted(score, weights[order[0]]);
            for (int k = 1; k < order.length; k++) {
                double other = inputs[order[k]].score(member);
                if (Double.isNaN(other)) {
                    return;
                }
                value = combine(value, weighted(other, weights[order[k]]), aggregate);
            }
            acc.put(ByteBuffer.wrap(member), new double[] {value});
        });
        return acc;
    }

    private static Map<ByteBuffer, double[]> diff(Input[] inputs) {
        Map<ByteBuffer, double[]> acc = new HashMap<>();
        inputs[0].forEach((member, score) -> {
            for (int k = 1; k < inputs.length; k++) {
                if (!Double.isNaN(inputs[k].score(member))) {
                    return;
                }
            }
            acc.put(ByteBuffer.wrap(member), new double[] {score});
        });
        return acc;
    }

    /** ZINTERCARD: members in every input, stopping at {@code limit} (0: no limit). */
    private static long interCard(Input[] inputs, long limit) {
        Input[] sorted = bySize(inputs);
        if (sorted[0].size() == 0) {
            return 0;
        }
        long[] count = new long[1];
        sorted[0].forEach((member, score) -> {
            if (limit > 0 && count[0] >= limit) {
                return;
            }
            for (int k = 1; k < sorted.length; k++) {
                if (Double.isNaN(sorted[k].score(member))) {
                    return;
                }
            }
            count[0]++;
        });
        return count[0];
    }

    /** The result as a sorted set in the encoding its size and longest member call for. */
    private static SortedSet toSortedSet(Client c, Map<ByteBuffer, double[]> result) {
        long maxLength = 0;
        for (ByteBuffer member : result.keySet()) {
            maxLength = Math.max(maxLength, member.remaining());
        }
        SortedSet set = ZSetSupport.create(c, result.size(), maxLength);
        long maxEntries = ZSetSupport.maxEntries(c);
        long maxValue = ZSetSupport.maxValue(c);
        for (Map.Entry<ByteBuffer, double[]> e : result.entrySet()) {
            set.add(e.getKey().array(), e.getValue()[0], 0, maxEntries, maxValue);
        }
        return set;
    }
}
