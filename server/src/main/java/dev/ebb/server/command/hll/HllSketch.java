package dev.ebb.server.command.hll;

import static dev.ebb.server.command.hll.Hll.DENSE;
import static dev.ebb.server.command.hll.Hll.DENSE_SIZE;
import static dev.ebb.server.command.hll.Hll.ENCODING_OFFSET;
import static dev.ebb.server.command.hll.Hll.HEADER_SIZE;
import static dev.ebb.server.command.hll.Hll.REGISTERS;
import static dev.ebb.server.command.hll.Hll.SPARSE_VAL_MAX_LEN;
import static dev.ebb.server.command.hll.Hll.SPARSE_VAL_MAX_VALUE;
import static dev.ebb.server.command.hll.Hll.byteAt;
import static dev.ebb.server.command.hll.Hll.isVal;
import static dev.ebb.server.command.hll.Hll.isXzero;
import static dev.ebb.server.command.hll.Hll.isZero;
import static dev.ebb.server.command.hll.Hll.valLength;
import static dev.ebb.server.command.hll.Hll.valOpcode;
import static dev.ebb.server.command.hll.Hll.valValue;

import java.util.Arrays;

/**
 * One command's working copy of an HLL: the register updates of PFADD and PFMERGE and the
 * sparse-to-dense conversion, done exactly as Redis 7.2's hyperloglog.c does them so that the
 * bytes come out identical ({@link Hll} describes the layout).
 *
 * <p><b>Copy on write.</b> A sketch starts over the stored array and copies it (at most
 * {@value Hll#DENSE_SIZE} bytes, plus a little slack for a sparse one) at the first change, so the
 * stored value is never written and a PFADD that changes nothing copies nothing.
 *
 * <p><b>Sparse updates</b> ({@link #set}): walk the opcodes to the one covering the register. A
 * VAL already at least as large needs nothing; a VAL or ZERO of one register is rewritten in
 * place; otherwise the opcode is split into up to three (XZERO-VAL-XZERO at worst, three bytes
 * longer), the tail moved, and up to five opcodes from the previous one scanned to merge equal
 * adjacent VALs. An O(length) walk, which is why the sparse form is capped. It turns dense when a
 * value exceeds 32 or when a split would make it longer than {@code hll-sparse-max-bytes}.
 *
 * <p>Bytes past the end read as 0, as Redis reads the string's terminating zero, so a corrupt or
 * truncated value is refused ({@code -1}) or updated as Redis would, never read out of bounds.
 * One corrupt shape evolves differently: when the last opcode is an XZERO missing its second byte,
 * Redis's split of it leaves a byte past the string's end, which its next update of that opcode
 * reads; Ebb keeps no bytes past the end and reads 0 again. Not thread-safe: one command on the
 * command loop.
 */
public final class HllSketch {
    /** Room a sparse copy keeps past its end: a split grows it by at most 3 and writes up to 4 bytes past it. */
    private static final int SPARSE_SLACK = 8;

    private final long sparseMaxBytes;
    private final byte[] splitSequence = new byte[5];
    private byte[] bytes;
    private int length;
    /** False while {@link #bytes} is the caller's stored array, which must not be written. */
    private boolean owned;

    private HllSketch(byte[] bytes, boolean owned, long sparseMaxBytes) {
        this.bytes = bytes;
        this.length = bytes.length;
        this.owned = owned;
        this.sparseMaxBytes = sparseMaxBytes;
    }

    /** A new, empty HLL (sparse), as PFADD and PFMERGE create one for a missing key. */
    public static HllSketch create(long sparseMaxBytes) {
        return new HllSketch(Hll.newSparse(), true, sparseMaxBytes);
    }

    /** A sketch over {@code stored} (which {@link Hll#isHll} accepted); {@code stored} is never written. */
    public static HllSketch over(byte[] stored, long sparseMaxBytes) {
        return new HllSketch(stored, false, sparseMaxBytes);
    }

    /** Whether the bytes differ from the stored array's (or the HLL is new). */
    public boolean changed() {
        return owned;
    }

    public int encoding() {
        return bytes[ENCODING_OFFSET];
    }

    /** The HLL as an exact-length array: the stored one itself if nothing changed. */
    public byte[] toByteArray() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    /** Marks the cached cardinality as stale (copying first unless it already is). */
    public void invalidateCache() {
        if (Hll.hasValidCache(bytes)) {
            own(0);
            Hll.invalidateCache(bytes);
        }
    }

    /**
     * Adds {@code element}: its hash picks a register and offers it a value. Returns 1 if the
     * register grew, 0 if not, -1 if the sparse encoding is corrupt.
     */
    public int add(byte[] element) {
        long hash = Hll.hash(element);
        return set(Hll.registerIndex(hash), Hll.patternLength(hash));
    }

    /** As {@link #add} for the eight little-endian bytes of {@code word} (PFSELFTEST). */
    int addLong(long word) {
        long hash = Hll.hashLong(word);
        return set(Hll.registerIndex(hash), Hll.patternLength(hash));
    }

    /**
     * Raises register {@code index} to {@code value} if it is lower (Redis's hllDenseSet /
     * hllSparseSet). Returns 1 if it grew, 0 if not, -1 if the sparse encoding is corrupt (the
     * sketch may then already hold earlier changes, as Redis's string would).
     */
    public int set(int index, int value) {
        if (encoding() == DENSE) {
            if (value <= Hll.denseRegister(bytes, index)) {
                return 0;
            }
            own(0);
            Hll.setDenseRegister(bytes, index, value);
            return 1;
        }
        return sparseSet(index, value);
    }

    /**
     * Converts a sparse HLL to dense, keeping the header (magic, cached cardinality, unused bytes).
     * Returns false, leaving the sketch as it was, if the opcodes do not reach exactly the last
     * register (the walk stops at a VAL that would pass it, as {@link Hll#mergeInto}'s does).
     */
    public boolean toDense() {
        if (encoding() == DENSE) {
            return true;
        }
        byte[] dense = new byte[DENSE_SIZE];
        System.arraycopy(bytes, 0, dense, 0, HEADER_SIZE);
        dense[ENCODING_OFFSET] = DENSE;
        int index = 0;
        int p = HEADER_SIZE;
        while (p < length) {
            int op = bytes[p] & 0xff;
            if (isZero(op)) {
                index += Hll.zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                index += Hll.xzeroLength(op, byteAt(bytes, length, p + 1));
                p += 2;
            } else {
                int run = valLength(op);
                if (index + run > REGISTERS) {
                    break;
                }
                int value = valValue(op);
                for (int end = index + run; index < end; index++) {
                    Hll.setDenseRegister(dense, index, value);
                }
                p++;
            }
        }
        if (index != REGISTERS) {
            return false;
        }
        bytes = dense;
        length = DENSE_SIZE;
        owned = true;
        return true;
    }

    private int sparseSet(int index, int value) {
        if (value > SPARSE_VAL_MAX_VALUE) {
            return promote(index, value);
        }
        // Step 1: the opcode covering the register, with the first register it covers.
        int p = HEADER_SIZE;
        int end = length;
        int first = 0;
        int prev = -1;
        int span = 0;
        while (p < end) {
            int op = bytes[p] & 0xff;
            int opLength = 1;
            if (isZero(op)) {
                span = Hll.zeroLength(op);
            } else if (isVal(op)) {
                span = valLength(op);
            } else {
                span = Hll.xzeroLength(op, byteAt(bytes, length, p + 1));
                opLength = 2;
            }
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += opLength;
            first += span;
        }
        if (span == 0 || p >= end) {
            return -1;
        }
        int op = bytes[p] & 0xff;
        boolean xzero = isXzero(op);
        int next = xzero ? p + 2 : p + 1;
        if (next >= end) {
            next = -1;
        }

        // Step 2: the trivial cases, then the split of the opcode into up to three.
        if (isVal(op)) {
            if (valValue(op) >= value) {
                return 0;
            }
            if (valLength(op) == 1) {
                own(SPARSE_SLACK);
                bytes[p] = valOpcode(value, 1);
                return mergeAdjacentValues(prev);
            }
        } else if (isZero(op) && Hll.zeroLength(op) == 1) {
            own(SPARSE_SLACK);
            bytes[p] = valOpcode(value, 1);
            return mergeAdjacentValues(prev);
        }
        byte[] seq = splitSequence;
        int n = 0;
        int last = first + span - 1;
        if (isVal(op)) {
            int current = valValue(op);
            if (index != first) {
                seq[n++] = valOpcode(current, index - first);
            }
            seq[n++] = valOpcode(value, 1);
            if (index != last) {
                seq[n++] = valOpcode(current, last - index);
            }
        } else {
            if (index != first) {
                n = Hll.putZeros(seq, n, index - first);
            }
            seq[n++] = valOpcode(value, 1);
            if (index != last) {
                n = Hll.putZeros(seq, n, last - index);
            }
        }

        // Step 3: put the sequence in the opcode's place, unless that outgrows the sparse limit.
        int delta = n - (xzero ? 2 : 1);
        if (delta > 0 && (long) length + delta > sparseMaxBytes) {
            return promote(index, value);
        }
        own(SPARSE_SLACK);
        if (delta != 0 && next >= 0) {
            System.arraycopy(bytes, next, bytes, next + delta, end - next);
        }
        length += delta;
        System.arraycopy(seq, 0, bytes, p, n);
        return mergeAdjacentValues(prev);
    }

    /**
     * Step 4 of a sparse update: from the opcode before the changed one, up to five opcodes are
     * scanned and two adjacent VALs of the same value merged when their runs fit one (at most 4).
     * Then the cached cardinality is marked stale. Returns 1, the update's result.
     */
    private int mergeAdjacentValues(int prev) {
        int p = prev >= 0 ? prev : HEADER_SIZE;
        int end = length;
        int scan = 5;
        while (p < end && scan-- > 0) {
            int op = bytes[p] & 0xff;
            if (isXzero(op)) {
                p += 2;
                continue;
            } else if (isZero(op)) {
                p++;
                continue;
            }
            if (p + 1 < end && isVal(bytes[p + 1])) {
                int nextOp = bytes[p + 1] & 0xff;
                int run = valLength(op) + valLength(nextOp);
                if (valValue(op) == valValue(nextOp) && run <= SPARSE_VAL_MAX_LEN) {
                    bytes[p + 1] = valOpcode(valValue(op), run);
                    System.arraycopy(bytes, p + 1, bytes, p, end - p - 1);
                    length--;
                    end--;
                    continue;
                }
            }
            p++;
        }
        Hll.invalidateCache(bytes);
        return 1;
    }

    /** Converts to dense and sets the register there: 1, or -1 if the sparse opcodes are corrupt. */
    private int promote(int index, int value) {
        if (!toDense()) {
            return -1;
        }
        Hll.setDenseRegister(bytes, index, value);
        return 1;
    }

    /**
     * Makes {@link #bytes} this sketch's own array with at least {@code slack} bytes past the end,
     * copying the stored one on the first change.
     */
    private void own(int slack) {
        if (!owned || bytes.length < length + slack) {
            bytes = Arrays.copyOf(bytes, Math.max(length + slack, owned ? 2 * length : length));
            owned = true;
        }
    }
}
