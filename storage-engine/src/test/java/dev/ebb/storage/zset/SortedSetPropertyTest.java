package dev.ebb.storage.zset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random operation sequences on a {@link SortedSet} checked step by step against a model: a
 * {@link TreeSet} of (score, member) in Redis order plus a member-to-score map. Runs with the
 * listpack only, the skiplist only, and a threshold that makes sets convert mid-run.
 */
class SortedSetPropertyTest {
    private record Entry(double score, String member) {
    }

    private static int compare(Entry a, Entry b) {
        int c = Double.compare(a.score, b.score);
        if (a.score == b.score) {
            c = 0;
        }
        return c != 0 ? c : Arrays.compareUnsigned(bytes(a.member), bytes(b.member));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private final TreeSet<Entry> order = new TreeSet<>(SortedSetPropertyTest::compare);
    private final Map<String, Double> scores = new HashMap<>();

    @ParameterizedTest
    @ValueSource(longs = {0, 16, 1_000_000})
    void randomOperationsShouldMatchTreeSetModel(long maxListpackEntries) {
        Random random = new Random(maxListpackEntries * 31 + 7);
        SortedSet set = SortedSet.create(0, 0, maxListpackEntries, 64);

        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(100);
            String member = "m" + random.nextInt(300);
            double score = random.nextInt(40) - 20 + (random.nextBoolean() ? 0.5 : 0);
            if (op < 40) {
                int result = set.add(bytes(member), score, 0, maxListpackEntries, 64);
                Double old = scores.get(member);
                assertEquals(old == null ? SortedSet.ADDED : old == score ? SortedSet.UNCHANGED : SortedSet.UPDATED, result);
                put(member, score);
            } else if (op < 50) {
                set.add(bytes(member), score, SortedSet.INCR, maxListpackEntries, 64);
                double expected = scores.getOrDefault(member, 0.0) + score;
                assertEquals(expected, set.addedScore());
                put(member, expected);
            } else if (op < 62) {
                assertEquals(scores.containsKey(member), set.remove(bytes(member)));
                remove(member);
            } else if (op < 72) {
                Double s = scores.get(member);
                long expectedRank = s == null ? -1 : order.headSet(new Entry(s, member)).size();
                assertEquals(expectedRank, set.rank(bytes(member), false));
                assertEquals(s == null ? -1 : order.size() - 1 - expectedRank, set.rank(bytes(member), true));
            } else if (op < 82) {
                checkScoreRange(set, randomRange(random), random.nextBoolean(), random.nextInt(5), random.nextInt(8) - 1);
            } else if (op < 85) {
                ScoreRange range = randomRange(random);
                List<Entry> inRange = modelRange(range);
                assertEquals(inRange.size(), set.removeRangeByScore(range));
                inRange.forEach(e -> remove(e.member));
            } else if (op < 88 && !order.isEmpty()) {
                int a = random.nextInt(order.size());
                int b = a + random.nextInt(order.size() - a);
                List<Entry> all = new ArrayList<>(order);
                assertEquals(b - a + 1, set.removeRangeByRank(a, b));
                all.subList(a, b + 1).forEach(e -> remove(e.member));
            } else if (op < 92) {
                boolean max = random.nextBoolean();
                int count = random.nextInt(4);
                List<Entry> expected = new ArrayList<>(max ? order.descendingSet() : order);
                expected = expected.subList(0, Math.min(count, expected.size()));
                List<Entry> popped = new ArrayList<>();
                set.pop(max, count, (m, s) -> popped.add(new Entry(s, new String(m, StandardCharsets.UTF_8))));
                assertEquals(expected, popped);
                expected.forEach(e -> remove(e.member));
            } else {
                checkRankRange(set, random);
            }
            assertEquals(order.size(), set.size());
        }
        List<Entry> all = new ArrayList<>();
        set.forEach((m, s) -> all.add(new Entry(s, new String(m, StandardCharsets.UTF_8))));
        assertEquals(new ArrayList<>(order), all);
        if (maxListpackEntries == 0) {
            assertEquals("skiplist", set.encoding());
        }
    }

    private void put(String member, double score) {
        Double old = scores.put(member, score);
        if (old != null) {
            order.remove(new Entry(old, member));
        }
        order.add(new Entry(score, member));
    }

    private void remove(String member) {
        Double old = scores.remove(member);
        if (old != null) {
            order.remove(new Entry(old, member));
        }
    }

    private static ScoreRange randomRange(Random random) {
        double min = random.nextInt(44) - 22;
        double max = min + random.nextInt(12) - 2;
        return new ScoreRange(min, random.nextBoolean(), max, random.nextBoolean());
    }

    private List<Entry> modelRange(ScoreRange range) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : order) {
            if (range.contains(e.score)) {
                out.add(e);
            }
        }
        return out;
    }

    private void checkScoreRange(SortedSet set, ScoreRange range, boolean reverse, int offset, int limit) {
        List<Entry> expected = modelRange(range);
        if (reverse) {
            java.util.Collections.reverse(expected);
        }
        expected = expected.subList(Math.min(offset, expected.size()), expected.size());
        if (limit >= 0) {
            expected = expected.subList(0, Math.min(limit, expected.size()));
        }
        List<Entry> actual = new ArrayList<>();
        long n = set.visitScoreRange(range, reverse, offset, limit,
                (m, s) -> actual.add(new Entry(s, new String(m, StandardCharsets.UTF_8))));
        assertEquals(expected, actual);
        assertEquals(expected.size(), n);
        assertEquals(modelRange(range).size(), set.count(range));
    }

    private void checkRankRange(SortedSet set, Random random) {
        if (order.isEmpty()) {
            return;
        }
        int a = random.nextInt(order.size());
        int b = a + random.nextInt(order.size() - a);
        boolean reverse = random.nextBoolean();
        List<Entry> all = new ArrayList<>(reverse ? order.descendingSet() : order);
        List<Entry> actual = new ArrayList<>();
        set.visitRange(a, b, reverse, (m, s) -> actual.add(new Entry(s, new String(m, StandardCharsets.UTF_8))));
        assertEquals(all.subList(a, b + 1), actual);
        assertTrue(actual.size() > 0);
    }
}
