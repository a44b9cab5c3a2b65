package dev.ebb.server.command.hll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Register updates build the bytes redis-server 7.2.4 builds, and never write the stored array. */
class HllSketchTest {
    @Test
    void addsShouldBuildRedisSparseBytes() {
        HllSketch hll = HllFixtures.built(1000, 3000);

        assertEquals(Hll.SPARSE, hll.encoding());
        assertArrayEquals(HllFixtures.load(HllFixtures.SPARSE_1000), hll.toByteArray());
    }

    @Test
    void addsShouldTurnDenseAtTheSparseLimitAndBuildRedisDenseBytes() {
        HllSketch hll = HllFixtures.built(20000, 3000);

        assertEquals(Hll.DENSE, hll.encoding());
        assertArrayEquals(HllFixtures.load(HllFixtures.DENSE_20000), hll.toByteArray());
    }

    @Test
    void addsOverRedisBytesShouldContinueAsRedisDid() {
        byte[] stored = HllFixtures.load(HllFixtures.SPARSE_1000);
        HllSketch hll = HllSketch.over(stored, 3000);

        for (int i = 1000; i < 20000; i++) {
            hll.add(HllFixtures.element(i));
        }

        assertArrayEquals(HllFixtures.load(HllFixtures.DENSE_20000), hll.toByteArray());
    }

    @Test
    void aSketchShouldNeverWriteTheStoredArray() {
        byte[] stored = HllFixtures.load(HllFixtures.SPARSE_1000);
        byte[] before = stored.clone();
        HllSketch hll = HllSketch.over(stored, 3000);

        hll.add(HllFixtures.element(7));
        assertFalse(hll.changed());
        assertSame(stored, hll.toByteArray());
        for (int i = 1000; i < 1100; i++) {
            hll.add(HllFixtures.element(i));
        }

        assertTrue(hll.changed());
        assertNotSame(stored, hll.toByteArray());
        assertArrayEquals(before, stored);
    }

    @Test
    void aDenseSketchShouldCopyOnlyWhenARegisterGrows() {
        byte[] stored = HllFixtures.load(HllFixtures.DENSE_20000);
        byte[] before = stored.clone();
        HllSketch hll = HllSketch.over(stored, 3000);

        assertEquals(0, hll.add(HllFixtures.element(3)));
        assertSame(stored, hll.toByteArray());
        assertEquals(0, hll.set(0, 1));
        assertEquals(1, hll.set(0, 63));

        assertEquals(63, Hll.denseRegister(hll.toByteArray(), 0));
        assertArrayEquals(before, stored);
    }

    @Test
    void aSplitThatWouldPassTheSparseLimitShouldTurnTheHllDense() {
        HllSketch hll = HllSketch.create(22);

        assertEquals(1, hll.set(100, 3));
        assertEquals(Hll.SPARSE, hll.encoding());
        assertEquals("Z:100 v:3,1 Z:16283", Hll.decodeSparse(hll.toByteArray()));
        assertEquals(21, hll.toByteArray().length);
        assertEquals(1, hll.set(101, 3));
        assertEquals("Z:100 v:3,2 Z:16282", Hll.decodeSparse(hll.toByteArray()));
        assertEquals(1, hll.set(5000, 2));

        assertEquals(Hll.DENSE, hll.encoding());
        assertEquals(3, Hll.denseRegister(hll.toByteArray(), 101));
        assertEquals(2, Hll.denseRegister(hll.toByteArray(), 5000));
    }

    @Test
    void aValueAbove32ShouldTurnTheHllDenseAndKeepTheHeader() {
        HllSketch hll = HllSketch.create(3000);
        hll.set(9, 4);
        byte[] sparse = hll.toByteArray();

        assertEquals(1, hll.set(10, 33));

        byte[] dense = hll.toByteArray();
        assertEquals(Hll.DENSE_SIZE, dense.length);
        assertArrayEquals(Arrays.copyOfRange(sparse, 5, 16), Arrays.copyOfRange(dense, 5, 16));
        assertEquals(4, Hll.denseRegister(dense, 9));
        assertEquals(33, Hll.denseRegister(dense, 10));
    }

    @Test
    void sparseAndDenseSketchesShouldHoldTheSameRegisters() {
        HllSketch sparse = HllSketch.create(Long.MAX_VALUE);
        HllSketch dense = HllSketch.create(0);
        dense.toDense();
        SplittableRandom random = new SplittableRandom(3);

        for (int i = 0; i < 5000; i++) {
            int index = random.nextInt(Hll.REGISTERS);
            int value = 1 + random.nextInt(32);
            assertEquals(dense.set(index, value), sparse.set(index, value));
        }

        assertEquals(Hll.SPARSE, sparse.encoding());
        assertTrue(sparse.toDense());
        assertArrayEquals(Hll.registers(dense.toByteArray()), Hll.registers(sparse.toByteArray()));
    }

    @Test
    void aCorruptSparseBodyShouldBeRefusedWithoutReadingPastIt() {
        byte[] truncated = Hll.newSparse();
        truncated[Hll.HEADER_SIZE] = 0x40; // XZERO of 1 register only
        truncated[Hll.HEADER_SIZE + 1] = 0;
        // XZERO missing its second byte: read as 0, as Redis reads the string's terminator (16129 registers)
        byte[] dangling = Arrays.copyOf(Hll.newSparse(), Hll.HEADER_SIZE + 1);

        assertEquals(-1, HllSketch.over(truncated, 3000).set(5, 1));
        assertEquals(-1, HllSketch.over(truncated, 3000).set(5, 40));
        assertFalse(HllSketch.over(truncated, 3000).toDense());
        assertEquals(-1, HllSketch.over(Arrays.copyOf(truncated, Hll.HEADER_SIZE), 3000).set(0, 1));
        assertFalse(HllSketch.over(dangling, 3000).toDense());
        assertEquals(1, HllSketch.over(dangling, 3000).set(5, 1));
    }

    /**
     * Truncated, extended and byte-flipped sparse values: merging and converting to dense agree on
     * whether the opcodes cover the registers, counting is as strict or stricter, and nothing reads
     * or writes out of bounds or changes the value given.
     */
    @Test
    void corruptSparseValuesShouldBeRefusedOrUpdatedNeverThrow() {
        byte[] valid = HllFixtures.load(HllFixtures.SPARSE_1000);
        SplittableRandom random = new SplittableRandom(42);

        for (int round = 0; round < 3000; round++) {
            byte[] s;
            int kind = round % 3;
            if (kind == 0) {
                s = Arrays.copyOf(valid, Hll.HEADER_SIZE + random.nextInt(valid.length - Hll.HEADER_SIZE));
            } else if (kind == 1) {
                s = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(4));
                for (int i = valid.length; i < s.length; i++) {
                    s[i] = (byte) random.nextInt(256);
                }
            } else {
                s = valid.clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    s[Hll.HEADER_SIZE + random.nextInt(valid.length - Hll.HEADER_SIZE)] = (byte) random.nextInt(256);
                }
            }
            byte[] before = s.clone();

            boolean merges = Hll.mergeInto(new byte[Hll.REGISTERS], s);
            assertEquals(merges, HllSketch.over(s, 3000).toDense(), "round " + round);
            if (HllEstimator.count(s) >= 0) {
                assertTrue(merges, "round " + round);
            }
            HllSketch hll = HllSketch.over(s, 3000);
            for (int i = 0; i < 50; i++) {
                if (hll.add(HllFixtures.element(5000 + round * 50 + i)) < 0) {
                    break;
                }
            }
            assertTrue(hll.toByteArray().length >= Hll.HEADER_SIZE);
            assertArrayEquals(before, s);
        }
    }

    @Test
    void invalidateCacheShouldCopyOnlyWhenTheCacheWasValid() {
        byte[] stale = HllFixtures.load(HllFixtures.SPARSE_1000);
        HllSketch hll = HllSketch.over(stale, 3000);

        hll.invalidateCache();
        assertSame(stale, hll.toByteArray());

        byte[] fresh = Hll.newSparse();
        HllSketch other = HllSketch.over(fresh, 3000);
        other.invalidateCache();
        assertFalse(Hll.hasValidCache(other.toByteArray()));
        assertTrue(Hll.hasValidCache(fresh));
    }

    @Test
    void selfTestShouldPass() {
        assertEquals(null, HllSelfTest.run(3000, new SplittableRandom(1)));
    }
}
