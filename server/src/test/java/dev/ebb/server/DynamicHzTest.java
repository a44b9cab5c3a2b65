package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.Commands;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class DynamicHzTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("hz", "1");

    private static Server server(String configText) throws Exception {
        return new Server(ServerConfig.fromText(configText), Commands.table(), () -> 1_000L, 7, () -> { });
    }

    @Test
    void hzShouldDoubleUntilAtMost200ClientsPerTickAndCapAt500() throws Exception {
        Server s = server("hz 10\ndynamic-hz yes\n");

        assertFalse(s.updateHz(2009), "2009 clients / 10 Hz = 200 per tick (integer division, as Redis)");
        assertEquals(10, s.hz());
        assertTrue(s.updateHz(2010));
        assertEquals(20, s.hz());
        assertTrue(s.updateHz(50_000));
        assertEquals(320, s.hz());
        assertTrue(s.updateHz(1_000_000));
        assertEquals(500, s.hz());
        assertTrue(s.updateHz(3));
        assertEquals(10, s.hz());
    }

    @Test
    void hzShouldStayAtTheConfiguredValueWithoutDynamicHz() throws Exception {
        Server s = server("hz 10\ndynamic-hz no\n");

        assertFalse(s.updateHz(1_000_000));

        assertEquals(10, s.hz());
    }

    @Test
    void infoShouldReportTheRaisedHzWhileManyClientsAreConnected() throws Exception {
        List<Jedis> many = new ArrayList<>();
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("1", field(j.info("server"), "hz"));
            for (int i = 0; i < 250; i++) {
                Jedis c = new Jedis(ebb.host(), ebb.port());
                c.ping();
                many.add(c);
            }
            // 251 clients at 1 Hz: more than 200 per tick, so the next cron tick doubles hz.
            String raised = awaitHz(j, "2");
            many.forEach(Jedis::close);
            many.clear();
            String lowered = awaitHz(j, "1");

            assertEquals("2", raised);
            assertEquals("1", lowered);
            assertEquals("1", field(j.info("server"), "configured_hz"));
        } finally {
            many.forEach(Jedis::close);
        }
    }

    private static String awaitHz(Jedis j, String expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String hz = field(j.info("server"), "hz");
        while (!hz.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            hz = field(j.info("server"), "hz");
        }
        return hz;
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + " in INFO");
    }
}
