package dev.ebb.storage.rdb;

import dev.ebb.storage.types.IntegerText;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The RDB format's primitives written to a stream, with the CRC-64 of everything written kept as
 * it goes: lengths, strings (integer-encoded, LZF-compressed or raw, as Redis's rdbSaveRawString
 * chooses), little-endian millisecond times and binary doubles.
 *
 * <p>Buffered: bytes reach the stream in 64 KB blocks and at {@link #flush()}. Not thread-safe;
 * one instance per file or payload.
 */
final class RdbOutput {
    /** Redis only tries integer encoding for strings this short. */
    private static final int INT_ENCODING_MAX_LENGTH = 11;
    /** Redis does not try to compress strings this short or shorter. */
    private static final int COMPRESSION_MIN_EXCLUSIVE = 20;
    private static final int BUFFER_SIZE = 1 << 16;

    private final OutputStream out;
    private final boolean compression;
    private final byte[] buf = new byte[BUFFER_SIZE];
    private int pos;
    private long crc;
    /** Start of the buffered bytes the CRC has not covered yet. */
    private int crcFrom;
    private long written;
    private Lzf lzf;

    RdbOutput(OutputStream out, boolean compression) {
        this.out = out;
        this.compression = compression;
    }

    void writeByte(int b) throws IOException {
        if (pos == buf.length) {
            drain();
        }
        buf[pos++] = (byte) b;
    }

    void writeBytes(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (pos == buf.length) {
                drain();
            }
            int n = Math.min(len, buf.length - pos);
            System.arraycopy(b, off, buf, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    /** rdbSaveLen of an unsigned 64-bit length: 6-bit, 14-bit big-endian, or a marker byte and a 32/64-bit big-endian length. */
    void writeLength(long len) throws IOException {
        if (len < 0) {
            writeByte(RdbConstants.LEN_64BIT);
            writeBe(len, 8);
        } else if (len < 1 << 6) {
            writeByte((int) len);
        } else if (len < 1 << 14) {
            writeByte((int) (len >> 8) | 0x40);
            writeByte((int) len);
        } else if (len <= 0xFFFFFFFFL) {
            writeByte(RdbConstants.LEN_32BIT);
            writeBe(len, 4);
        } else {
            writeByte(RdbConstants.LEN_64BIT);
            writeBe(len, 8);
        }
    }

    void writeString(byte[] s) throws IOException {
        writeString(s, 0, s.length);
    }

    /**
     * rdbSaveRawString: the canonical text of an integer that fits 32 bits (at most 11 bytes) as
     * that integer in 1, 2 or 4 bytes; else, with compression on and more than 20 bytes, LZF if it
     * saves at least 4 bytes; else the length and the bytes.
     */
    void writeString(byte[] s, int off, int len) throws IOException {
        if (len <= INT_ENCODING_MAX_LENGTH && len > 0 && writeIfInteger(s, off, len)) {
            return;
        }
        if (compression && len > COMPRESSION_MIN_EXCLUSIVE) {
            if (lzf == null) {
                lzf = new Lzf();
            }
            int compressed = lzf.compress(s, off, len);
            if (compressed > 0) {
                writeLzfBlob(lzf.output(), compressed, len);
                return;
            }
        }
        writeLength(len);
        writeBytes(s, off, len);
    }

    /** rdbSaveLzfBlob: the LZF marker, compressed and original lengths, the compressed bytes. */
    void writeLzfBlob(byte[] data, int compressedLength, int originalLength) throws IOException {
        writeByte((RdbConstants.ENCVAL << 6) | RdbConstants.ENC_LZF);
        writeLength(compressedLength);
        writeLength(originalLength);
        writeBytes(data, 0, compressedLength);
    }

    private boolean writeIfInteger(byte[] s, int off, int len) throws IOException {
        byte[] text = off == 0 && len == s.length ? s : java.util.Arrays.copyOfRange(s, off, off + len);
        long v = IntegerText.parse(text);
        if (!IntegerText.isInteger(v, text)) {
            return false;
        }
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            writeByte((RdbConstants.ENCVAL << 6) | RdbConstants.ENC_INT8);
            writeLe(v, 1);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            writeByte((RdbConstants.ENCVAL << 6) | RdbConstants.ENC_INT16);
            writeLe(v, 2);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            writeByte((RdbConstants.ENCVAL << 6) | RdbConstants.ENC_INT32);
            writeLe(v, 4);
        } else {
            return false;
        }
        return true;
    }

    /** An absolute time in milliseconds, int64 little-endian (EXPIRETIME_MS). */
    void writeMillis(long ms) throws IOException {
        writeLe(ms, 8);
    }

    /** rdbSaveBinaryDoubleValue: the IEEE 754 bits, little-endian. */
    void writeBinaryDouble(double d) throws IOException {
        writeLe(Double.doubleToRawLongBits(d), 8);
    }

    void writeLe(long v, int width) throws IOException {
        for (int i = 0; i < width; i++) {
            writeByte((int) (v >>> (8 * i)));
        }
    }

    private void writeBe(long v, int width) throws IOException {
        for (int i = width - 1; i >= 0; i--) {
            writeByte((int) (v >>> (8 * i)));
        }
    }

    /** CRC-64 of every byte written so far. */
    long crc() {
        updateCrc();
        return crc;
    }

    /** Bytes written so far (buffered or not). */
    long written() {
        return written + pos;
    }

    /** Writes the buffered bytes to the stream and flushes it. */
    void flush() throws IOException {
        drain();
        out.flush();
    }

    private void updateCrc() {
        crc = Crc64.update(crc, buf, crcFrom, pos - crcFrom);
        crcFrom = pos;
    }

    private void drain() throws IOException {
        updateCrc();
        out.write(buf, 0, pos);
        written += pos;
        pos = 0;
        crcFrom = 0;
    }
}
