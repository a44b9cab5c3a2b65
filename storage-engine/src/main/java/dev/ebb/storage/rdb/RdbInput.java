package dev.ebb.storage.rdb;

import dev.ebb.storage.types.IntegerText;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The RDB format's primitives read from a stream, keeping the CRC-64 of every byte consumed:
 * lengths, strings in their four encodings, times, and doubles in both the binary and the old
 * text form.
 *
 * <p>Never trusts a length: a string's array grows as its bytes actually arrive (at most twice the
 * bytes read), so a corrupt length of gigabytes fails with a short read instead of an allocation.
 * Reads ahead of the caller by at most one 64 KB block; {@link #consumed()} says where the RDB
 * data ended (an AOF with an RDB preamble goes on from there). Not thread-safe.
 */
final class RdbInput {
    private static final int BUFFER_SIZE = 1 << 16;
    /** Largest string Ebb stores (a Java array). */
    private static final long MAX_STRING = Integer.MAX_VALUE - 8;
    private static final int GROW_STEP = 1 << 20;

    private final InputStream in;
    private final byte[] buf = new byte[BUFFER_SIZE];
    private int pos;
    private int limit;
    private long base;
    private long crc;
    private int crcFrom;
    private Lzf lzf;

    RdbInput(InputStream in) {
        this.in = in;
    }

    /** A reader over a whole in-memory payload. */
    static RdbInput of(byte[] data, int len) {
        return new RdbInput(new java.io.ByteArrayInputStream(data, 0, len));
    }

    /** Bytes consumed so far: the offset Redis reports in its corruption errors. */
    long consumed() {
        return base + pos;
    }

    int readByte() throws IOException {
        if (pos == limit && !fill()) {
            throw RdbException.shortRead();
        }
        return buf[pos++] & 0xFF;
    }

    void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (pos == limit && !fill()) {
                throw RdbException.shortRead();
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    /** Whether the input has no more bytes. */
    boolean atEnd() throws IOException {
        return pos == limit && !fill();
    }

    long readLe(int width) throws IOException {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v |= (long) readByte() << (8 * i);
        }
        return v;
    }

    private long readBe(int width) throws IOException {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | readByte();
        }
        return v;
    }

    /**
     * A length (rdbLoadLen). A special string encoding here is corrupt data.
     */
    long readLength() throws IOException {
        int first = readByte();
        int kind = first >> 6;
        if (kind == RdbConstants.ENCVAL) {
            throw RdbException.corrupt(consumed(), "Unexpected encoded length " + (first & 0x3F));
        }
        return lengthAfter(first);
    }

    /**
     * A length read as an unsigned 64-bit number (stream IDs and counters, where Redis saves
     * entries-read -1 as all ones): may be negative in Java.
     */
    long readUnsignedLength() throws IOException {
        int first = readByte();
        if (first == RdbConstants.LEN_64BIT) {
            return readBe(8);
        }
        if (first >> 6 == RdbConstants.ENCVAL) {
            throw RdbException.corrupt(consumed(), "Unexpected encoded length " + (first & 0x3F));
        }
        return lengthAfter(first);
    }

    private long lengthAfter(int first) throws IOException {
        switch (first >> 6) {
            case RdbConstants.LEN_6BIT:
                return first & 0x3F;
            case RdbConstants.LEN_14BIT:
                return ((first & 0x3F) << 8) | readByte();
            default:
                if (first == RdbConstants.LEN_32BIT) {
                    return readBe(4);
                }
                if (first == RdbConstants.LEN_64BIT) {
                    long len = readBe(8);
                    if (len < 0) {
                        throw RdbException.corrupt(consumed(), "Unknown length encoding in rdbLoadLen()");
                    }
                    return len;
                }
                throw RdbException.corrupt(consumed(), "Unknown length encoding " + first + " in rdbLoadLen()");
        }
    }

    /** A length that counts elements: refused if it cannot be an int. */
    int readCount() throws IOException {
        long n = readLength();
        if (n > Integer.MAX_VALUE - 8) {
            throw RdbException.corrupt(consumed(), "element count " + n + " too large");
        }
        return (int) n;
    }

    /** A string in any of its encodings (rdbGenericLoadStringObject); integers as their text. */
    byte[] readString() throws IOException {
        int first = readByte();
        if (first >> 6 != RdbConstants.ENCVAL) {
            return readBytes(lengthAfter(first));
        }
        switch (first & 0x3F) {
            case RdbConstants.ENC_INT8:
                return IntegerText.bytes((byte) readByte());
            case RdbConstants.ENC_INT16:
                return IntegerText.bytes((short) readLe(2));
            case RdbConstants.ENC_INT32:
                return IntegerText.bytes((int) readLe(4));
            case RdbConstants.ENC_LZF:
                return readLzf();
            default:
                throw RdbException.corrupt(consumed(), "Unknown RDB string encoding type " + (first & 0x3F));
        }
    }

    private byte[] readLzf() throws IOException {
        long compressed = readLength();
        long original = readLength();
        if (compressed > MAX_STRING || original > MAX_STRING || original == 0) {
            throw RdbException.corrupt(consumed(), "LZF string of " + original + " bytes refused");
        }
        byte[] data = readBytes(compressed);
        if (original > Math.max(GROW_STEP, compressed * 100L)) {
            // LZF expands at most 88 times: a back-reference of 264 bytes takes 3
            throw RdbException.corrupt(consumed(), "LZF string of " + original + " bytes from " + compressed);
        }
        byte[] out = new byte[(int) original];
        if (lzf == null) {
            lzf = new Lzf();
        }
        try {
            lzf.decompress(data, out);
        } catch (RdbException e) {
            throw RdbException.corrupt(consumed(), "Invalid LZF compressed string");
        }
        return out;
    }

    /** {@code len} raw bytes, allocated as they arrive. */
    byte[] readBytes(long len) throws IOException {
        if (len > MAX_STRING) {
            throw RdbException.corrupt(consumed(), "string of " + len + " bytes refused");
        }
        int n = (int) len;
        if (n <= GROW_STEP) {
            byte[] b = new byte[n];
            readFully(b, 0, n);
            return b;
        }
        byte[] b = new byte[GROW_STEP];
        int got = 0;
        while (got < n) {
            if (got == b.length) {
                b = Arrays.copyOf(b, (int) Math.min(n, (long) b.length * 2));
            }
            int chunk = b.length - got;
            readFully(b, got, chunk);
            got += chunk;
        }
        return b;
    }

    double readBinaryDouble() throws IOException {
        return Double.longBitsToDouble(readLe(8));
    }

    /** rdbLoadDoubleValue: a length byte (253 NaN, 254 +inf, 255 -inf) then the text. */
    double readTextDouble() throws IOException {
        int len = readByte();
        switch (len) {
            case 253:
                return Double.NaN;
            case 254:
                return Double.POSITIVE_INFINITY;
            case 255:
                return Double.NEGATIVE_INFINITY;
            default:
                byte[] text = new byte[len];
                readFully(text, 0, len);
                double d = Scores.parse(text);
                if (Double.isNaN(d) && !Scores.isNanText(text)) {
                    throw RdbException.corrupt(consumed(), "invalid double value");
                }
                return d;
        }
    }

    /** CRC-64 of every byte consumed so far. */
    long crc() {
        crc = Crc64.update(crc, buf, crcFrom, pos - crcFrom);
        crcFrom = pos;
        return crc;
    }

    private boolean fill() throws IOException {
        crc();
        base += limit;
        pos = 0;
        limit = 0;
        crcFrom = 0;
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        limit = n;
        return true;
    }
}
