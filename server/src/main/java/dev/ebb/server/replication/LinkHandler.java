package dev.ebb.server.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's end of one connection to its primary, on the link's own Netty thread: the PSYNC2
 * handshake, the RDB transfer of a full sync into a temporary file, then the write stream, which it
 * hands to the loop as it arrives. It never touches the keyspace; every outcome goes to
 * {@link PrimaryLink} as a task on the loop.
 *
 * <p>The handshake, as Redis's syncWithMaster, one request at a time:
 * <pre>
 *   PING                                  +PONG (or -NOAUTH / -NOPERM: authentication comes next)
 *   AUTH [masteruser] masterauth          +OK            (only with masterauth)
 *   REPLCONF listening-port port          +OK            (an error is not fatal)
 *   REPLCONF ip-address ip                +OK            (only with replica-announce-ip; not fatal)
 *   REPLCONF capa eof capa psync2         +OK            (not fatal)
 *   PSYNC replid offset | PSYNC ? -1      +FULLRESYNC replid offset | +CONTINUE [replid]
 * </pre>
 * A primary handing over with FAILOVER adds {@code FAILOVER} to its PSYNC; an error reply to it
 * (rather than the link's failure) is reported to {@link PrimaryLink#failoverRefused}.
 * After {@code +FULLRESYNC} the primary sends the RDB as {@code $len\r\n} and len bytes, or, diskless,
 * as {@code $EOF:<40 bytes>\r\n}, the payload and the same 40 bytes; newlines before the header are
 * keepalives. Bytes after the payload belong to the stream.
 */
final class LinkHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryLink.class);
    static final int EOF_MARK_LENGTH = 40;

    /** What the handshake sends, fixed when the connection starts. */
    record Handshake(String user, String password, int listeningPort, String announceIp, String psyncId,
            long psyncOffset, Path tempFile, boolean failover) {
    }

    private enum State {
        PING, AUTH, PORT, IP, CAPA, PSYNC, BULK_HEADER, PAYLOAD, STREAM, DONE
    }

    private final PrimaryLink owner;
    private final Handshake handshake;
    private State state = State.PING;
    private ByteBuf pending;
    private FileChannel file;
    /** Payload bytes still expected ($len form), or -1 in the EOF-mark form. */
    private long left;
    private byte[] eofMark;
    /** The last 40 payload bytes written (EOF-mark form). */
    private final byte[] tail = new byte[EOF_MARK_LENGTH];
    private long tailFilled;
    private volatile long lastIoMillis = System.currentTimeMillis();
    private volatile long transferSize = -1;
    private volatile long transferRead;

    LinkHandler(PrimaryLink owner, Handshake handshake) {
        this.owner = owner;
        this.handshake = handshake;
    }

    long lastIoMillis() {
        return lastIoMillis;
    }

    /** The payload's size ({@code $len} form), or -1 (EOF-mark form, or before the header). */
    long transferSize() {
        return transferSize;
    }

    long transferRead() {
        return transferRead;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        owner.post(() -> owner.handshakeStarted(this));
        send(ctx, "PING");
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        lastIoMillis = System.currentTimeMillis();
        try {
            if (state == State.STREAM) {
                forward(in);
                return;
            }
            if (pending == null) {
                pending = Unpooled.buffer(Math.max(256, in.readableBytes()));
            }
            pending.writeBytes(in);
            advance(ctx);
        } catch (IOException | RuntimeException e) {
            fail(ctx, e.getMessage() == null ? e.toString() : e.getMessage());
        } finally {
            in.release();
        }
    }

    private void advance(ChannelHandlerContext ctx) throws IOException {
        while (state != State.STREAM && state != State.DONE) {
            if (state == State.PAYLOAD) {
                if (!payload()) {
                    return;
                }
                continue;
            }
            String line = readLine();
            if (line == null) {
                return;
            }
            if (!reply(ctx, line)) {
                return;
            }
        }
        if (state == State.STREAM && pending != null && pending.isReadable()) {
            forward(pending);
        }
        if (state == State.STREAM && pending != null) {
            pending.release();
            pending = null;
        }
    }

    /** Handles one reply line of the handshake; false if the link is finished. */
    private boolean reply(ChannelHandlerContext ctx, String line) throws IOException {
        switch (state) {
            case PING -> {
                if (line.startsWith("-") && !line.startsWith("-NOAUTH") && !line.startsWith("-NOPERM")
                        && !line.startsWith("-ERR operation not permitted")) {
                    return fail(ctx, "Error reply to PING from master: '" + line + "'");
                }
                LOG.info("Master replied to PING, replication can continue...");
                if (!handshake.password().isEmpty()) {
                    state = State.AUTH;
                    if (handshake.user().isEmpty()) {
                        send(ctx, "AUTH", handshake.password());
                    } else {
                        send(ctx, "AUTH", handshake.user(), handshake.password());
                    }
                } else {
                    sendPort(ctx);
                }
            }
            case AUTH -> {
                if (line.startsWith("-")) {
                    return fail(ctx, "Unable to AUTH to MASTER: " + line);
                }
                sendPort(ctx);
            }
            case PORT -> {
                if (line.startsWith("-")) {
                    LOG.info("(Non critical) Master does not understand REPLCONF listening-port: {}", line);
                }
                if (!handshake.announceIp().isEmpty()) {
                    state = State.IP;
                    send(ctx, "REPLCONF", "ip-address", handshake.announceIp());
                } else {
                    sendCapa(ctx);
                }
            }
            case IP -> {
                if (line.startsWith("-")) {
                    LOG.info("(Non critical) Master does not understand REPLCONF ip-address: {}", line);
                }
                sendCapa(ctx);
            }
            case CAPA -> {
                if (line.startsWith("-")) {
                    LOG.info("(Non critical) Master does not understand REPLCONF capa: {}", line);
                }
                state = State.PSYNC;
                if (handshake.psyncId() == null) {
                    LOG.info("Partial resynchronization not possible (no cached master)");
                    psync(ctx, "?", "-1");
                } else {
                    LOG.info("Trying a partial resynchronization (request {}:{}).", handshake.psyncId(),
                            handshake.psyncOffset());
                    psync(ctx, handshake.psyncId(), Long.toString(handshake.psyncOffset()));
                }
            }
            case PSYNC -> {
                return psyncReply(ctx, line);
            }
            case BULK_HEADER -> bulkHeader(line);
            default -> throw new IllegalStateException("no reply expected in state " + state);
        }
        return true;
    }

    private void psync(ChannelHandlerContext ctx, String id, String offset) {
        if (handshake.failover()) {
            send(ctx, "PSYNC", id, offset, "FAILOVER");
        } else {
            send(ctx, "PSYNC", id, offset);
        }
    }

    private boolean psyncReply(ChannelHandlerContext ctx, String line) throws IOException {
        if (line.isEmpty()) {
            return true;
        }
        if (line.startsWith("+FULLRESYNC")) {
            String[] parts = line.split(" ");
            if (parts.length != 3 || parts[1].length() != 40) {
                return fail(ctx, "Master replied with wrong +FULLRESYNC syntax: " + line);
            }
            String id = parts[1];
            long offset = Long.parseLong(parts[2]);
            LOG.info("Full resync from master: {}:{}", id, offset);
            state = State.BULK_HEADER;
            owner.post(() -> owner.fullResync(this, id, offset));
            return true;
        }
        if (line.startsWith("+CONTINUE")) {
            String id = line.length() > "+CONTINUE ".length() ? line.substring("+CONTINUE ".length()).trim() : "";
            LOG.info("Successful partial resynchronization with master.");
            state = State.STREAM;
            String newId = id.length() == 40 ? id : null;
            owner.post(() -> owner.continued(this, newId));
            return true;
        }
        if (line.startsWith("-NOMASTERLINK") || line.startsWith("-LOADING")) {
            LOG.info("Master is currently unable to PSYNC but should be in the future: {}", line);
        } else {
            LOG.warn("Unexpected reply to PSYNC from master: {}", line);
        }
        if (handshake.failover()) {
            owner.post(() -> owner.failoverRefused(this));
        }
        return fail(ctx, null);
    }

    private void bulkHeader(String line) throws IOException {
        if (line.isEmpty()) {
            // A newline the primary sends while it prepares the payload.
            return;
        }
        if (line.startsWith("-")) {
            throw new IOException("MASTER aborted replication with an error: " + line.substring(1));
        }
        if (!line.startsWith("$")) {
            throw new IOException("Bad protocol from MASTER, the first byte is not '$' (we received '" + line
                    + "'), are you sure the host and port are right?");
        }
        if (line.startsWith("$EOF:") && line.length() >= 5 + EOF_MARK_LENGTH) {
            eofMark = line.substring(5, 5 + EOF_MARK_LENGTH).getBytes(StandardCharsets.ISO_8859_1);
            left = -1;
            LOG.info("MASTER <-> REPLICA sync: receiving streamed RDB from master with EOF to disk");
        } else {
            left = Long.parseLong(line.substring(1));
            transferSize = left;
            LOG.info("MASTER <-> REPLICA sync: receiving {} bytes from master to disk", left);
        }
        file = FileChannel.open(handshake.tempFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        state = State.PAYLOAD;
    }

    /** Writes what arrived of the payload; true once it is complete. */
    private boolean payload() throws IOException {
        int n = pending.readableBytes();
        if (left >= 0) {
            int take = (int) Math.min(n, left);
            write(take);
            left -= take;
            if (left > 0) {
                return false;
            }
            payloadDone(0);
            return true;
        }
        if (n == 0) {
            return false;
        }
        // The stream may follow the mark in the same read: stop right after the mark.
        int at = pending.readerIndex();
        byte last = eofMark[EOF_MARK_LENGTH - 1];
        for (int i = 0; i < n; i++) {
            byte b = pending.getByte(at + i);
            tail[(int) (tailFilled++ % EOF_MARK_LENGTH)] = b;
            if (b == last && tailFilled >= EOF_MARK_LENGTH && endsWithMark()) {
                write(i + 1);
                payloadDone(EOF_MARK_LENGTH);
                return true;
            }
        }
        write(n);
        return false;
    }

    private boolean endsWithMark() {
        for (int i = 0; i < EOF_MARK_LENGTH; i++) {
            if (tail[(int) ((tailFilled + i) % EOF_MARK_LENGTH)] != eofMark[i]) {
                return false;
            }
        }
        return true;
    }

    private void write(int n) throws IOException {
        ByteBuffer chunk = pending.nioBuffer(pending.readerIndex(), n);
        while (chunk.hasRemaining()) {
            file.write(chunk);
        }
        pending.skipBytes(n);
        transferRead += n;
    }

    private void payloadDone(int markBytes) throws IOException {
        if (markBytes > 0) {
            file.truncate(file.size() - markBytes);
        }
        file.force(true);
        file.close();
        file = null;
        state = State.STREAM;
        Path path = handshake.tempFile();
        owner.post(() -> owner.payloadReceived(this, path));
    }

    private void forward(ByteBuf in) {
        int n = in.readableBytes();
        if (n == 0) {
            return;
        }
        byte[] bytes = new byte[n];
        in.readBytes(bytes);
        owner.post(() -> owner.streamed(this, bytes));
    }

    private void sendPort(ChannelHandlerContext ctx) {
        state = State.PORT;
        send(ctx, "REPLCONF", "listening-port", Integer.toString(handshake.listeningPort()));
    }

    private void sendCapa(ChannelHandlerContext ctx) {
        state = State.CAPA;
        send(ctx, "REPLCONF", "capa", "eof", "capa", "psync2");
    }

    /** A reply line without its CRLF, or null if none is complete. */
    private String readLine() {
        int nl = pending.indexOf(pending.readerIndex(), pending.writerIndex(), (byte) '\n');
        if (nl < 0) {
            return null;
        }
        int len = nl - pending.readerIndex();
        String line = pending.toString(pending.readerIndex(), len, StandardCharsets.ISO_8859_1);
        pending.readerIndex(nl + 1);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    static void send(ChannelHandlerContext ctx, String... args) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(command(args)));
    }

    /** {@code args} as a RESP multibulk. */
    static byte[] command(String... args) {
        StringBuilder sb = new StringBuilder();
        sb.append('*').append(args.length).append("\r\n");
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private boolean fail(ChannelHandlerContext ctx, String reason) {
        if (reason != null) {
            LOG.warn("{}", reason);
        }
        state = State.DONE;
        ctx.close();
        return false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.DONE;
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (file != null) {
            try {
                file.close();
                Files.deleteIfExists(handshake.tempFile());
            } catch (IOException e) {
                LOG.debug("Could not remove the partial sync file {}", handshake.tempFile(), e);
            }
            file = null;
        }
        owner.post(() -> owner.linkClosed(this));
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Error on the link with the master", cause);
        ctx.close();
    }
}
