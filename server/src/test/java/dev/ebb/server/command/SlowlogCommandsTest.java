package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.Slowlog;

/**
 * SLOWLOG. Expected argument lists were recorded from redis-server 7.0 running the same commands
 * (see the README's operations section); the raw-protocol checks compare the reply bytes.
 */
class SlowlogCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("enable-debug-command", "yes");

    @BeforeEach
    void resetSlowlog() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.configSet("slowlog-log-slower-than", "10000");
            j.configSet("slowlog-max-len", "128");
            j.configSet("requirepass", "");
            j.slowlogReset();
        }
    }

    @Test
    void aCommandSlowerThanTheThresholdShouldBeLoggedWithItsDurationAddressAndName() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb); Jedis j = new Jedis(ebb.host(), ebb.port())) {
            s.call("CLIENT", "SETNAME", "sleeper");
            // 40 ms, not 10: a GC pause or a stolen vCPU must not log the fast commands around the sleep too.
            j.configSet("slowlog-log-slower-than", "40000");

            assertEquals("+OK\r\n", s.call("DEBUG", "SLEEP", "0.1"));
            s.call("GET", "fast");
            List<Slowlog> log = j.slowlogGet();

            assertEquals(1, log.size());
            Slowlog entry = log.get(0);
            assertEquals(List.of("DEBUG", "SLEEP", "0.1"), entry.getArgs());
            assertTrue(entry.getExecutionTime() >= 100_000, "µs: " + entry.getExecutionTime());
            assertTrue(Math.abs(entry.getTimeStamp() - System.currentTimeMillis() / 1000) <= 2);
            assertEquals(s.localAddress(), entry.getClientIpPort().toString());
            assertEquals("sleeper", entry.getClientName());
        }
    }

    @Test
    void zeroShouldLogEveryCommandAndANegativeThresholdNone() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.configSet("slowlog-log-slower-than", "0");
            j.set("a", "1");
            j.get("a");
            j.configSet("slowlog-log-slower-than", "-1");
            j.get("a");
            j.get("a");
            long len = j.slowlogLen();

            // As in Redis, the threshold is read after a command ran: CONFIG SET to 0 is logged, to -1 is not.
            assertEquals(3, len);
            List<String> newest = j.slowlogGet(1).get(0).getArgs();
            assertEquals(List.of("GET", "a"), newest);
        }
    }

    @Test
    void argumentsShouldBeTrimmedTo32AndEachTo128BytesAsRedisDoes() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
            s.call("SLOWLOG", "RESET");
            String[] exists = new String[42];
            exists[0] = "EXISTS";
            for (int i = 1; i < exists.length; i++) {
                exists[i] = "a" + i;
            }
            s.call(exists);
            String[] longValue = {"SET", "k", "x".repeat(200)};
            s.call(longValue);

            String reply = s.call("SLOWLOG", "GET", "2");

            StringBuilder trimmed = new StringBuilder("*32\r\n");
            for (int i = 0; i < 31; i++) {
                trimmed.append(bulk(exists[i]));
            }
            trimmed.append(bulk("... (11 more arguments)"));
            assertTrue(reply.contains(trimmed), reply);
            String cut = "*3\r\n" + bulk("SET") + bulk("k") + bulk("x".repeat(128) + "... (72 more bytes)");
            assertTrue(reply.contains(cut), reply);
            assertTrue(reply.startsWith("*2\r\n*6\r\n:"), reply);
        }
    }

    @Test
    void secretsShouldBeRedactedAsRedisDoes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.configSet("slowlog-log-slower-than", "0");
            j.slowlogReset();
            assertThrows(JedisDataException.class, () -> j.auth("foo"));
            j.auth("default", "foo");
            j.sendCommand(redis.clients.jedis.Protocol.Command.HELLO, "3", "auth", "default", "foo", "setname", "x");
            j.sendCommand(redis.clients.jedis.Protocol.Command.HELLO, "2");
            j.sendCommand(redis.clients.jedis.Protocol.Command.CONFIG, "set", "requirepass", "", "maxmemory", "0");
            j.clientSetname("myname");

            List<List<String>> args = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Slowlog entry : j.slowlogGet(-1)) {
                args.add(entry.getArgs());
                names.add(entry.getClientName());
            }

            assertEquals(List.of(
                    List.of("CLIENT", "SETNAME", "myname"),
                    List.of("CONFIG", "set", "requirepass", "(redacted)", "maxmemory", "0"),
                    List.of("HELLO", "2"),
                    List.of("HELLO", "3", "auth", "(redacted)", "(redacted)", "setname", "x"),
                    List.of("AUTH", "(redacted)", "(redacted)"),
                    List.of("AUTH", "(redacted)"),
                    List.of("SLOWLOG", "RESET")), args);
            assertEquals(List.of("myname", "x", "x", "x", "", "", ""), names);
        }
    }

    @Test
    void theLogShouldKeepOnlyTheNewestMaxLenEntries() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.configSet("slowlog-max-len", "3");
            j.configSet("slowlog-log-slower-than", "0");
            for (int i = 0; i < 10; i++) {
                j.set("k" + i, "v");
            }

            List<Slowlog> log = j.slowlogGet(-1);

            assertEquals(3, log.size());
            assertEquals(List.of("SET", "k9", "v"), log.get(0).getArgs());
            assertEquals(log.get(0).getId() - 2, log.get(2).getId());
            assertEquals(1, j.slowlogGet(1).size());
        }
    }

    @Test
    void commandsRefusedBeforeRunningShouldNotBeLogged() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
            s.call("SLOWLOG", "RESET");
            s.call("NOSUCHCOMMAND");
            s.call("GET");

            assertEquals(":1\r\n", s.call("SLOWLOG", "LEN"));
        }
    }

    @Test
    void badCountsAndArityShouldGetRedisErrors() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR count should be greater than or equal to -1\r\n", s.call("SLOWLOG", "GET", "x"));
            assertEquals("-ERR count should be greater than or equal to -1\r\n", s.call("SLOWLOG", "GET", "-2"));
            assertEquals("-ERR wrong number of arguments for 'slowlog|len' command\r\n", s.call("SLOWLOG", "LEN", "x"));
            assertEquals("-ERR unknown subcommand 'FOO'. Try SLOWLOG HELP.\r\n", s.call("SLOWLOG", "FOO"));
            assertEquals("*0\r\n", s.call("SLOWLOG", "GET", "0"));
        }
    }

    @Test
    void helpShouldListRedisLines() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String help = s.call("SLOWLOG", "HELP");

            assertEquals("*12\r\n+SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
                    + "+GET [<count>]\r\n"
                    + "+    Return top <count> entries from the slowlog (default: 10, -1 mean all).\r\n"
                    + "+    Entries are made of:\r\n"
                    + "+    id, timestamp, time in microseconds, arguments array, client IP and port,\r\n"
                    + "+    client name\r\n"
                    + "+LEN\r\n+    Return the length of the slowlog.\r\n+RESET\r\n+    Reset the slowlog.\r\n"
                    + "+HELP\r\n+    Print this help.\r\n", help);
        }
    }

    @Test
    void aBlockedCommandShouldBeLoggedWhenItIsServedNotWhenItBlocks() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port());
                java.net.Socket blocked = new java.net.Socket(ebb.host(), ebb.port())) {
            j.configSet("slowlog-log-slower-than", "0");
            j.slowlogReset();
            blocked.setSoTimeout(5000);
            blocked.getOutputStream().write("BLPOP queue 0\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!j.info("clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            boolean loggedWhileBlocked = j.slowlogGet().stream().anyMatch(e -> e.getArgs().get(0).equalsIgnoreCase("blpop"));

            j.rpush("queue", "job");
            String reply = "*2\r\n$5\r\nqueue\r\n$3\r\njob\r\n";
            assertEquals(reply, new String(blocked.getInputStream().readNBytes(reply.length()),
                    java.nio.charset.StandardCharsets.US_ASCII));
            List<List<String>> logged = j.slowlogGet().stream().map(Slowlog::getArgs).toList();

            assertEquals(false, loggedWhileBlocked);
            assertEquals(1, logged.stream().filter(args -> args.equals(List.of("BLPOP", "queue", "0"))).count(), logged.toString());
        }
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }
}
