package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Database;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The client a replica runs its primary's write stream as (Redis's {@code server.master}): listed by
 * CLIENT LIST with {@code flags=M}, never answered (its replies are dropped), and exempt from the
 * dispatch checks a normal client passes (read-only replica, OOM, ACL), as in Redis. Its commands
 * run through the command table with MULTI/EXEC honoured and SELECT remembered, and propagate like
 * any client's, so the replica's own AOF records them. While one runs, lazy expiry treats keys as
 * live ({@link Database.ExpiryMode#KEEP}): only the primary deletes expired keys.
 *
 * <p>Loop thread only.
 */
public final class MasterClient {
    private final Server server;
    private final Client client;

    /** Creates the master client for a link to {@code addr} and lists it among the clients. */
    public MasterClient(Server server, String addr) {
        this.server = server;
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(UnpooledByteBufAllocator.DEFAULT);
        this.client = new Client(server.loop().nextClientId(), channel, server, addr, "", server.nowMs());
        client.authenticated(true);
        client.denyBlocking(true);
        client.setFlag(Client.FLAG_MASTER, true);
        client.setFlag(Client.FLAG_IDLE_TIMEOUT_EXEMPT, true);
        server.register(client);
    }

    /**
     * Runs one command of the stream.
     *
     * @return false, running nothing, if the command table does not know it
     */
    public boolean run(byte[][] argv) {
        server.tick();
        CommandSpec spec = server.commands().resolve(argv);
        if (spec == null) {
            return false;
        }
        server.expiryMode(Database.ExpiryMode.KEEP);
        try {
            if (!(client.inMulti() && Transactions.queueOrReject(client, spec, argv))) {
                server.execute(client, spec, argv);
            }
        } finally {
            server.expiryMode(Database.ExpiryMode.HIDE);
        }
        client.reply().discardFrom(0);
        return true;
    }

    /** Continues a stream that had selected database {@code db} before the link was lost. */
    public void select(int db) {
        client.select(server.db(db));
    }

    /** The database the stream has SELECTed. */
    public int db() {
        return client.db().id();
    }

    /** Whether a MULTI of the stream is still open. */
    public boolean inMulti() {
        return client.inMulti();
    }

    public long lastInteractionMs() {
        return client.lastInteractionMs();
    }

    /** Whether CLIENT KILL closed it: the link is then dropped and reconnects, as Redis's freeClient of the master. */
    public boolean killed() {
        return client.closed();
    }

    /** Removes the client from the list (the link is gone); an open transaction is discarded. */
    public void close() {
        client.markClosed();
        server.unregister(client);
    }
}
