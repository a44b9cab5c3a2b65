package dev.ebb.server.replication;

import dev.ebb.server.Client;
import dev.ebb.server.Propagation;
import dev.ebb.server.Server;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The propagation sink of a primary: encodes each operation as a RESP command (preceded by SELECT
 * when its database differs from the last one written, as Redis's replicationFeedSlaves) and feeds
 * it to {@link ReplicationState#feed}, which appends it to the backlog and the attached replicas.
 *
 * <p>Attached to the propagation stream only while a backlog exists (as Redis feeds nothing without
 * one). A replica ignores its own propagation: it proxies its primary's bytes instead, which the
 * replica side feeds. {@link #forceSelect} makes the next command carry a SELECT (a full sync
 * starts: the replica's database after loading is that of the RDB's repl-stream-db, 0).
 *
 * <p>One reusable buffer; one copy of each command per replica that takes it. Loop thread only.
 */
final class ReplicationStream implements Propagation.Sink {
    private static final byte[] SELECT = "SELECT".getBytes(StandardCharsets.US_ASCII);

    private final Server server;
    private final ReplicationState state;
    private byte[] buf = new byte[1024];
    private int len;
    private int selectedDb = -1;

    ReplicationStream(Server server) {
        this.server = server;
        this.state = server.replication();
    }

    @Override
    public void propagate(int db, byte[][] argv) {
        if (state.replica() || state.backlog() == null) {
            return;
        }
        feed(db, argv);
        Client c = server.currentClient();
        if (c != null) {
            c.replOffset(state.offset());
        }
    }

    /** Feeds one command of the primary's own (PING, REPLCONF GETACK): {@code db} -1 selects nothing. */
    void feed(int db, byte[][] argv) {
        len = 0;
        if (db != -1 && db != selectedDb) {
            encode(new byte[][] {SELECT, Integer.toString(db).getBytes(StandardCharsets.US_ASCII)});
            selectedDb = db;
        }
        encode(argv);
        state.feed(buf, 0, len);
    }

    /** The next command goes with a SELECT, whatever database it is in. */
    void forceSelect() {
        selectedDb = -1;
    }

    private void encode(byte[][] argv) {
        header('*', argv.length);
        for (byte[] arg : argv) {
            header('$', arg.length);
            ensure(arg.length + 2);
            System.arraycopy(arg, 0, buf, len, arg.length);
            len += arg.length;
            buf[len++] = '\r';
            buf[len++] = '\n';
        }
    }

    private void header(char type, int n) {
        byte[] digits = Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
        ensure(digits.length + 3);
        buf[len++] = (byte) type;
        System.arraycopy(digits, 0, buf, len, digits.length);
        len += digits.length;
        buf[len++] = '\r';
        buf[len++] = '\n';
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
