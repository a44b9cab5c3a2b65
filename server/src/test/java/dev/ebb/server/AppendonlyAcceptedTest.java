package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.config.ServerCli;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.config.StartupRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@code appendonly}: accepted (file, command line, CONFIG SET) and reported by CONFIG GET, with a
 * warning that Ebb keeps no AOF yet, logged once at start-up.
 */
class AppendonlyAcceptedTest {
    private static final String WARNING =
            "WARN appendonly is 'yes' but Ebb keeps no append-only file yet: writes are not persisted";

    @Test
    void appendonlyYesShouldStartReportAndWarnOnce() throws Exception {
        StartupRequest request = ServerCli.parse(new String[] {"--port", "0", "--appendonly", "yes"});
        ServerConfig config = ((StartupRequest.StartServer) request).config();

        try (LogCapture log = new LogCapture(EbbServer.class); EbbServer server = EbbServer.start(config);
                Jedis j = new Jedis("127.0.0.1", server.port())) {

            assertEquals(Map.of("appendonly", "yes"), j.configGet("appendonly"));
            assertEquals(List.of(WARNING), log.lines());
            assertEquals("PONG", j.ping());
        }
    }

    @Test
    void appendonlyNoShouldStartSilentlyAndWarnWhenSetToYes() throws Exception {
        try (LogCapture log = new LogCapture(EbbServer.class);
                EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nappendonly no\n"));
                Jedis j = new Jedis("127.0.0.1", server.port())) {
            assertEquals(List.of(), log.lines());

            assertEquals("OK", j.configSet("appendonly", "yes"));

            assertEquals(Map.of("appendonly", "yes"), j.configGet("appendonly"));
            assertEquals(List.of(WARNING), log.lines());
        }
    }
}
