package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.Server;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * redis-cli, run as a user runs it, against the in-process server: one-shot commands and their
 * options, RESP3, and the keyspace tools (--scan, --bigkeys, --memkeys). The modes that run until
 * stopped are in {@link RedisCliLiveModesTest}, --pipe in {@link RedisCliPipeTest}, the
 * interactive prompt in {@link RedisCliInteractiveTest}.
 */
class RedisCliTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void pingPrintsPong() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("ping");

        assertEquals(0, result.exitCode(), result::describe);
        assertEquals(List.of("PONG"), result.lines(), result::describe);
    }

    @Test
    void rawOutputIsTheDefaultWhenStdoutIsNotATerminal() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result set = cli.run("set", "greeting", "hello world");
        RedisCli.Result raw = cli.run("get", "greeting");
        RedisCli.Result formatted = cli.run("--no-raw", "get", "greeting");
        RedisCli.Result missing = cli.run("--no-raw", "get", "missing");

        assertEquals(List.of("OK"), set.lines(), set::describe);
        assertEquals(List.of("hello world"), raw.lines(), raw::describe);
        assertEquals(List.of("\"hello world\""), formatted.lines(), formatted::describe);
        assertEquals(List.of("(nil)"), missing.lines(), missing::describe);
    }

    @Test
    void databaseOptionSelectsTheDatabase() {
        RedisCli cli = RedisCli.against(ebb.port());

        cli.run("-n", "3", "set", "k", "in-db3");
        RedisCli.Result inDb0 = cli.run("--no-raw", "get", "k");
        RedisCli.Result inDb3 = cli.run("--no-raw", "-n", "3", "get", "k");

        assertEquals(List.of("(nil)"), inDb0.lines(), inDb0::describe);
        assertEquals(List.of("\"in-db3\""), inDb3.lines(), inDb3::describe);
    }

    @Test
    void repeatOptionRunsTheCommandNTimes() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("-r", "3", "incr", "counter");

        assertEquals(List.of("1", "2", "3"), result.lines(), result::describe);
    }

    @Test
    void stdinOptionSendsStandardInputAsTheLastArgument() throws IOException {
        RedisCli cli = RedisCli.against(ebb.port());
        Path input = Files.createTempFile("redis-cli-x", ".txt");
        try {
            Files.writeString(input, "line1\nline2");

            RedisCli.Result set = cli.runWithInput(input, RedisCli.QUICK, "-x", "set", "blob");
            RedisCli.Result get = cli.run("--no-raw", "get", "blob");

            assertEquals(List.of("OK"), set.lines(), set::describe);
            assertEquals(List.of("\"line1\\nline2\""), get.lines(), get::describe);
        } finally {
            Files.deleteIfExists(input);
        }
    }

    @Test
    void errorsExitWithOneOnlyWithTheErrorOption() {
        RedisCli cli = RedisCli.against(ebb.port());
        cli.run("set", "text", "abc");

        RedisCli.Result plain = cli.run("incr", "text");
        RedisCli.Result withE = cli.run("-e", "incr", "text");

        assertEquals(0, plain.exitCode(), plain::describe);
        assertEquals("ERR value is not an integer or out of range", plain.lines().get(0), plain::describe);
        assertEquals(1, withE.exitCode(), withE::describe);
        assertEquals("ERR value is not an integer or out of range\n", withE.stderr(), withE::describe);
    }

    @Test
    void resp3HelloPrintsTheServerDescriptionAsAMap() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("-3", "--no-raw", "hello", "3");

        assertEquals(0, result.exitCode(), result::describe);
        List<String> lines = result.lines();
        assertEquals(7, lines.size(), result::describe);
        assertEquals("1# \"server\" => \"redis\"", lines.get(0), result::describe);
        assertEquals("2# \"version\" => \"" + Server.REDIS_VERSION + "\"", lines.get(1), result::describe);
        assertEquals("3# \"proto\" => (integer) 3", lines.get(2), result::describe);
        assertTrue(lines.get(3).matches("4# \"id\" => \\(integer\\) [1-9][0-9]*"), result::describe);
        assertEquals("5# \"mode\" => \"standalone\"", lines.get(4), result::describe);
        assertEquals("6# \"role\" => \"master\"", lines.get(5), result::describe);
        assertEquals("7# \"modules\" => (empty array)", lines.get(6), result::describe);
    }

    @Test
    void resp2HelloPrintsTheSameDescriptionAsAFlatArray() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("-2", "--no-raw", "hello", "2");

        List<String> lines = result.lines();
        assertEquals(14, lines.size(), result::describe);
        assertEquals(" 1) \"server\"", lines.get(0), result::describe);
        assertEquals(" 5) \"proto\"", lines.get(4), result::describe);
        assertEquals(" 6) (integer) 2", lines.get(5), result::describe);
        assertEquals("14) (empty array)", lines.get(13), result::describe);
    }

    @Test
    void resp3ConfigGetPrintsAMapAndResp2AFlatArray() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result resp3 = cli.run("-3", "--no-raw", "config", "get", "maxmemory-policy");
        RedisCli.Result resp2 = cli.run("-2", "--no-raw", "config", "get", "maxmemory-policy");
        RedisCli.Result resp3Null = cli.run("-3", "--no-raw", "get", "missing");

        assertEquals(List.of("1# \"maxmemory-policy\" => \"noeviction\""), resp3.lines(), resp3::describe);
        assertEquals(List.of("1) \"maxmemory-policy\"", "2) \"noeviction\""), resp2.lines(), resp2::describe);
        assertEquals(List.of("(nil)"), resp3Null.lines(), resp3Null::describe);
    }

    @Test
    void scanWithPatternListsExactlyTheMatchingKeys() {
        Set<String> matching = new HashSet<>();
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            Pipeline p = jedis.pipelined();
            for (int i = 0; i < 500; i++) {
                p.set("k:" + i, "v");
                matching.add("k:" + i);
                p.set("other:" + i, "v");
            }
            p.set("k", "no colon");
            p.set("xk:1", "prefix");
            p.sync();
        }
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("--scan", "--pattern", "k:*");

        assertEquals(0, result.exitCode(), result::describe);
        assertEquals(matching, new HashSet<>(result.lines()), result::describe);
    }

    @Test
    void bigkeysNamesTheBiggestStringKey() {
        int keys = fillKeyspaceWithStrings();
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("--bigkeys");

        assertEquals(0, result.exitCode(), result::describe);
        assertTrue(result.stdout().contains("Biggest string found '\"big\"' has 1000 bytes"), result::describe);
        assertTrue(result.stdout().contains("Sampled " + keys + " keys in the keyspace!"), result::describe);
        assertTrue(result.stdout().contains(keys + " strings with "), result::describe);
    }

    @Test
    void memkeysNamesTheStringKeyUsingTheMostMemory() {
        int keys = fillKeyspaceWithStrings();
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("--memkeys");

        assertEquals(0, result.exitCode(), result::describe);
        Matcher biggest = Pattern.compile("Biggest string found '\"big\"' has (\\d+) bytes").matcher(result.stdout());
        assertTrue(biggest.find(), result::describe);
        assertTrue(Long.parseLong(biggest.group(1)) >= 1000, result::describe);
        assertTrue(result.stdout().contains("Sampled " + keys + " keys in the keyspace!"), result::describe);
    }

    /** 20 short strings and one of 1,000 bytes named "big"; returns the number of keys. */
    private static int fillKeyspaceWithStrings() {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < 20; i++) {
                jedis.set("small:" + i, "value-" + i);
            }
            jedis.set("big", "x".repeat(1000));
            return 21;
        }
    }
}
