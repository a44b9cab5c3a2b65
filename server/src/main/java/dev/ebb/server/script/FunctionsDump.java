package dev.ebb.server.script;

import com.ning.compress.lzf.LZFException;
import com.ning.compress.lzf.impl.VanillaChunkDecoder;
import dev.ebb.storage.rdb.Crc64;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * FUNCTION DUMP's payload, byte for byte as Redis 7.2 writes it, and its reader for FUNCTION
 * RESTORE:
 *
 * <pre>
 *   ( 0xF5 (RDB_OPCODE_FUNCTION2)  library-code as an RDB string )*
 *   RDB version, 2 bytes little-endian (11)
 *   CRC-64 (Jones) of everything before it, 8 bytes little-endian
 * </pre>
 *
 * An RDB string is a length (RDB length encoding: 6 bits, 14 bits, or a 32/64-bit big-endian
 * length after 0x80/0x81) and that many bytes, or an encoded string (first byte 0xC0-0xC3): an
 * 8/16/32-bit little-endian integer written as its decimal text, or LZF-compressed bytes
 * (compressed length, original length, data). Redis compresses library code longer than 20 bytes
 * when {@code rdbcompression} is on, so the reader inflates LZF; the writer writes plain
 * strings, which every Redis reads. Only this string encoding is here: the RDB file codec is
 * {@code dev.ebb.storage.rdb}'s.
 */
final class FunctionsDump {
    static final int OPCODE_FUNCTION2 = 245;
    /** Redis 7.0's pre-release function opcode, which Redis refuses. */
    static final int OPCODE_FUNCTION_PRE_GA = 246;
    static final int RDB_VERSION = 11;
    private static final int ENCODED = 3;
    private static final int ENC_INT8 = 0;
    private static final int ENC_INT16 = 1;
    private static final int ENC_INT32 = 2;
    private static final int ENC_LZF = 3;

    private FunctionsDump() {
    }

    /** The payload holding every library's code. */
    static byte[] write(Collection<FunctionLibrary> libraries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (FunctionLibrary library : libraries) {
            out.write(OPCODE_FUNCTION2);
            writeLength(out, library.code().length);
            out.writeBytes(library.code());
        }
        out.write(RDB_VERSION & 0xff);
        out.write(RDB_VERSION >>> 8);
        byte[] body = out.toByteArray();
        long crc = Crc64.of(body);
        for (int i = 0; i < 8; i++) {
            out.write((int) (crc >>> (8 * i)) & 0xff);
        }
        return out.toByteArray();
    }

    private static void writeLength(ByteArrayOutputStream out, long len) {
        if (len < (1 << 6)) {
            out.write((int) len);
        } else if (len < (1 << 14)) {
            out.write((int) (0x40 | (len >>> 8)));
            out.write((int) (len & 0xff));
        } else if (len <= 0xffffffffL) {
            out.write(0x80);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (len >>> shift) & 0xff);
            }
        } else {
            out.write(0x81);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (len >>> shift) & 0xff);
            }
        }
    }

    /** Whether the footer holds a version this server reads and a CRC-64 that matches (Redis's verifyDumpPayload). */
    static boolean verify(byte[] payload) {
        if (payload.length < 10) {
            return false;
        }
        int footer = payload.length - 10;
        int version = (payload[footer] & 0xff) | (payload[footer + 1] & 0xff) << 8;
        if (version > RDB_VERSION) {
            return false;
        }
        long crc = Crc64.update(0, payload, 0, payload.length - 8);
        for (int i = 0; i < 8; i++) {
            if ((byte) (crc >>> (8 * i)) != payload[footer + 2 + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The library codes in a payload {@link #verify} accepted.
     *
     * @throws FunctionException with Redis's text for a payload that holds something else
     */
    static List<byte[]> read(byte[] payload) {
        Reader in = new Reader(payload, payload.length - 10);
        List<byte[]> codes = new ArrayList<>();
        while (in.pos < in.end) {
            int type = in.pos < payload.length ? payload[in.pos++] & 0xff : -1;
            if (type == OPCODE_FUNCTION_PRE_GA) {
                throw new FunctionException("Pre-GA function format not supported");
            }
            if (type != OPCODE_FUNCTION2) {
                throw new FunctionException("given type is not a function");
            }
            byte[] code = in.string();
            if (code == null) {
                throw new FunctionException("Failed loading library payload");
            }
            codes.add(code);
        }
        return codes;
    }

    /** A cursor over the payload's records, which must not read past {@code limit} (the footer is not theirs). */
    private static final class Reader {
        private final byte[] b;
        private final int end;
        private int pos;

        Reader(byte[] b, int end) {
            this.b = b;
            this.end = end;
        }

        /** An RDB string, or null if it is malformed or runs past the records. */
        byte[] string() {
            if (pos >= end) {
                return null;
            }
            int first = b[pos] & 0xff;
            if (first >> 6 == ENCODED) {
                pos++;
                switch (first & 0x3f) {
                    case ENC_INT8: return integer(1);
                    case ENC_INT16: return integer(2);
                    case ENC_INT32: return integer(4);
                    case ENC_LZF: return lzf();
                    default: return null;
                }
            }
            long len = length();
            if (len < 0 || len > end - pos) {
                return null;
            }
            byte[] s = java.util.Arrays.copyOfRange(b, pos, pos + (int) len);
            pos += (int) len;
            return s;
        }

        private byte[] integer(int bytes) {
            if (end - pos < bytes) {
                return null;
            }
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v |= (long) (b[pos + i] & 0xff) << (8 * i);
            }
            pos += bytes;
            long signed = bytes == 1 ? (byte) v : bytes == 2 ? (short) v : (int) v;
            return Long.toString(signed).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }

        private byte[] lzf() {
            long compressed = length();
            long original = length();
            if (compressed <= 0 || original < 0 || compressed > end - pos || original > Integer.MAX_VALUE - 8) {
                return null;
            }
            byte[] out = new byte[(int) original];
            try {
                new VanillaChunkDecoder().decodeChunk(b, pos, out, 0, out.length);
            } catch (LZFException | ArrayIndexOutOfBoundsException e) {
                return null;
            }
            pos += (int) compressed;
            return out;
        }

        /** An RDB length, or -1 if it is malformed or runs past the records. */
        private long length() {
            if (pos >= end) {
                return -1;
            }
            int first = b[pos++] & 0xff;
            switch (first >> 6) {
                case 0:
                    return first & 0x3f;
                case 1:
                    return pos < end ? ((first & 0x3f) << 8) | (b[pos++] & 0xff) : -1;
                case 2:
                    int bytes = first == 0x80 ? 4 : first == 0x81 ? 8 : -1;
                    if (bytes < 0 || end - pos < bytes) {
                        return -1;
                    }
                    long len = 0;
                    for (int i = 0; i < bytes; i++) {
                        len = (len << 8) | (b[pos++] & 0xff);
                    }
                    return len < 0 ? -1 : len;
                default:
                    return -1;
            }
        }
    }
}
