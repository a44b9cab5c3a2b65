package dev.ebb.storage.types;

/**
 * One entry of Redis's listpack format, read and written in place in a {@code byte[]}: the layout
 * the list nodes ({@link ListNode}) keep their elements in, so that a node is byte for byte the
 * listpack Redis 7.2 would hold and writes to an RDB file.
 *
 * <p>An entry is an encoding header with its data, then a back-length (the header-and-data size,
 * 7 bits a byte, most significant group first, every byte but the first flagged 128) that lets a
 * reader step backwards. Strings that are the canonical text of a 64-bit integer are stored as
 * integers, in the smallest of the 7-bit, 13-bit, 16, 24, 32 or 64-bit forms; other strings with a
 * 6-bit, 12-bit or 32-bit length.
 *
 * <p>Every method is O(entry). Stateless helpers; thread-safe.
 */
final class ListpackEntry {
    private ListpackEntry() {
    }

    /** Bytes the entry for {@code e} takes (header, data, back-length). */
    static int size(byte[] e) {
        long v = IntegerText.parse(e);
        int body = IntegerText.isInteger(v, e) ? integerBody(v) : stringBody(e.length);
        return body + backlenWidth(body);
    }

    /** Writes the entry for {@code e} at {@code at}; returns the offset just past it. */
    static int write(byte[] buf, int at, byte[] e) {
        long v = IntegerText.parse(e);
        int start = at;
        if (IntegerText.isInteger(v, e)) {
            at = writeInteger(buf, at, v);
        } else {
            int len = e.length;
            if (len < 64) {
                buf[at++] = (byte) (0x80 | len);
            } else if (len < 4096) {
                buf[at++] = (byte) (0xE0 | (len >> 8));
                buf[at++] = (byte) len;
            } else {
                buf[at++] = (byte) 0xF0;
                at = putLe(buf, at, len, 4);
            }
            System.arraycopy(e, 0, buf, at, len);
            at += len;
        }
        return writeBacklen(buf, at, at - start);
    }

    /** Bytes of the entry at {@code at}, back-length included. */
    static int length(byte[] buf, int at) {
        int body = body(buf, at);
        return body + backlenWidth(body);
    }

    /** The start of the entry that ends just before {@code end}, read from its back-length. */
    static int previous(byte[] buf, int end) {
        int p = end - 1;
        long v = 0;
        int shift = 0;
        int width = 0;
        while (true) {
            int b = buf[p] & 0xFF;
            v |= (long) (b & 0x7F) << shift;
            width++;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
            p--;
        }
        return end - width - (int) v;
    }

    /** The element stored at {@code at}: integers as their decimal text. */
    static byte[] read(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0xC0) == 0x80) {
            return copy(buf, at + 1, b & 0x3F);
        }
        if ((b & 0xF0) == 0xE0) {
            return copy(buf, at + 2, ((b & 0x0F) << 8) | (buf[at + 1] & 0xFF));
        }
        if (b == 0xF0) {
            return copy(buf, at + 5, (int) le(buf, at + 1, 4));
        }
        return IntegerText.bytes(integer(buf, at));
    }

    /**
     * Whether the entry at {@code at} holds {@code e}; {@code eInteger} is {@code e} parsed with
     * {@link IntegerText#parse} (an integer entry can only equal a string that is an integer's
     * canonical text, and such a string is always stored as an integer).
     */
    static boolean matches(byte[] buf, int at, byte[] e, long eInteger) {
        int b = buf[at] & 0xFF;
        int off;
        int len;
        if ((b & 0xC0) == 0x80) {
            off = at + 1;
            len = b & 0x3F;
        } else if ((b & 0xF0) == 0xE0) {
            off = at + 2;
            len = ((b & 0x0F) << 8) | (buf[at + 1] & 0xFF);
        } else if (b == 0xF0) {
            off = at + 5;
            len = (int) le(buf, at + 1, 4);
        } else {
            return IntegerText.isInteger(eInteger, e) && integer(buf, at) == eInteger;
        }
        return len == e.length && java.util.Arrays.equals(buf, off, off + len, e, 0, len);
    }

    /** The raw length Redis counts for the element at {@code at} when it moves it: its text's length. */
    static int textLength(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0xC0) == 0x80) {
            return b & 0x3F;
        }
        if ((b & 0xF0) == 0xE0) {
            return ((b & 0x0F) << 8) | (buf[at + 1] & 0xFF);
        }
        if (b == 0xF0) {
            return (int) le(buf, at + 1, 4);
        }
        return IntegerText.bytes(integer(buf, at)).length;
    }

    private static long integer(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0x80) == 0) {
            return b;
        }
        if ((b & 0xE0) == 0xC0) {
            int u = ((b & 0x1F) << 8) | (buf[at + 1] & 0xFF);
            return u >= 1 << 12 ? u - (1 << 13) : u;
        }
        int width = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
        int shift = 64 - 8 * width;
        return (le(buf, at + 1, width) << shift) >> shift;
    }

    /** Header and data bytes of the entry at {@code at}. */
    private static int body(byte[] buf, int at) {
        int b = buf[at] & 0xFF;
        if ((b & 0x80) == 0) {
            return 1;
        }
        if ((b & 0xC0) == 0x80) {
            return 1 + (b & 0x3F);
        }
        if ((b & 0xE0) == 0xC0) {
            return 2;
        }
        if ((b & 0xF0) == 0xE0) {
            return 2 + (((b & 0x0F) << 8) | (buf[at + 1] & 0xFF));
        }
        return switch (b) {
            case 0xF0 -> 5 + (int) le(buf, at + 1, 4);
            case 0xF1 -> 3;
            case 0xF2 -> 4;
            case 0xF3 -> 5;
            default -> 9;
        };
    }

    private static int integerBody(long v) {
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

    private static int stringBody(int len) {
        return len < 64 ? 1 + len : len < 4096 ? 2 + len : 5 + len;
    }

    private static int backlenWidth(int body) {
        return body <= 127 ? 1 : body < 16383 ? 2 : body < 2097151 ? 3 : body < 268435455 ? 4 : 5;
    }

    private static int writeInteger(byte[] buf, int at, long v) {
        if (v >= 0 && v <= 127) {
            buf[at++] = (byte) v;
        } else if (v >= -4096 && v <= 4095) {
            long u = v < 0 ? (1 << 13) + v : v;
            buf[at++] = (byte) (0xC0 | (u >> 8));
            buf[at++] = (byte) u;
        } else if (v >= -32768 && v <= 32767) {
            buf[at++] = (byte) 0xF1;
            at = putLe(buf, at, v, 2);
        } else if (v >= -8388608 && v <= 8388607) {
            buf[at++] = (byte) 0xF2;
            at = putLe(buf, at, v, 3);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            buf[at++] = (byte) 0xF3;
            at = putLe(buf, at, v, 4);
        } else {
            buf[at++] = (byte) 0xF4;
            at = putLe(buf, at, v, 8);
        }
        return at;
    }

    private static int writeBacklen(byte[] buf, int at, int l) {
        int width = backlenWidth(l);
        for (int i = width - 1; i >= 0; i--) {
            int group = (l >>> (7 * i)) & 0x7F;
            buf[at++] = (byte) (i == width - 1 ? group : group | 0x80);
        }
        return at;
    }

    private static int putLe(byte[] buf, int at, long v, int width) {
        for (int i = 0; i < width; i++) {
            buf[at++] = (byte) (v >>> (8 * i));
        }
        return at;
    }

    private static long le(byte[] buf, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (buf[at + i] & 0xFF);
        }
        return v;
    }

    private static byte[] copy(byte[] buf, int from, int len) {
        byte[] out = new byte[len];
        System.arraycopy(buf, from, out, 0, len);
        return out;
    }
}
