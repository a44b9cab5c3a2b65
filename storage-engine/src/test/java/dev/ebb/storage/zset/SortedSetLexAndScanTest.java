package dev.ebb.storage.zset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lex ranges against a sorted model, ZSCAN's guarantee, conversion and memory accounting. */
class SortedSetLexAndScanTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1_000})
    void lexRangesShouldMatchSortedModelWhenScoresAreEqual(long maxEntries) {
        Random random = new Random(maxEntries + 3);
        SortedSet set = SortedSet.create(0, 0, maxEntries, 64);
        TreeSet<String> model = new TreeSet<>();
        for (int i = 0; i < 400; i++) {
            String m = Integer.toString(random.nextInt(1000), 36);
            set.add(b(m), 0, 0, maxEntries, 64);
            model.add(m);
        }
        String[] bounds = {"-", "+", "[a", "(a", "[5", "(5", "[", "(zz", "[k9", "(0"};
        for (int i = 0; i < 500; i++) {
            String min = bounds[random.nextInt(bounds.length)];
            String max = bounds[random.nextInt(bounds.length)];
            LexRange range = LexRange.parse(b(min), b(max));
            List<String> expected = new ArrayList<>();
            for (String m : model) {
                if (range.contains(b(m))) {
                    expected.add(m);
                }
            }
            if (range.isEmpty()) {
                expected.clear();
            }
            List<String> actual = new ArrayList<>();
            set.visitLexRange(range, false, 0, -1, (m, sc) -> actual.add(s(m)));
            assertEquals(expected, actual, min + " " + max);
            assertEquals(expected.size(), set.lexCount(range));
            List<String> reversed = new ArrayList<>();
            set.visitLexRange(range, true, 1, 3, (m, sc) -> reversed.add(s(m)));
            Collections.reverse(expected);
            assertEquals(expected.subList(Math.min(1, expected.size()), Math.min(4, expected.size())), reversed);
        }
        LexRange some = LexRange.parse(b("[c"), b("(k"));
        long inside = set.lexCount(some);
        assertEquals(inside, set.removeRangeByLex(some));
        assertEquals(0, set.lexCount(some));
    }

    @Test
    void lexParseShouldRejectBoundsWithoutPrefix() {
        assertNull(LexRange.parse(b("a"), b("+")));
        assertNull(LexRange.parse(b("-"), b("")));
        assertNull(LexRange.parse(b("--"), b("+")));
        assertTrue(LexRange.parse(b("+"), b("-")).isEmpty());
    }

    @Test
    void scanShouldReportEveryMemberPresentThroughoutDespiteGrowth() {
        SortedSet set = SortedSet.create(0, 0, 0, 64);
        for (int i = 0; i < 1000; i++) {
            set.add(b("m" + i), i, 0, 0, 64);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int added = 0;
        do {
            cursor = set.scan(cursor, (m, sc) -> seen.add(s(m)));
            for (int k = 0; k < 5 && added < 3000; k++) {
                set.add(b("new" + added++), -1, 0, 0, 64);
            }
        } while (cursor != 0);
        for (int i = 0; i < 1000; i++) {
            assertTrue(seen.contains("m" + i), "m" + i);
        }
    }

    @Test
    void addShouldConvertPastEitherThresholdAndCopyShouldKeepEncoding() {
        SortedSet set = SortedSet.create(1, 1, 4, 8);
        for (int i = 0; i < 4; i++) {
            set.add(b("m" + i), i, 0, 4, 8);
        }
        assertEquals("listpack", set.encoding());
        set.add(b("m4"), 4, 0, 4, 8);
        assertEquals("skiplist", set.encoding());
        assertEquals("skiplist", set.copy().encoding());

        SortedSet other = SortedSet.create(1, 1, 4, 8);
        other.add(b("123456789"), 1, 0, 4, 8);
        assertEquals("skiplist", other.encoding());
        assertEquals(1, other.rank(b("123456789"), false) + 1);
    }

    @Test
    void memoryShouldGrowWithMembersAndReturnWhenRemoved() {
        SortedSet set = SortedSet.create(0, 0, 0, 64);
        long empty = set.memoryBytes();
        for (int i = 0; i < 10_000; i++) {
            set.add(b("member:" + i), i, 0, 0, 64);
        }
        long full = set.memoryBytes();
        assertTrue(full - empty > 10_000 * 60, "at least node + member + dict slot a member: " + (full - empty));
        set.removeRangeByRank(0, set.size() - 1);
        assertEquals(0, set.size());
        assertTrue(set.memoryBytes() < full / 4);
    }

    @Test
    void negativeZeroShouldBecomeZeroInTheListpackOnlyAsInRedis() {
        SortedSet small = SortedSet.create(0, 0, 128, 64);
        SortedSet large = SortedSet.create(0, 0, 0, 64);

        small.add(b("m"), -0.0, 0, 128, 64);
        large.add(b("m"), -0.0, 0, 0, 64);

        assertEquals(0x0L, Double.doubleToRawLongBits(small.score(b("m"))));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(large.score(b("m"))));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(small.addedScore()));
    }

    @Test
    void toSkiplistEncodingShouldKeepMembersScoresAndOrder() {
        SortedSet set = SortedSet.create(0, 0, 128, 64);
        set.add(b("b"), 2, 0, 128, 64);
        set.add(b("a"), 1, 0, 128, 64);
        set.add(b("c"), -0.0, 0, 128, 64);

        set.toSkiplistEncoding();
        set.toSkiplistEncoding();

        assertEquals("skiplist", set.encoding());
        List<String> members = new ArrayList<>();
        set.forEach((m, sc) -> members.add(s(m) + "=" + sc));
        assertEquals(List.of("c=0.0", "a=1.0", "b=2.0"), members);
        assertEquals(2.0, set.score(b("b")));
    }
}
