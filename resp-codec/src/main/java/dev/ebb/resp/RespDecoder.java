package dev.ebb.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes client requests into argument vectors, as Redis's {@code processMultibulkBuffer} and
 * {@code processInlineBuffer} do.
 *
 * <p>Emits, in arrival order, one {@code byte[][]} (never empty, each argument an exact-size array)
 * per complete command. On input that breaks the protocol it emits one {@link RespProtocolError} and
 * from then on discards everything the client sends; the server replies and closes.
 *
 * <h2>How it works</h2>
 * An explicit state machine, one method per state; each returns false when it needs more bytes, so
 * a command split across reads at any byte decodes exactly as if it came in one read (except a line
 * past 64 KB, below).
 * <pre>
 *   COMMAND_START --'*'--&gt; MULTIBULK_COUNT --&gt; BULK_LENGTH --&gt; BULK_DATA --&gt; BULK_TERMINATOR --+
 *        |  ^  ^                   |                ^                                           |
 *        |  |  +---- count &lt;= 0 ---+                +------------ more arguments ---------------+
 *        |  +----------------------------------------------------- last argument --------------+
 *        +--other--&gt; INLINE_LINE --&gt; COMMAND_START          any error --&gt; DISCARD (terminal)
 * </pre>
 * Header lines ({@code *N}, {@code $N}) and inline lines wait in Netty's cumulation buffer until their
 * terminator arrives; each is searched once (the scan resumes where it stopped). Argument bytes are
 * instead copied out of every read straight into the argument's own {@code byte[]} and consumed, so
 * a large value is not gathered in a cumulation buffer and copied again, and the cumulation never
 * holds more than one header line plus one read.
 *
 * <h2>Lines without their terminator: Redis's rule</h2>
 * Redis refuses a line ({@code too big inline request}, {@code too big mbulk count string},
 * {@code too big bulk count string}) when, after a read, more than 64 KB
 * ({@code PROTO_INLINE_MAX_SIZE}) of input from the line's start is buffered and none of it is the
 * terminator. It is a limit on buffered input, not on line length: a terminator that arrives in the
 * same read as the bytes past 64 KB saves the line. How far past 64 KB that read goes depends on
 * Redis's query buffer, which grows greedily: measured on 7.2.4 (strace), a fresh connection reads
 * 16,384 then 65,526 bytes, so a line written at once is accepted up to 81,910 bytes; behind a
 * small command in the same write the reads are 16,384, 49,152, then 98,300 bytes, and a line of
 * 163,830 bytes is accepted. It never accepts more: no read that starts at most 64 KB into a line
 * goes past 160 KB. A line split so that more than 64 KB of it arrives alone is refused.
 * Ebb applies the test each time the socket has been read dry ({@link #channelReadComplete}), not
 * after each of Netty's reads, whose sizes are Netty's choice and would split a line that arrived
 * at once; and a line is refused as soon as {@link #MAX_LINE_SEARCH} (160 KB) of it are searched
 * without the terminator. So a line is accepted when its terminator is within 64 KB, refused when
 * it is not within the first 160 KB, and in between accepted when it arrived at once: everything
 * Redis can accept, whatever its buffer's history (and, on a fresh connection, lines of 80 to
 * 160 KB it refuses). A stream without a terminator is refused once more than 64 KB of it has
 * arrived and the socket is dry, or 160 KB of it is searched: it costs at most 160 KB plus one
 * read (Netty's reads are at most 64 KB).
 *
 * <h2>Connections that still have to authenticate</h2>
 * While {@link #authRequired(boolean)} is set (the server sets it from the connection's AUTH
 * state), a request may declare at most 10 arguments and 16 KB per argument, as in Redis 7:
 * {@code *11} or {@code $16385} is refused with {@code unauthenticated multibulk length} /
 * {@code unauthenticated bulk length} before anything is allocated for it. The state must be the
 * one after the previous command ran, as in Redis, where a command is parsed only after the one
 * before it executed: so the decoder hands over one command per {@link #decode} call. Netty
 * delivers it before decoding the next, so with the command loop on the channel's thread
 * ({@code io-threads 1}) an AUTH or RESET runs before the next header is read. With the loop on a
 * thread of its own ({@link #RespDecoder(RespLimits, boolean)}), an unauthenticated connection's
 * decoder stops after each command until the loop reports with {@link #commandsRan()} that it ran
 * what it was handed, so the same holds; meanwhile what arrives is kept, up to
 * client-query-buffer-limit. The one case left out is the other way round: with the loop on its
 * own thread, requests pipelined behind a RESET that unauthenticates the connection are decoded
 * before it runs, and so without the limits.
 *
 * <h2>Memory held for an argument</h2>
 * A declared length up to 1 MB is allocated exactly when its {@code $} header arrives, so such an
 * argument is copied once, from the network buffer into its final array. A larger declared length
 * is not trusted: the array starts at 1 MB (or what has arrived) and doubles as bytes arrive,
 * jumping to the exact declared size once doubling would pass half of it. A client that declares
 * {@code $536870912} and sends nothing therefore pins 1 MB, and beyond 1 MB the memory held stays
 * under four times what it sent; no allocation exceeds what client-query-buffer-limit leaves. The
 * price is that bytes of an argument over 1 MB are copied at most 1.5 times on average, not once.
 *
 * <h2>Where Ebb differs from Redis 7.0</h2>
 * <ul>
 *   <li>Not a difference but a trap: Redis up to 6.2 rejected {@code *N} above 1024*1024; Redis 7.0
 *       accepts up to {@code INT_MAX} (redis/redis#9528), and so does Ebb. The argv array starts at
 *       {@code min(N, 1024)} entries and grows as arguments arrive, as in Redis 7.</li>
 *   <li>{@code client-query-buffer-limit} counts the wire bytes of the one unfinished command (its
 *       consumed headers and arguments plus what waits in the cumulation), checked before bytes are
 *       copied, so at most the limit is ever held. Redis checks its query buffer after each read.</li>
 *   <li>A byte of 0x80 or more in place of '$' is named in the error as the char of that value;
 *       Redis sends the raw byte, Ebb's {@link RespWriter} the char's UTF-8 encoding.</li>
 *   <li>Bulk lengths above {@link #MAX_ARRAY_LENGTH} are invalid even if proto-max-bulk-len is
 *       larger: a Java array cannot hold them.</li>
 *   <li>Redis finds line ends with {@code strchr}, so a NUL byte before the CR hides the line and
 *       Redis waits until the 64 KB limit; here NUL is an ordinary byte.</li>
 * </ul>
 * Like Redis, the two bytes after a header's CR and after an argument are skipped without being
 * looked at, and header numbers use Redis's strict syntax (no '+', no leading zeros, no spaces).
 *
 * <p>Thread safety: one instance per channel, used by its event loop only, except
 * {@link #authRequired(boolean)} and the query-buffer figures, which any thread may call;
 * {@link RespLimits} is read on every header and read, so CONFIG SET applies to the next one.
 */
public final class RespDecoder extends ByteToMessageDecoder {
    /** Most input of a line buffered without its terminator: Redis's {@code PROTO_INLINE_MAX_SIZE}. */
    static final int MAX_LINE_LENGTH = 64 * 1024;
    /** Most of a line searched for its terminator: the furthest Redis's read past {@link #MAX_LINE_LENGTH} can take it. */
    static final int MAX_LINE_SEARCH = 160 * 1024;
    /** The most digits {@link #shortHeader} reads: any count or length under 10^9. */
    private static final int SHORT_HEADER_DIGITS = 9;
    /** Most arguments a connection that still has to authenticate may declare. */
    static final int UNAUTHENTICATED_MAX_ARGUMENTS = 10;
    /** Longest argument a connection that still has to authenticate may declare. */
    static final int UNAUTHENTICATED_MAX_BULK = 16 * 1024;
    /** Declared bulk lengths up to this are allocated up front; larger ones grow as bytes arrive. */
    static final int EAGER_BULK_ALLOCATION = 1024 * 1024;
    /** Redis allocates argv for at most this many arguments up front, whatever {@code *N} says. */
    static final int INITIAL_ARGV_CAPACITY = 1024;
    /** Largest array the JVM reliably allocates; bulk lengths past it are invalid here. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    static final String ERR_TOO_BIG_INLINE = "ERR Protocol error: too big inline request";
    static final String ERR_UNBALANCED_QUOTES = "ERR Protocol error: unbalanced quotes in request";
    static final String ERR_TOO_BIG_MBULK_COUNT = "ERR Protocol error: too big mbulk count string";
    static final String ERR_INVALID_MULTIBULK_LENGTH = "ERR Protocol error: invalid multibulk length";
    static final String ERR_TOO_BIG_BULK_COUNT = "ERR Protocol error: too big bulk count string";
    static final String ERR_INVALID_BULK_LENGTH = "ERR Protocol error: invalid bulk length";
    static final String ERR_EXPECTED_DOLLAR_PREFIX = "ERR Protocol error: expected '$', got '";
    static final String ERR_UNAUTHENTICATED_MULTIBULK_LENGTH = "ERR Protocol error: unauthenticated multibulk length";
    static final String ERR_UNAUTHENTICATED_BULK_LENGTH = "ERR Protocol error: unauthenticated bulk length";

    private static final byte[] EMPTY_ARGUMENT = new byte[0];

    private enum State {
        COMMAND_START,
        INLINE_LINE,
        MULTIBULK_COUNT,
        BULK_LENGTH,
        BULK_DATA,
        BULK_TERMINATOR,
        DISCARD
    }

    private final RespLimits limits;
    /** True when the command loop runs on a thread other than this channel's. */
    private final boolean loopElsewhere;
    private State state = State.COMMAND_START;
    /** Set while a command decoded unauthenticated is with a loop on another thread; see the class comment. */
    private volatile boolean awaitingLoop;
    private ChannelHandlerContext context;
    /** True while the connection still has to authenticate; written by the command loop. */
    private volatile boolean authRequired;

    /** Bytes of the current line, from the reader index, already searched for its terminator. */
    private int lineScanned;
    /** Set by {@link #findLineEnd} when {@link #MAX_LINE_SEARCH} bytes of the line hold no terminator. */
    private boolean lineTooLong;
    /** Set by {@link #parseNumber}: false when the digits do not follow Redis's {@code string2ll}. */
    private boolean numberValid;
    /** Set by {@link #shortHeader}: the offset of the header's CR from the reader index. */
    private int shortHeaderEnd;

    /** Wire bytes of the unfinished command already consumed from the cumulation. */
    private long commandBytesConsumed;
    /** {@link #queryBufferBytes()}, published after each read for other threads. */
    private volatile long queryBuffer;
    /** {@link #queryBufferFree()}, published after each read for other threads. */
    private volatile long queryBufferFree;
    private byte[][] argv;
    private int argc;
    private int argsExpected;

    private byte[] bulk;
    private int bulkLength;
    private int bulkFilled;

    /** A decoder whose commands run on the channel's own thread as they are handed over. */
    public RespDecoder(RespLimits limits) {
        this(limits, false);
    }

    /**
     * A decoder whose commands run on the channel's thread ({@code loopElsewhere} false) or are
     * handed to a command loop on another thread, which must then call {@link #commandsRan()}.
     */
    public RespDecoder(RespLimits limits, boolean loopElsewhere) {
        if (limits == null) {
            throw new IllegalArgumentException("limits must not be null");
        }
        this.limits = limits;
        this.loopElsewhere = loopElsewhere;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        context = ctx;
        super.handlerAdded(ctx);
    }

    /**
     * The command loop ran everything this decoder handed over so far: if it was waiting for that
     * (an unauthenticated command), decoding goes on, on the channel's thread. Any thread.
     */
    public void commandsRan() {
        if (awaitingLoop) {
            context.executor().execute(this::resume);
        }
    }

    private void resume() {
        awaitingLoop = false;
        if (context.isRemoved() || !context.channel().isActive() || !internalBuffer().isReadable()) {
            return;
        }
        try {
            // An empty read makes ByteToMessageDecoder decode what it holds and deliver it as usual.
            channelRead(context, Unpooled.EMPTY_BUFFER);
            channelReadComplete(context);
        } catch (Exception e) {
            context.fireExceptionCaught(e);
        }
    }

    /**
     * Sets whether the connection still has to authenticate, which limits what it may declare. Any
     * thread; applies from the next header decoded.
     */
    public void authRequired(boolean required) {
        authRequired = required;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (awaitingLoop) {
            if (in.readableBytes() > limits.clientQueryBufferLimit()) {
                commandBytesConsumed = 0; // between commands: all that is held is what waits
                failQueryBufferLimit(in, out, in.readableBytes());
            }
            return;
        }
        int emitted = out.size();
        boolean progress = true;
        // One command at a time: Netty delivers it (with io-threads 1, runs it) before calling again
        // for the rest, so an AUTH or RESET has run before the next request's headers are judged.
        while (progress && out.size() == emitted) {
            progress = switch (state) {
                case COMMAND_START -> startCommand(in);
                case INLINE_LINE -> readInlineLine(in, out);
                case MULTIBULK_COUNT -> readMultibulkCount(in, out);
                case BULK_LENGTH -> readBulkLength(in, out);
                case BULK_DATA -> readBulkData(in, out);
                case BULK_TERMINATOR -> readBulkTerminator(in, out);
                case DISCARD -> discard(in);
            };
        }
        if (state != State.DISCARD && state != State.COMMAND_START
            && commandBytesConsumed + in.readableBytes() > limits.clientQueryBufferLimit()) {
            failQueryBufferLimit(in, out, in.readableBytes());
        }
        if (loopElsewhere && authRequired && state != State.DISCARD && out.size() > emitted) {
            awaitingLoop = true;
        }
    }

    /** Wire: the first byte of a request; '*' opens a multibulk request, anything else an inline one. */
    private boolean startCommand(ByteBuf in) {
        if (!in.isReadable()) {
            return false;
        }
        commandBytesConsumed = 0;
        lineScanned = 0;
        state = in.getByte(in.readerIndex()) == '*' ? State.MULTIBULK_COUNT : State.INLINE_LINE;
        return true;
    }

    /**
     * Wire: {@code words separated by spaces\n}, optionally ending {@code \r\n}; the reader index is
     * at the first byte of the line. A blank line is consumed and ignored.
     */
    private boolean readInlineLine(ByteBuf in, List<Object> out) {
        int lineFeed = findLineEnd(in, ByteProcessor.FIND_LF);
        if (lineFeed < 0) {
            if (lineTooLong) {
                fail(in, out, lineTooLongError());
            }
            return false;
        }
        int lineLength = lineFeed;
        if (lineLength > 0 && in.getByte(in.readerIndex() + lineLength - 1) == '\r') {
            lineLength--;
        }
        byte[][] args = lineLength == 0
            ? null
            : ArgumentSplitter.split(ByteBufUtil.getBytes(in, in.readerIndex(), lineLength), lineLength);
        in.skipBytes(lineFeed + 1);
        if (lineLength > 0) {
            if (args == null) {
                fail(in, out, ERR_UNBALANCED_QUOTES);
                return false;
            }
            if (args.length > 0) {
                out.add(args);
            }
        }
        state = State.COMMAND_START;
        return true;
    }

    /** Wire: {@code *<count>\r\n}; the reader index is at the '*'. */
    private boolean readMultibulkCount(ByteBuf in, List<Object> out) {
        long count = shortHeader(in);
        int carriageReturn = shortHeaderEnd;
        if (count < 0) {
            carriageReturn = headerLineEnd(in, out);
            if (carriageReturn < 0) {
                return false;
            }
            count = parseNumber(in, in.readerIndex() + 1, carriageReturn - 1);
        }
        if (!numberValid || count > Integer.MAX_VALUE) {
            fail(in, out, ERR_INVALID_MULTIBULK_LENGTH);
            return false;
        }
        if (count > UNAUTHENTICATED_MAX_ARGUMENTS && authRequired) {
            fail(in, out, ERR_UNAUTHENTICATED_MULTIBULK_LENGTH);
            return false;
        }
        consumeLine(in, carriageReturn);
        if (count <= 0) {
            state = State.COMMAND_START;
            return true;
        }
        argsExpected = (int) count;
        argv = new byte[Math.min(argsExpected, INITIAL_ARGV_CAPACITY)][];
        argc = 0;
        state = State.BULK_LENGTH;
        return true;
    }

    /** Wire: {@code $<length>\r\n} before each argument; the reader index is at the '$'. */
    private boolean readBulkLength(ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return false;
        }
        byte prefix = in.getByte(in.readerIndex());
        long length = prefix == '$' ? shortHeader(in) : -1;
        int carriageReturn = shortHeaderEnd;
        if (length < 0) {
            carriageReturn = headerLineEnd(in, out);
            if (carriageReturn < 0) {
                return false;
            }
            if (prefix != '$') {
                fail(in, out, ERR_EXPECTED_DOLLAR_PREFIX + printable(prefix) + "'");
                return false;
            }
            length = parseNumber(in, in.readerIndex() + 1, carriageReturn - 1);
        }
        if (!numberValid || length < 0 || length > limits.protoMaxBulkLen() || length > MAX_ARRAY_LENGTH) {
            fail(in, out, ERR_INVALID_BULK_LENGTH);
            return false;
        }
        if (length > UNAUTHENTICATED_MAX_BULK && authRequired) {
            fail(in, out, ERR_UNAUTHENTICATED_BULK_LENGTH);
            return false;
        }
        consumeLine(in, carriageReturn);
        bulkLength = (int) length;
        bulkFilled = 0;
        if (bulkLength == 0) {
            bulk = EMPTY_ARGUMENT;
        } else if (bulkLength <= EAGER_BULK_ALLOCATION) {
            bulk = new byte[bulkCapacityFor(bulkLength)];
        } else {
            int arrived = Math.min(bulkLength, in.readableBytes());
            bulk = new byte[bulkCapacityFor(Math.max(EAGER_BULK_ALLOCATION, arrived))];
        }
        state = State.BULK_DATA;
        return true;
    }

    /**
     * Wire: the {@code <length>} bytes of an argument, which may span many reads; each read's share is
     * copied into the argument's array and consumed at once.
     */
    private boolean readBulkData(ByteBuf in, List<Object> out) {
        int arriving = Math.min(bulkLength - bulkFilled, in.readableBytes());
        if (arriving > 0) {
            if (commandBytesConsumed + arriving > limits.clientQueryBufferLimit()) {
                failQueryBufferLimit(in, out, arriving);
                return false;
            }
            if (bulkFilled + arriving > bulk.length) {
                growBulk(bulkFilled + arriving);
            }
            in.readBytes(bulk, bulkFilled, arriving);
            bulkFilled += arriving;
            commandBytesConsumed += arriving;
        }
        if (bulkFilled < bulkLength) {
            return false;
        }
        state = State.BULK_TERMINATOR;
        return true;
    }

    /**
     * Wire: the {@code \r\n} after an argument's bytes. Redis skips these two bytes without checking
     * them, and so does Ebb. Completes the command after its last argument.
     */
    private boolean readBulkTerminator(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 2) {
            return false;
        }
        in.skipBytes(2);
        commandBytesConsumed += 2;
        if (argc == argv.length) {
            argv = Arrays.copyOf(argv, (int) Math.min(argsExpected, 2L * argc));
        }
        argv[argc++] = bulk;
        bulk = null;
        lineScanned = 0;
        if (argc < argsExpected) {
            state = State.BULK_LENGTH;
            return true;
        }
        out.add(argv);
        argv = null;
        state = State.COMMAND_START;
        return true;
    }

    /** After a protocol error: the connection is closing, everything it sends is dropped. */
    private static boolean discard(ByteBuf in) {
        in.skipBytes(in.readableBytes());
        return false;
    }

    /**
     * Offset from the reader index of the first byte {@code finder} stops at within the current line,
     * or -1 when it has not arrived; then {@link #lineTooLong} tells whether {@link #MAX_LINE_SEARCH}
     * bytes were searched without it. Bytes already searched are not searched
     * again. The test on what is buffered when the socket is read dry is {@link #channelReadComplete}'s.
     */
    private int findLineEnd(ByteBuf in, ByteProcessor finder) {
        int searchable = Math.min(in.readableBytes(), MAX_LINE_SEARCH);
        if (lineScanned < searchable) {
            int found = in.forEachByte(in.readerIndex() + lineScanned, searchable - lineScanned, finder);
            if (found >= 0) {
                lineScanned = found - in.readerIndex();
                return lineScanned;
            }
            lineScanned = searchable;
        }
        lineTooLong = lineScanned >= MAX_LINE_SEARCH;
        return -1;
    }

    /**
     * The socket has been read dry: Redis's test on what it holds (see the class comment). A line
     * of which more than {@link #MAX_LINE_LENGTH} bytes are buffered, all searched without finding
     * its terminator, is refused now.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        ByteBuf in = internalBuffer();
        if ((state == State.INLINE_LINE || state == State.MULTIBULK_COUNT || state == State.BULK_LENGTH)
            && lineScanned > MAX_LINE_LENGTH && lineScanned == in.readableBytes()) {
            List<Object> out = new ArrayList<>(1);
            fail(in, out, lineTooLongError());
            ctx.fireChannelRead(out.get(0));
        }
        super.channelReadComplete(ctx);
    }

    /** Redis's error for a line in the current state that is too long. */
    private String lineTooLongError() {
        return switch (state) {
            case INLINE_LINE -> ERR_TOO_BIG_INLINE;
            case MULTIBULK_COUNT -> ERR_TOO_BIG_MBULK_COUNT;
            default -> ERR_TOO_BIG_BULK_COUNT;
        };
    }

    /** Consumes a header line whose CR is at {@code carriageReturn} and the byte after it. */
    private void consumeLine(ByteBuf in, int carriageReturn) {
        in.skipBytes(carriageReturn + 2);
        commandBytesConsumed += carriageReturn + 2;
        lineScanned = 0;
    }

    /**
     * The general path to a header line's end: the offset of its CR once the line and the byte after the CR have
     * arrived; -1 while they have not, or when the line was too long (then refused through {@code out}).
     */
    private int headerLineEnd(ByteBuf in, List<Object> out) {
        int carriageReturn = findLineEnd(in, ByteProcessor.FIND_CR);
        if (carriageReturn < 0) {
            if (lineTooLong) {
                fail(in, out, lineTooLongError());
            }
            return -1;
        }
        return carriageReturn + 1 >= in.readableBytes() ? -1 : carriageReturn;
    }

    /**
     * The common header, read in one pass: the prefix at the reader index, then 1 to
     * {@value #SHORT_HEADER_DIGITS} digits without a leading zero (or "0" alone), then CR LF, all of it
     * buffered. Returns the number, with {@link #shortHeaderEnd} set to the CR's offset and
     * {@link #numberValid} true; -1 for anything else (a partial, long, negative or malformed line),
     * which the general path ({@link #findLineEnd}, {@link #parseNumber}) then reads or refuses as
     * before. Reads at most {@value #SHORT_HEADER_DIGITS} + 3 bytes.
     */
    private long shortHeader(ByteBuf in) {
        int start = in.readerIndex();
        int end = start + Math.min(in.readableBytes(), SHORT_HEADER_DIGITS + 3);
        int pos = start + 1;
        if (pos >= end) {
            return -1;
        }
        int digit = in.getByte(pos) - '0';
        if (digit < 0 || digit > 9) {
            return -1;
        }
        long value = digit;
        pos++;
        if (digit != 0) {
            while (pos < end && (digit = in.getByte(pos) - '0') >= 0 && digit <= 9) {
                value = value * 10 + digit;
                pos++;
            }
        }
        if (pos + 1 >= end || pos - start - 1 > SHORT_HEADER_DIGITS || in.getByte(pos) != '\r'
                || in.getByte(pos + 1) != '\n') {
            return -1;
        }
        shortHeaderEnd = pos - start;
        numberValid = true;
        return value;
    }

    /**
     * Parses {@code length} bytes at {@code index} as Redis's {@code string2ll} does: an optional '-',
     * then digits without leading zeros ("0" alone is fine), fitting a signed 64-bit integer. Sets
     * {@link #numberValid}; allocates nothing.
     */
    private long parseNumber(ByteBuf in, int index, int length) {
        numberValid = false;
        if (length <= 0 || length > 20) {
            return 0;
        }
        int pos = index;
        int end = index + length;
        boolean negative = in.getByte(pos) == '-';
        if (negative) {
            pos++;
        }
        if (pos == end) {
            return 0;
        }
        byte first = in.getByte(pos);
        if (first == '0') {
            numberValid = length == 1;
            return 0;
        }
        // Accumulate negatively, as Long.parseLong does, so that Long.MIN_VALUE fits.
        long value = 0;
        for (; pos < end; pos++) {
            int digit = in.getByte(pos) - '0';
            if (digit < 0 || digit > 9 || value < Long.MIN_VALUE / 10) {
                return 0;
            }
            value *= 10;
            if (value < Long.MIN_VALUE + digit) {
                return 0;
            }
            value -= digit;
        }
        if (!negative && value == Long.MIN_VALUE) {
            return 0;
        }
        numberValid = true;
        return negative ? value : -value;
    }

    /** Grows the argument's array to hold {@code needed} bytes: doubling, or the exact size once past half. */
    private void growBulk(int needed) {
        bulk = Arrays.copyOf(bulk, Math.max(needed, bulkCapacityFor(Math.max(needed, 2L * bulk.length))));
    }

    /**
     * Capacity to give the argument's array when {@code wanted} bytes look useful: the exact
     * declared length once past half of it, and never more than the query buffer limit leaves.
     */
    private int bulkCapacityFor(long wanted) {
        long capacity = wanted > bulkLength / 2 ? bulkLength : wanted;
        long allowance = limits.clientQueryBufferLimit() - (commandBytesConsumed - bulkFilled);
        return (int) Math.max(0, Math.min(capacity, allowance));
    }

    private void fail(ByteBuf in, List<Object> out, String message) {
        in.skipBytes(in.readableBytes());
        out.add(new RespProtocolError(message, true));
        enterDiscard();
    }

    private void failQueryBufferLimit(ByteBuf in, List<Object> out, long pending) {
        long buffered = commandBytesConsumed + pending;
        in.skipBytes(in.readableBytes());
        out.add(new RespProtocolError("closing client that reached max query buffer length: buffered="
            + buffered + " client-query-buffer-limit=" + limits.clientQueryBufferLimit(), false));
        enterDiscard();
    }

    private void enterDiscard() {
        state = State.DISCARD;
        awaitingLoop = false;
        argv = null;
        bulk = null;
    }

    /** Redis's error replies turn CR and LF into spaces. */
    private static char printable(byte b) {
        return b == '\r' || b == '\n' ? ' ' : (char) (b & 0xFF);
    }

    /** True when no command is under way and no input waits: everything received was decoded (for tests). */
    boolean betweenCommands() {
        return state == State.COMMAND_START && actualReadableBytes() == 0;
    }

    /** True once a protocol error was emitted and input is being dropped (for tests). */
    boolean discarding() {
        return state == State.DISCARD;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        ByteBuf cumulation = internalBuffer();
        queryBuffer = cumulation.readableBytes() + (bulk == null ? 0 : bulkFilled);
        queryBufferFree = cumulation.writableBytes() + (bulk == null ? 0 : (long) bulkLength - bulkFilled);
    }

    /**
     * CLIENT LIST's {@code qbuf}: received bytes not yet turned into a command, as of the last
     * read (what waits in the cumulation plus the filled part of a large argument read in place).
     * Safe to call from any thread.
     */
    public long queryBufferBytes() {
        return queryBuffer;
    }

    /**
     * CLIENT LIST's {@code qbuf-free}: room left in those buffers as of the last read (the
     * cumulation's writable bytes plus the unfilled part of a large argument). Any thread.
     */
    public long queryBufferFree() {
        return queryBufferFree;
    }

    /** Input bytes waiting in the cumulation buffer (for tests). */
    int cumulatedBytes() {
        return actualReadableBytes();
    }

    /** Bytes held for the unfinished command's arguments, counted by array capacity (for tests). */
    long retainedArgumentBytes() {
        long retained = bulk == null ? 0 : bulk.length;
        for (int i = 0; i < argc && argv != null; i++) {
            retained += argv[i].length;
        }
        return retained;
    }
}
