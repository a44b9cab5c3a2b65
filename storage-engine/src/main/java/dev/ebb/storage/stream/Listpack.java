package dev.ebb.storage.stream;

import java.nio.charset.StandardCharsets;

/**
 * Redis's listpack element encoding, over a plain {@code byte[]}: the layout stream nodes use, so
 * a node's bytes are those Redis keeps in its radix tree (and writes into an RDB file).
 *
 * <p>A listpack is a 6-byte header (total bytes, 32-bit little endian; element count, 16-bit,
 * 65535 once it no longer fits), elements, and a 0xFF terminator. Each element is an encoding
 * byte (and length), its data, and a "backlen" of 1 to 5 bytes holding the size of the two, read
 * right to left, which lets a reader walk backwards. Integers take 1 (0..127), 2 (13-bit), 3, 4,
 * 5 or 9 bytes; strings a 1, 2 or 5 byte header. A string that is a canonical 64-bit integer is
 * stored as an integer, as Redis's lpAppend does.
 *
 * <p>Stateless; the methods read or write at an offset the caller owns.
 */
final class Listpack {
    static final int HEADER_BYTES = 6;
    static final int EOF = 0xFF;

    private Listpack() {
    }

    /** Bytes (encoding, data, backlen) an integer element takes. */
    static int intSize(long v) {
        int enc = intEncodingSize(v);
        return enc + backlenSize(enc);
    }

    private static int intEncodingSize(long v) {
        if (v >= 0 && v <= 127) {
            return 1;
        } else if (v >= -4096 && v <= 4095) {
            return 2;
        } else if (v >= -32768 && v <= 32767) {
            return 3;
        } else if (v >= -8388608 && v <= 8388607) {
            return 4;
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return 5;
        }
        return 9;
    }

    /** Bytes a string element takes (as an integer if it reads as one). */
    static int stringSize(byte[] s) {
        long[] out = SCRATCH.get();
        if (toLong(s, out)) {
            return intSize(out[0]);
        }
        int enc = s.length < 64 ? 1 + s.length : s.length < 4096 ? 2 + s.length : 5 + s.length;
        return enc + backlenSize(enc);
    }

    private static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[1]);

    /** Writes an integer element at {@code at}; returns the offset after it. */
    static int writeInt(byte[] buf, int at, long v) {
        int start = at;
        int enc = intEncodingSize(v);
        switch (enc) {
            case 1 -> buf[at++] = (byte) v;
            case 2 -> {
                long u = v < 0 ? (1 << 13) + v : v;
                buf[at++] = (byte) (0xC0 | (u >> 8));
                buf[at++] = (byte) u;
            }
            case 3 -> {
                buf[at++] = (byte) 0xF1;
                at = writeLe(buf, at, v, 2);
            }
            case 4 -> {
                buf[at++] = (byte) 0xF2;
                at = writeLe(buf, at, v, 3);
            }
            case 5 -> {
                buf[at++] = (byte) 0xF3;
                at = writeLe(buf, at, v, 4);
            }
            default -> {
                buf[at++] = (byte) 0xF4;
                at = writeLe(buf, at, v, 8);
            }
        }
        return writeBacklen(buf, at, at - start);
    }

    /** Writes a string element (an integer one if it reads as an integer); returns the offset after it. */
    static int writeString(byte[] buf, int at, byte[] s) {
        long[] out = SCRATCH.get();
        if (toLong(s, out)) {
            return writeInt(buf, at, out[0]);
        }
        int start = at;
        int len = s.length;
        if (len < 64) {
            buf[at++] = (byte) (0x80 | len);
        } else if (len < 4096) {
            buf[at++] = (byte) (0xE0 | (len >> 8));
            buf[at++] = (byte) len;
        } else {
            buf[at++] = (byte) 0xF0;
            at = writeLe(buf, at, len, 4);
        }
        System.arraycopy(s, 0, buf, at, len);
        at += len;
        return writeBacklen(buf, at, at - start);
    }

    private static int writeLe(byte[] buf, int at, long v, int n) {
        for (int i = 0; i < n; i++) {
            buf[at++] = (byte) (v >>> (8 * i));
        }
        return at;
    }

    private static int backlenSize(int l) {
        if (l <= 127) {
            return 1;
        } else if (l < 16383) {
            return 2;
        } else if (l < 2097151) {
            return 3;
        } else if (l < 268435455) {
            return 4;
        }
        return 5;
    }

    private static int writeBacklen(byte[] buf, int at, int l) {
        int n = backlenSize(l);
        for (int i = 0; i < n; i++) {
            int shift = 7 * (n - 1 - i);
            int b = (l >>> shift) & 127;
            buf[at++] = (byte) (i == 0 ? b : b | 128);
        }
        return at;
    }

    /** Whether the element at {@code at} is an integer. */
    static boolean isInt(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        return (b & 0x80) == 0 || (b & 0xE0) == 0xC0 || (b >= 0xF1 && b <= 0xF4);
    }

    /** The integer element at {@code at}. */
    static long readInt(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0x80) == 0) {
            return b;
        }
        if ((b & 0xE0) == 0xC0) {
            long u = ((b & 0x1F) << 8) | (buf[at + 1] & 0xFF);
            return u >= 4096 ? u - 8192 : u;
        }
        return switch (b) {
            case 0xF1 -> (short) readLe(buf, at + 1, 2);
            case 0xF2 -> (readLe(buf, at + 1, 3) << 40) >> 40;
            case 0xF3 -> (int) readLe(buf, at + 1, 4);
            case 0xF4 -> readLe(buf, at + 1, 8);
            default -> throw new IllegalStateException("not an integer element: encoding=" + b);
        };
    }

    private static long readLe(byte[] buf, int at, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) (buf[at + i] & 0xFF) << (8 * i);
        }
        return v;
    }

    /** The element at {@code at} as bytes (an integer as its decimal text). */
    static byte[] readBytes(byte[] buf, int at) {
        if (isInt(buf, at)) {
            return Long.toString(readInt(buf, at)).getBytes(StandardCharsets.US_ASCII);
        }
        int b = buf[at] & 0xFF;
        int len;
        int data;
        if ((b & 0xC0) == 0x80) {
            len = b & 0x3F;
            data = at + 1;
        } else if ((b & 0xF0) == 0xE0) {
            len = ((b & 0x0F) << 8) | (buf[at + 1] & 0xFF);
            data = at + 2;
        } else {
            len = (int) readLe(buf, at + 1, 4);
            data = at + 5;
        }
        byte[] out = new byte[len];
        System.arraycopy(buf, data, out, 0, len);
        return out;
    }

    /** Where the bytes of the string element at {@code at} begin. */
    static int stringData(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        return (b & 0xC0) == 0x80 ? at + 1 : (b & 0xF0) == 0xE0 ? at + 2 : at + 5;
    }

    /** The length of the string element at {@code at}. */
    static int stringLength(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0xC0) == 0x80) {
            return b & 0x3F;
        }
        if ((b & 0xF0) == 0xE0) {
            return ((b & 0x0F) << 8) | (buf[at + 1] & 0xFF);
        }
        return (int) readLe(buf, at + 1, 4);
    }

    /** The offset of the element after the one at {@code at}. */
    static int next(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        int enc;
        if ((b & 0x80) == 0) {
            enc = 1;
        } else if ((b & 0xC0) == 0x80) {
            enc = 1 + (b & 0x3F);
        } else if ((b & 0xE0) == 0xC0) {
            enc = 2;
        } else if ((b & 0xF0) == 0xE0) {
            enc = 2 + (((b & 0x0F) << 8) | (buf[at + 1] & 0xFF));
        } else {
            enc = switch (b) {
                case 0xF0 -> 5 + (int) readLe(buf, at + 1, 4);
                case 0xF1 -> 3;
                case 0xF2 -> 4;
                case 0xF3 -> 5;
                case 0xF4 -> 9;
                default -> throw new IllegalStateException("bad listpack encoding byte: " + b + " at " + at);
            };
        }
        return at + enc + backlenSize(enc);
    }

    /** Writes the header: total bytes and element count (65535 when unknown). */
    static void writeHeader(byte[] buf, int totalBytes, int count) {
        writeLe(buf, 0, totalBytes, 4);
        writeLe(buf, 4, Math.min(count, 65535), 2);
    }

    /**
     * Redis's lpStringToInt64: a canonical integer (no '+', no leading zero, not "-0", at most 20
     * characters, within 64 bits) into {@code out[0]}.
     */
    static boolean toLong(byte[] s, long[] out) {
        int n = s.length;
        if (n == 0 || n > 20) {
            return false;
        }
        if (n == 1 && s[0] == '0') {
            out[0] = 0;
            return true;
        }
        int i = 0;
        boolean negative = false;
        if (s[0] == '-') {
            negative = true;
            i = 1;
            if (n == 1) {
                return false;
            }
        }
        if (s[i] < '1' || s[i] > '9') {
            return false;
        }
        long v = 0;
        for (; i < n; i++) {
            int d = s[i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            // accumulate negatively so Long.MIN_VALUE fits
            if (v < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        out[0] = v;
        return true;
    }
}
