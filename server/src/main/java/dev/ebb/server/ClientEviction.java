package dev.ebb.server;

import dev.ebb.resp.RespDecoder;
import dev.ebb.server.command.ClientCommands;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client eviction ({@code maxmemory-clients}): when the memory of the evictable clients together
 * passes the limit, the clients using the most are closed, largest first, until the total is
 * under it again (INFO {@code evicted_clients}). A client's memory is what Ebb holds for it: its
 * pending output (CLIENT LIST {@code omem}) and its unfinished request ({@code qbuf}). Clients with
 * CLIENT NO-EVICT ON are never evicted and not counted, as in Redis; the client running the check
 * may be evicted too.
 *
 * <p>Where Redis keeps clients in memory buckets updated on every change, Ebb sums the clients when
 * it checks: after each batch of commands and on every cron tick, O(clients) each time, and only
 * while {@code maxmemory-clients} is set (otherwise one branch). Command loop thread only.
 */
final class ClientEviction {
    private static final Logger LOG = LoggerFactory.getLogger(ClientEviction.class);

    private ClientEviction() {
    }

    /** Evicts clients while their total memory is over {@code maxmemory-clients}; returns how many. */
    static int enforce(Server server) {
        long limit = server.config().maxmemoryClients();
        if (limit == 0) {
            return 0;
        }
        long total = 0;
        List<Client> candidates = null;
        for (Client c : server.clients()) {
            if (c.hasFlag(Client.FLAG_NO_EVICT) || c.closing()) {
                continue;
            }
            long memory = memory(c);
            total += memory;
            if (memory > 0) {
                if (candidates == null) {
                    candidates = new ArrayList<>();
                }
                candidates.add(c);
            }
        }
        if (total <= limit || candidates == null) {
            return 0;
        }
        List<long[]> sized = new ArrayList<>(candidates.size());
        for (int i = 0; i < candidates.size(); i++) {
            sized.add(new long[] {memory(candidates.get(i)), i});
        }
        sized.sort((a, b) -> Long.compare(b[0], a[0]));
        int evicted = 0;
        for (long[] entry : sized) {
            if (total <= limit) {
                break;
            }
            Client victim = candidates.get((int) entry[1]);
            LOG.info("Evicting client: {}", ClientCommands.describe(victim, server.nowMs()));
            total -= entry[0];
            victim.kill();
            server.stats().evictedClients++;
            evicted++;
        }
        return evicted;
    }

    /** What Ebb holds for {@code c}: pending output plus the unfinished request. */
    static long memory(Client c) {
        RespDecoder decoder = c.decoder();
        return c.outputBytes() + (decoder == null ? 0 : decoder.queryBufferBytes());
    }
}
