package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.MigrateParams;

/**
 * MIGRATE keeps its connection to a target between calls, as Redis's migrate_cached_sockets: one
 * connection for many calls, SELECT only when the database changes, and a call on a connection the
 * target has closed meanwhile retried once on a new one.
 */
class MigrateSocketCacheTest {
    @RegisterExtension
    static final EbbExtension source = new EbbExtension();
    @RegisterExtension
    static final EbbExtension target = new EbbExtension();

    private static long stat(Jedis j, String section, String field) {
        for (String line : j.info(section).split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " not in INFO " + section);
    }

    @Test
    void manyMigratesShouldShareOneConnectionAndSurviveItsLoss() {
        try (Jedis s = new Jedis(source.host(), source.port()); Jedis t = new Jedis(target.host(), target.port())) {
            for (int i = 0; i < 5; i++) {
                s.set("k" + i, "v" + i);
            }
            long connectionsBefore = stat(t, "stats", "total_connections_received");

            assertEquals("OK", s.migrate(target.host(), target.port(), "k0", 0, 5000));
            assertEquals("OK", s.migrate(target.host(), target.port(), "k1", 0, 5000));
            assertEquals("OK", s.migrate(target.host(), target.port(), 3, 5000, new MigrateParams(), "k2"));
            assertEquals("OK", s.migrate(target.host(), target.port(), "k3", 0, 5000));

            assertEquals(1, stat(s, "stats", "migrate_cached_sockets"));
            assertEquals(connectionsBefore + 1, stat(t, "stats", "total_connections_received"));
            assertEquals("v0", t.get("k0"));
            assertEquals("v1", t.get("k1"));
            assertEquals("v3", t.get("k3"), "back on database 0 after the MIGRATE to 3");
            t.select(3);
            assertEquals("v2", t.get("k2"));
            t.select(0);

            // The target drops every other connection, the cached one included: the next MIGRATE
            // finds it closed, reconnects and succeeds.
            t.clientKill(redis.clients.jedis.params.ClientKillParams.clientKillParams()
                    .type(redis.clients.jedis.args.ClientType.NORMAL).skipMe(redis.clients.jedis.params.ClientKillParams.SkipMe.YES));
            assertEquals("OK", s.migrate(target.host(), target.port(), "k4", 0, 5000));

            assertEquals("v4", t.get("k4"));
            assertEquals(0L, s.exists("k0", "k1", "k2", "k3", "k4"));
            assertEquals(1, stat(s, "stats", "migrate_cached_sockets"));
            assertEquals(connectionsBefore + 2, stat(t, "stats", "total_connections_received"));
        }
    }
}
