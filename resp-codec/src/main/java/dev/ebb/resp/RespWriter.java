package dev.ebb.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * Encodes one client's replies, RESP2 or RESP3, into a chain of reply blocks.
 *
 * <p>The command loop appends replies; once per drain batch the server {@link #take()}s the bytes
 * and writes them to the channel, and the next reply starts afresh. Replies are encoded into the
 * current block, which starts at {@value #INITIAL_CAPACITY} bytes and grows by doubling up to
 * {@value #BLOCK_SIZE}; past that the block is sealed and the next reply goes into a new one, so no
 * reply ever re-allocates or copies what was encoded before it (as Redis's reply list of 16 KB
 * nodes). A reply larger than a block gets an unpooled buffer of its own, sized once. A large bulk value the
 * caller promises never to change ({@link #bulkRef}: stored string values, whose bytes are
 * immutable once stored) is not copied at all: the chain holds a read-only view of the caller's
 * array, so three hundred replies of the same 1 MB value cost three hundred small views, not
 * 300 MB. {@link #pendingBytes()} counts every byte of the chain, referenced ones included: it is
 * what the client's output buffer limits are checked against.
 *
 * <p>Each method makes room for its whole reply once, then writes; numbers are written digit by
 * digit and strings encoded straight into the block, so a reply allocates nothing beyond the
 * blocks. Frequent replies (OK, PONG, QUEUED, empty array, nulls, 0/1 and small integers, short
 * headers) are encoded once in shared constants.
 *
 * <p>Strings are encoded as UTF-8. Simple strings and errors must be one line: CR and LF in them are
 * turned into spaces, as Redis does for errors.
 *
 * <p>Thread safety: none; one instance per client, used only by the command loop thread. The buffer
 * handed out by {@link #take()} belongs to the caller, who must write or release it.
 */
public final class RespWriter {
    static final int INITIAL_CAPACITY = 256;
    /** The largest a reply block grows to before the next reply starts a new one (Redis's PROTO_REPLY_CHUNK_BYTES). */
    static final int BLOCK_SIZE = 16 * 1024;
    /** Bulk values at least this long are referenced by {@link #bulkRef}, not copied. */
    static final int REFERENCE_MIN = 4 * 1024;
    /** Integers from -1 to this (exclusive) have their {@code :n} reply encoded once. */
    static final int SHARED_INTEGERS = 1024;
    /** Array and bulk headers below this length are encoded once, like Redis's shared headers. */
    static final int SHARED_HEADERS = 32;

    private long errors;
    private ErrorObserver errorObserver;
    private static final byte[] CRLF = ascii("\r\n");
    private static final byte[] OK = ascii("+OK\r\n");
    private static final byte[] PONG = ascii("+PONG\r\n");
    private static final byte[] QUEUED = ascii("+QUEUED\r\n");
    private static final byte[] EMPTY_ARRAY = ascii("*0\r\n");
    private static final byte[] NULL_BULK_RESP2 = ascii("$-1\r\n");
    private static final byte[] NULL_ARRAY_RESP2 = ascii("*-1\r\n");
    private static final byte[] NULL_RESP3 = ascii("_\r\n");
    private static final byte[] TRUE_RESP3 = ascii("#t\r\n");
    private static final byte[] FALSE_RESP3 = ascii("#f\r\n");
    private static final byte[] VERBATIM_TEXT_FORMAT = ascii("txt:");
    private static final byte[][] INTEGER_REPLIES = new byte[SHARED_INTEGERS + 1][];
    private static final byte[][] ARRAY_HEADERS = sharedHeaders('*');
    private static final byte[][] BULK_HEADERS = sharedHeaders('$');

    static {
        for (int i = -1; i < SHARED_INTEGERS; i++) {
            INTEGER_REPLIES[i + 1] = ascii(":" + i + "\r\n");
        }
    }

    private final ByteBufAllocator alloc;
    private final byte[] doubleScratch = new byte[RespDoubles.SCRATCH_LENGTH];
    /** The block replies are being encoded into; null until the first reply after {@link #take()}. */
    private ByteBuf current;
    /** Blocks sealed before {@link #current}, in order; created on first use, then kept. */
    private ArrayDeque<ByteBuf> sealed;
    /** Bytes in {@link #sealed}. */
    private long sealedBytes;
    private int protocol = 2;

    public RespWriter(ByteBufAllocator alloc) {
        if (alloc == null) {
            throw new IllegalArgumentException("alloc must not be null");
        }
        this.alloc = alloc;
    }

    /** The protocol version replies are encoded for: 2 (the default) or 3, as set by HELLO. */
    public int protocol() {
        return protocol;
    }

    public void protocol(int version) {
        if (version != 2 && version != 3) {
            throw new IllegalArgumentException("protocol must be 2 or 3: version=" + version);
        }
        protocol = version;
    }

    public boolean hasPending() {
        return sealedBytes > 0 || (current != null && current.isReadable());
    }

    /** Bytes encoded (or referenced) and not yet {@link #take()}n. */
    public long pendingBytes() {
        return sealedBytes + (current == null ? 0 : current.readableBytes());
    }

    /** Bytes in the block being filled: CLIENT LIST's {@code obl}. */
    public int currentBlockBytes() {
        return current == null ? 0 : current.readableBytes();
    }

    /** Blocks sealed before the current one: CLIENT LIST's {@code oll}. */
    public int sealedBlocks() {
        return sealed == null ? 0 : sealed.size();
    }

    /**
     * Hands over everything encoded since the last call, or null if nothing was; the caller owns the
     * returned buffer (writes it to the channel, which releases it). Several blocks come as one
     * composite buffer over them, without copying. The next reply starts a new block.
     */
    public ByteBuf take() {
        if (sealedBytes == 0) {
            return takeCurrent();
        }
        seal();
        if (sealed.size() == 1) {
            sealedBytes = 0;
            return sealed.poll();
        }
        ArrayList<ByteBuf> blocks = new ArrayList<>(sealed);
        sealed.clear();
        sealedBytes = 0;
        return alloc.compositeDirectBuffer(Integer.MAX_VALUE).addComponents(true, blocks);
    }

    /**
     * Hands over the oldest pending output, at most {@code maxBytes} of it (a whole block, or a
     * slice of a larger one, whose rest stays pending), or null if nothing is pending. The caller
     * owns the returned buffer. This lets the server give the socket only as much as it takes,
     * keeping the rest here (where referenced values cost nothing) rather than in the channel.
     */
    public ByteBuf next(int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: maxBytes=" + maxBytes);
        }
        if (sealedBytes == 0 && (current == null || current.readableBytes() <= maxBytes)) {
            return takeCurrent();
        }
        seal();
        ByteBuf head = sealed.peek();
        if (head.readableBytes() > maxBytes) {
            sealedBytes -= maxBytes;
            return head.readRetainedSlice(maxBytes);
        }
        sealedBytes -= head.readableBytes();
        return sealed.poll();
    }

    /** The current block, handed over (null if it holds nothing); the next reply starts a new one. */
    private ByteBuf takeCurrent() {
        ByteBuf block = current;
        current = null;
        if (block != null && !block.isReadable()) {
            block.release();
            return null;
        }
        return block;
    }

    /**
     * Drops what was encoded after {@link #pendingBytes()} was {@code mark}, for a reply cut short
     * (an allocation failed half way through an array): the newest blocks go, the one the mark falls
     * in is cut back. Nothing if no more than that is pending (the output was taken since).
     */
    public void discardFrom(long mark) {
        long excess = pendingBytes() - Math.max(0, mark);
        if (excess <= 0) {
            return;
        }
        if (current != null) {
            int inCurrent = current.readableBytes();
            if (excess < inCurrent) {
                current.writerIndex(current.writerIndex() - (int) excess);
                return;
            }
            excess -= inCurrent;
            current.release();
            current = null;
        }
        while (excess > 0) {
            ByteBuf last = sealed.peekLast();
            int n = last.readableBytes();
            if (excess < n) {
                last.writerIndex(last.writerIndex() - (int) excess);
                sealedBytes -= excess;
                return;
            }
            sealed.pollLast().release();
            sealedBytes -= n;
            excess -= n;
        }
    }

    /** Frees what is pending, for a client that went away. */
    public void release() {
        if (current != null) {
            current.release();
            current = null;
        }
        if (sealed != null) {
            for (ByteBuf block : sealed) {
                block.release();
            }
            sealed.clear();
            sealedBytes = 0;
        }
    }

    /** {@code +OK} */
    public RespWriter ok() {
        return raw(OK);
    }

    /** {@code +PONG} */
    public RespWriter pong() {
        return raw(PONG);
    }

    /** {@code +QUEUED}, the reply to a command queued inside MULTI. */
    public RespWriter queued() {
        return raw(QUEUED);
    }

    /** {@code +s}; CR and LF in {@code s} become spaces. */
    public RespWriter simple(String s) {
        return line('+', s);
    }

    /** {@code -s}, where {@code s} starts with the error code ("ERR syntax error"); CR and LF become spaces. */
    public RespWriter error(String s) {
        errors++;
        if (errorObserver != null) {
            errorObserver.error(s, false);
        }
        return line('-', s);
    }

    /**
     * As {@link #error}, for an error that passes on one already reported elsewhere (a script
     * returning the error of a command it ran): the observer is told it is a repeat.
     */
    public RespWriter repeatedError(String s) {
        errors++;
        if (errorObserver != null) {
            errorObserver.error(s, true);
        }
        return line('-', s);
    }

    /** How many error replies this writer has produced. */
    public long errorReplies() {
        return errors;
    }

    /** Has {@code observer} told of every later error reply, before it is encoded; {@code null} stops it. */
    public void observeErrors(ErrorObserver observer) {
        this.errorObserver = observer;
    }

    /** Told of each error reply: the server's error statistics. */
    @FunctionalInterface
    public interface ErrorObserver {
        /**
         * @param message  the error's text without the leading {@code -}, e.g. {@code ERR syntax error}
         * @param repeated whether it passes on an error already reported (see {@link #repeatedError})
         */
        void error(String message, boolean repeated);
    }

    /** {@code :v} */
    public RespWriter integer(long v) {
        if (v >= -1 && v < SHARED_INTEGERS) {
            return raw(INTEGER_REPLIES[(int) v + 1]);
        }
        ByteBuf out = room(1 + decimalLength(v) + 2);
        out.writeByte(':');
        writeDecimal(out, v);
        out.writeBytes(CRLF);
        return this;
    }

    /** {@code $len\r\nbytes}, or the null bulk reply when {@code b} is null. */
    public RespWriter bulk(byte[] b) {
        return b == null ? nullBulk() : bulk(b, 0, b.length);
    }

    /** {@code $len\r\n} and {@code len} bytes of {@code b} from {@code off}. */
    public RespWriter bulk(byte[] b, int off, int len) {
        if (off < 0 || len < 0 || off > b.length - len) {
            throw new IndexOutOfBoundsException(
                "bulk slice out of range: off=" + off + " len=" + len + " length=" + b.length);
        }
        ByteBuf out = room(headerLength(len) + len + 2);
        writeHeader(out, '$', BULK_HEADERS, len);
        out.writeBytes(b, off, len);
        out.writeBytes(CRLF);
        return this;
    }

    /** As {@link #bulk(byte[])} for an array whose bytes never change: see {@link #bulkRef(byte[], int, int)}. */
    public RespWriter bulkRef(byte[] b) {
        return b == null ? nullBulk() : bulkRef(b, 0, b.length);
    }

    /**
     * As {@link #bulk(byte[], int, int)}, for bytes the caller promises never to change (a stored
     * string value; see the storage engine's string invariant): a slice of at least
     * {@value #REFERENCE_MIN} bytes is referenced by a read-only view until the socket takes it,
     * instead of being copied. A smaller one is copied as by {@code bulk}.
     */
    public RespWriter bulkRef(byte[] b, int off, int len) {
        if (len < REFERENCE_MIN) {
            return bulk(b, off, len);
        }
        if (off < 0 || off > b.length - len) {
            throw new IndexOutOfBoundsException(
                "bulk slice out of range: off=" + off + " len=" + len + " length=" + b.length);
        }
        ByteBuf out = room(headerLength(len));
        writeHeader(out, '$', BULK_HEADERS, len);
        seal();
        append(Unpooled.wrappedBuffer(b, off, len).asReadOnly());
        room(2).writeBytes(CRLF);
        return this;
    }

    /** {@code s} as a UTF-8 bulk string, or the null bulk reply when {@code s} is null. */
    public RespWriter bulk(String s) {
        if (s == null) {
            return nullBulk();
        }
        int len = ByteBufUtil.utf8Bytes(s);
        ByteBuf out = room(headerLength(len) + len + 2);
        writeHeader(out, '$', BULK_HEADERS, len);
        ByteBufUtil.reserveAndWriteUtf8(out, s, len);
        out.writeBytes(CRLF);
        return this;
    }

    /** The decimal text of {@code v} as a bulk string. */
    public RespWriter bulk(long v) {
        int len = decimalLength(v);
        ByteBuf out = room(headerLength(len) + len + 2);
        writeHeader(out, '$', BULK_HEADERS, len);
        writeDecimal(out, v);
        out.writeBytes(CRLF);
        return this;
    }

    /** RESP2 {@code $-1}; RESP3 {@code _}. */
    public RespWriter nullBulk() {
        return raw(protocol == 3 ? NULL_RESP3 : NULL_BULK_RESP2);
    }

    /** RESP2 {@code *-1}; RESP3 {@code _}. */
    public RespWriter nullArray() {
        return raw(protocol == 3 ? NULL_RESP3 : NULL_ARRAY_RESP2);
    }

    /** {@code *0} */
    public RespWriter emptyArray() {
        return raw(EMPTY_ARRAY);
    }

    /** {@code *n}; the {@code n} elements follow. */
    public RespWriter arrayHeader(int n) {
        return aggregateHeader('*', n);
    }

    /** RESP3 {@code %n}; RESP2 {@code *2n} (keys and values alternate). {@code n} is the number of pairs. */
    public RespWriter mapHeader(int n) {
        if (protocol == 3) {
            return aggregateHeader('%', n);
        }
        if (n < 0 || n > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("map size out of range: n=" + n);
        }
        return aggregateHeader('*', 2 * n);
    }

    /** RESP3 {@code ~n}; RESP2 {@code *n}. */
    public RespWriter setHeader(int n) {
        return aggregateHeader(protocol == 3 ? '~' : '*', n);
    }

    /** RESP3 {@code >n} (out-of-band data such as pub/sub messages); RESP2 {@code *n}. */
    public RespWriter pushHeader(int n) {
        return aggregateHeader(protocol == 3 ? '>' : '*', n);
    }

    /** RESP3 {@code ,text}; RESP2 the text as a bulk string; text as {@link RespDoubles#format(double)}. */
    public RespWriter doubleValue(double d) {
        int len = RespDoubles.format(d, doubleScratch);
        if (protocol == 3) {
            ByteBuf out = room(1 + len + 2);
            out.writeByte(',');
            out.writeBytes(doubleScratch, 0, len);
            out.writeBytes(CRLF);
            return this;
        }
        return bulk(doubleScratch, 0, len);
    }

    /** RESP3 {@code #t}/{@code #f}; RESP2 {@code :1}/{@code :0}. */
    public RespWriter bool(boolean b) {
        if (protocol == 3) {
            return raw(b ? TRUE_RESP3 : FALSE_RESP3);
        }
        return integer(b ? 1 : 0);
    }

    /** RESP3 {@code =len\r\ntxt:text} (plain text meant for humans, as INFO); RESP2 a bulk string. */
    public RespWriter verbatim(String text) {
        if (protocol != 3) {
            return bulk(text);
        }
        int textLength = ByteBufUtil.utf8Bytes(text);
        int len = VERBATIM_TEXT_FORMAT.length + textLength;
        ByteBuf out = room(1 + decimalLength(len) + 2 + len + 2);
        out.writeByte('=');
        writeDecimal(out, len);
        out.writeBytes(CRLF);
        out.writeBytes(VERBATIM_TEXT_FORMAT);
        ByteBufUtil.reserveAndWriteUtf8(out, text, textLength);
        out.writeBytes(CRLF);
        return this;
    }

    /** RESP3 {@code (digits}; RESP2 the digits as a bulk string. */
    public RespWriter bigNumber(String digits) {
        if (protocol != 3) {
            return bulk(digits);
        }
        return line('(', digits);
    }

    /** Appends {@code preEncoded} as it is: a reply the caller encoded earlier. */
    public RespWriter raw(byte[] preEncoded) {
        room(preEncoded.length).writeBytes(preEncoded);
        return this;
    }

    private RespWriter aggregateHeader(char type, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("aggregate size must not be negative: n=" + n);
        }
        ByteBuf out = room(headerLength(n));
        writeHeader(out, type, type == '*' ? ARRAY_HEADERS : null, n);
        return this;
    }

    /**
     * The character that stands for the byte {@code b} in a reply's text: ASCII as itself, any
     * other byte as a lone low surrogate {@code U+DC80..U+DCFF} (the "surrogateescape" scheme),
     * which {@link #simple} and {@link #error} write back as the byte itself. This lets an error
     * echo a client's bytes exactly (an unknown command named in Latin-1, UTF-8 or binary).
     */
    public static char escapedByte(byte b) {
        return b >= 0 ? (char) b : (char) (ESCAPED_BYTES + (b & 0xff));
    }

    private static final int ESCAPED_BYTES = 0xDC00;

    private static boolean isEscapedByte(char ch) {
        return ch >= ESCAPED_BYTES + 0x80 && ch <= ESCAPED_BYTES + 0xFF;
    }

    /** One-line reply: the type byte, {@code s} with CR/LF as spaces, CRLF. */
    private RespWriter line(char type, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isEscapedByte(s.charAt(i))) {
                return lineWithEscapedBytes(type, s);
            }
        }
        int len = ByteBufUtil.utf8Bytes(s);
        ByteBuf out = room(1 + len + 2);
        out.writeByte(type);
        int start = out.writerIndex();
        ByteBufUtil.reserveAndWriteUtf8(out, s, len);
        if (s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0) {
            for (int i = start; i < start + len; i++) {
                byte b = out.getByte(i);
                if (b == '\r' || b == '\n') {
                    out.setByte(i, ' ');
                }
            }
        }
        out.writeBytes(CRLF);
        return this;
    }

    /** {@link #line} for text holding {@link #escapedByte escaped bytes}: those as bytes, the rest as UTF-8. */
    private RespWriter lineWithEscapedBytes(char type, String s) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(s.length() + 8);
        int from = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || isEscapedByte(s.charAt(i))) {
                bytes.writeBytes(s.substring(from, i).replace('\r', ' ').replace('\n', ' ')
                        .getBytes(StandardCharsets.UTF_8));
                if (i < s.length()) {
                    bytes.write(s.charAt(i) - ESCAPED_BYTES);
                }
                from = i + 1;
            }
        }
        ByteBuf out = room(1 + bytes.size() + 2);
        out.writeByte(type);
        out.writeBytes(bytes.toByteArray());
        out.writeBytes(CRLF);
        return this;
    }

    /**
     * The current block with room for {@code bytes} more: grown (by doubling, up to
     * {@link #BLOCK_SIZE}) if it can take them, else sealed and followed by a new block, which is
     * as large as {@code bytes} when that is more than a block.
     */
    private ByteBuf room(int bytes) {
        ByteBuf block = current;
        if (block != null) {
            if (block.maxWritableBytes() >= bytes) {
                block.ensureWritable(bytes);
                return block;
            }
            seal();
        }
        // A reply bigger than a block is a one-off: it gets unpooled memory, freed when written,
        // so that big replies do not leave the pool's arenas holding chunks.
        block = bytes > BLOCK_SIZE ? UnpooledByteBufAllocator.DEFAULT.directBuffer(bytes, bytes)
                : alloc.buffer(Math.max(INITIAL_CAPACITY, bytes), BLOCK_SIZE);
        current = block;
        return block;
    }

    /** Moves the current block, if it holds anything, to the sealed chain. */
    private void seal() {
        ByteBuf block = current;
        current = null;
        if (block == null) {
            return;
        }
        if (block.isReadable()) {
            append(block);
        } else {
            block.release();
        }
    }

    private void append(ByteBuf block) {
        if (sealed == null) {
            sealed = new ArrayDeque<>(4);
        }
        sealed.add(block);
        sealedBytes += block.readableBytes();
    }

    private static int headerLength(int n) {
        return 1 + decimalLength(n) + 2;
    }

    private static void writeHeader(ByteBuf out, char type, byte[][] shared, int n) {
        if (shared != null && n < SHARED_HEADERS) {
            out.writeBytes(shared[n]);
            return;
        }
        out.writeByte(type);
        writeDecimal(out, n);
        out.writeBytes(CRLF);
    }

    /** Number of characters in the decimal text of {@code v}, sign included. */
    static int decimalLength(long v) {
        // Count on the negative value so that Long.MIN_VALUE needs no special case.
        long negative = v < 0 ? v : -v;
        int digits = 1;
        while (negative <= -10) {
            negative /= 10;
            digits++;
        }
        return v < 0 ? digits + 1 : digits;
    }

    /** Writes the decimal text of {@code v}; the caller has made room for it. */
    private static void writeDecimal(ByteBuf out, long v) {
        int length = decimalLength(v);
        int end = out.writerIndex() + length;
        int at = end;
        long negative = v < 0 ? v : -v;
        do {
            out.setByte(--at, (int) ('0' - (negative % 10)));
            negative /= 10;
        } while (negative != 0);
        if (v < 0) {
            out.setByte(--at, '-');
        }
        out.writerIndex(end);
    }

    private static byte[][] sharedHeaders(char type) {
        byte[][] headers = new byte[SHARED_HEADERS][];
        for (int n = 0; n < SHARED_HEADERS; n++) {
            headers[n] = ascii(type + Integer.toString(n) + "\r\n");
        }
        return headers;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
