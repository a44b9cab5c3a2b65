package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The connection-less client an append-only file is replayed as (Redis's AOF "fake client"):
 * commands are looked up in the command table and run directly, without the dispatch checks,
 * statistics or propagation of a client's command; inside MULTI they are queued and EXEC runs
 * them, so a transaction in the file is applied whole. Replies are dropped. Loop thread only.
 */
public final class ReplayClient {
    private final Server server;
    private final Client client;

    public ReplayClient(Server server) {
        this.server = server;
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(UnpooledByteBufAllocator.DEFAULT);
        this.client = new Client(0, channel, server, "aof", "", server.nowMs());
        client.authenticated(true);
        client.denyBlocking(true);
        client.setFlag(Client.FLAG_AOF_REPLAY, true);
    }

    /**
     * Runs one command from the file.
     *
     * @return false, running nothing, if the command table does not know it
     */
    public boolean run(byte[][] argv) {
        server.tick();
        CommandSpec spec = server.commands().resolve(argv);
        if (spec == null) {
            return false;
        }
        if (!(client.inMulti() && Transactions.queueOrReject(client, spec, argv))) {
            server.execute(client, spec, argv);
        }
        client.reply().discardFrom(0);
        return true;
    }

    /** Whether a MULTI from the file is still open (its EXEC not read yet). */
    public boolean inMulti() {
        return client.inMulti();
    }
}
