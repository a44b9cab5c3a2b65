package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * CLIENT ID, SETNAME, GETNAME, SETINFO, LIST, INFO, NO-EVICT, NO-TOUCH and HELP; KILL is in
 * {@link ClientKillCommandTest}. Error texts were checked against a real redis-server (7.0 for the
 * subcommands it has, the Redis 7.2 sources for SETINFO and NO-TOUCH).
 */
class ClientCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    /** Redis 7.2's CLIENT LIST fields, in order. */
    static final List<String> FIELDS = List.of("id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db", "sub",
            "psub", "ssub", "multi", "qbuf", "qbuf-free", "argv-mem", "multi-mem", "rbs", "rbp", "obl", "oll", "omem",
            "tot-mem", "events", "cmd", "user", "redir", "resp", "lib-name", "lib-ver");

    static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    /** One CLIENT LIST line as field to value, in the line's order. */
    static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : line.trim().split(" ")) {
            int eq = pair.indexOf('=');
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return fields;
    }

    static List<Map<String, String>> parseList(String text) {
        List<Map<String, String>> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                lines.add(parse(line));
            }
        }
        return lines;
    }

    @Test
    void clientIdShouldBeUniquePerConnectionAndStable() {
        try (Jedis a = connect(); Jedis b = connect()) {
            long idA = a.clientId();
            long idB = b.clientId();

            assertTrue(idA > 0 && idB > 0);
            assertFalse(idA == idB);
            assertEquals(idA, a.clientId());
            assertEquals("ERR wrong number of arguments for 'client|id' command", error(a, "CLIENT", "ID", "x"));
        }
    }

    @Test
    void getredirShouldAnswerMinusOneWithoutTracking() {
        try (Jedis j = connect()) {
            assertEquals(-1L, raw(j, "CLIENT", "GETREDIR"));
            assertEquals("ERR wrong number of arguments for 'client|getredir' command",
                    error(j, "CLIENT", "GETREDIR", "x"));
        }
    }

    @Test
    void setnameShouldNameTheConnectionAndAnEmptyNameShouldClearIt() {
        try (Jedis j = connect()) {
            assertNull(j.clientGetname());

            assertEquals("OK", j.clientSetname("worker-1"));
            assertEquals("worker-1", j.clientGetname());
            assertEquals("worker-1", parse(j.clientInfo()).get("name"));

            assertEquals("OK", j.clientSetname(""));
            assertNull(j.clientGetname());
        }
    }

    @Test
    void setnameShouldRejectSpacesNewlinesAndNonPrintableBytes() {
        try (Jedis j = connect()) {
            for (String bad : new String[] {"a b", "a\nb", "tab\t", "\u0001", "\u007f", "caf\u00e9"}) {
                assertEquals("ERR Client names cannot contain spaces, newlines or special characters.",
                        error(j, "CLIENT", "SETNAME", bad), "name " + bad);
            }
            assertEquals("ERR wrong number of arguments for 'client|setname' command", error(j, "CLIENT", "SETNAME"));
            assertEquals("ERR wrong number of arguments for 'client|getname' command",
                    error(j, "CLIENT", "GETNAME", "x"));
        }
    }

    @Test
    void setinfoShouldRecordLibraryNameAndVersion() {
        try (Jedis j = connect()) {
            assertEquals("OK", SafeEncoder.encode((byte[]) raw(j, "CLIENT", "SETINFO", "LIB-NAME", "my-lib")));
            assertEquals("OK", SafeEncoder.encode((byte[]) raw(j, "CLIENT", "SETINFO", "lib-ver", "1.2.3")));

            Map<String, String> info = parse(j.clientInfo());
            assertEquals("my-lib", info.get("lib-name"));
            assertEquals("1.2.3", info.get("lib-ver"));

            raw(j, "CLIENT", "SETINFO", "lib-ver", "");
            assertEquals("", parse(j.clientInfo()).get("lib-ver"));
        }
    }

    @Test
    void setinfoShouldRejectUnknownAttributesAndBadValues() {
        try (Jedis j = connect()) {
            assertEquals("ERR Unrecognized option 'lib-foo'", error(j, "CLIENT", "SETINFO", "lib-foo", "x"));
            assertEquals("ERR LIB-NAME cannot contain spaces, newlines or special characters.",
                    error(j, "CLIENT", "SETINFO", "LIB-NAME", "my lib"));
            assertEquals("ERR lib-ver cannot contain spaces, newlines or special characters.",
                    error(j, "CLIENT", "SETINFO", "lib-ver", "1\n2"));
            assertEquals("ERR wrong number of arguments for 'client|setinfo' command",
                    error(j, "CLIENT", "SETINFO", "lib-name"));
        }
    }

    @Test
    void jedisShouldAnnounceItselfWithSetinfo() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), DefaultJedisClientConfig.builder().build())) {
            assertEquals("jedis", parse(j.clientInfo()).get("lib-name"));
        }
    }

    @Test
    void clientInfoShouldCarryRedisFieldsInRedisOrder() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SELECT", "4");
            s.call("CLIENT", "SETNAME", "probe");

            String reply = s.call("CLIENT", "INFO");

            String line = reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
            assertTrue(line.endsWith("\n"), "line ends with a newline");
            Map<String, String> info = parse(line);
            assertEquals(FIELDS, new ArrayList<>(info.keySet()));
            assertEquals(s.localAddress(), info.get("addr"));
            assertTrue(info.get("laddr").endsWith(":" + ebb.port()), info.get("laddr"));
            int fd = Integer.parseInt(info.get("fd"));
            assertTrue(fd == -1 || fd > 2, "fd " + fd);
            assertEquals("probe", info.get("name"));
            assertEquals("N", info.get("flags"));
            assertEquals("4", info.get("db"));
            assertEquals("-1", info.get("multi"));
            assertEquals("client|info", info.get("cmd"));
            assertEquals("default", info.get("user"));
            assertEquals("-1", info.get("redir"));
            assertEquals("2", info.get("resp"));
            assertEquals("10", info.get("argv-mem"), "CLIENT INFO is 6 + 4 bytes of arguments");
            assertEquals("r", info.get("events"));
        }
    }

    @Test
    void ageAndIdleShouldFollowTheServerClock() {
        try (Jedis j = connect(); Jedis watcher = connect()) {
            String id = String.valueOf(j.clientId());
            ebb.advanceClock(42_000);

            Map<String, String> seen = null;
            for (Map<String, String> line : parseList(watcher.clientList())) {
                if (line.get("id").equals(id)) {
                    seen = line;
                }
            }

            assertEquals("42", seen.get("age"));
            assertEquals("42", seen.get("idle"));
            assertEquals("client|id", seen.get("cmd"));
        }
    }

    @Test
    void clientInfoShouldBeVerbatimTextInResp3() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("HELLO", "3");

            String info = s.call("CLIENT", "INFO");
            String list = s.call("CLIENT", "LIST");

            assertTrue(info.startsWith("="), info);
            assertTrue(info.contains("\r\ntxt:id="), info);
            assertTrue(info.contains(" resp=3 "), info);
            assertTrue(list.startsWith("=") && list.contains("\r\ntxt:id="), list);
        }
    }

    @Test
    void clientListShouldShowEveryConnectionOnce() {
        try (Jedis a = connect(); Jedis b = connect(); Jedis c = connect()) {
            a.clientSetname("a");
            b.clientSetname("b");
            waitForClients(c, 3);

            List<Map<String, String>> lines = parseList(c.clientList());

            List<String> names = new ArrayList<>();
            for (Map<String, String> line : lines) {
                assertEquals(FIELDS, new ArrayList<>(line.keySet()));
                names.add(line.get("name"));
            }
            assertEquals(List.of("a", "b", ""), names);
            assertEquals("client|list", lines.get(lines.size() - 1).get("cmd"), "newest connection last");
        }
    }

    @Test
    void clientListShouldFilterByTypeAndId() {
        try (Jedis a = connect(); Jedis b = connect()) {
            long idA = a.clientId();
            long idB = b.clientId();
            waitForClients(b, 2);

            assertEquals(2, parseList(sendText(b, "CLIENT", "LIST", "TYPE", "normal")).size());
            for (String type : new String[] {"pubsub", "master", "replica", "slave", "PUBSUB"}) {
                assertEquals("", sendText(b, "CLIENT", "LIST", "TYPE", type), type);
            }
            List<Map<String, String>> picked = parseList(sendText(b, "CLIENT", "LIST", "ID", String.valueOf(idB),
                    "999999", String.valueOf(idA), "0", "-5"));
            assertEquals(2, picked.size());
            assertEquals(String.valueOf(idB), picked.get(0).get("id"));
            assertEquals(String.valueOf(idA), picked.get(1).get("id"));
        }
    }

    @Test
    void clientListShouldRejectBadFiltersWithRedisTexts() {
        try (Jedis j = connect()) {
            assertEquals("ERR Unknown client type 'foo'", error(j, "CLIENT", "LIST", "TYPE", "foo"));
            assertEquals("ERR Invalid client ID", error(j, "CLIENT", "LIST", "ID", "1", "abc"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "LIST", "foo"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "LIST", "ID"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "LIST", "TYPE", "normal", "ID", "1"));
        }
    }

    @Test
    void noEvictAndNoTouchShouldSetTheirFlags() {
        try (Jedis j = connect()) {
            assertEquals("OK", SafeEncoder.encode((byte[]) raw(j, "CLIENT", "NO-EVICT", "on")));
            assertEquals("e", parse(j.clientInfo()).get("flags"));
            raw(j, "CLIENT", "NO-TOUCH", "ON");
            assertEquals("eT", parse(j.clientInfo()).get("flags"));
            raw(j, "CLIENT", "NO-EVICT", "off");
            assertEquals("T", parse(j.clientInfo()).get("flags"));
            raw(j, "CLIENT", "NO-TOUCH", "Off");
            assertEquals("N", parse(j.clientInfo()).get("flags"));

            assertEquals("ERR syntax error", error(j, "CLIENT", "NO-EVICT", "maybe"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "NO-TOUCH", "yes"));
            assertEquals("ERR wrong number of arguments for 'client|no-evict' command", error(j, "CLIENT", "NO-EVICT"));
        }
    }

    @Test
    void helpShouldListTheSubcommandsAsRedisWordsThem() {
        try (Jedis j = connect()) {
            @SuppressWarnings("unchecked")
            List<byte[]> lines = (List<byte[]>) raw(j, "CLIENT", "HELP");

            List<String> text = new ArrayList<>();
            for (byte[] line : lines) {
                text.add(SafeEncoder.encode(line));
            }
            assertEquals("CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", text.get(0));
            assertTrue(text.contains("SETINFO <option> <value>"));
            assertTrue(text.contains("    Protect current client connection from eviction."));
            assertEquals(List.of("HELP", "    Print this help."), text.subList(text.size() - 2, text.size()));
        }
    }

    @Test
    void unknownSubcommandsAndBareClientShouldGetRedisErrors() {
        try (Jedis j = connect()) {
            assertEquals("ERR unknown subcommand 'foo'. Try CLIENT HELP.", error(j, "CLIENT", "foo"));
            assertEquals("ERR wrong number of arguments for 'client' command", error(j, "CLIENT"));
        }
    }

    @Test
    void clientListOfAClosedConnectionShouldNotShowIt() {
        long gone;
        try (Jedis a = connect()) {
            gone = a.clientId();
        }
        try (Jedis j = connect()) {
            waitUntilGone(j, gone);

            for (Map<String, String> line : parseList(j.clientList())) {
                assertFalse(line.get("id").equals(String.valueOf(gone)));
            }
        }
    }

    /**
     * Closed sockets of earlier tests are unregistered asynchronously; polls (for up to 5 s) until
     * exactly {@code count} clients are connected.
     */
    static void waitForClients(Jedis j, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (parseList(j.clientList()).size() == count) {
                return;
            }
            pause();
        }
        throw new AssertionError("expected " + count + " clients: " + j.clientList());
    }

    /** A closed socket is unregistered asynchronously; polls (for up to 5 s) until the id is gone. */
    static void waitUntilGone(Jedis j, long id) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (sendText(j, "CLIENT", "LIST", "ID", String.valueOf(id)).isEmpty()) {
                return;
            }
            pause();
        }
        throw new AssertionError("client " + id + " still listed");
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling CLIENT LIST", e);
        }
    }

    static String sendText(Jedis j, String... args) {
        return SafeEncoder.encode((byte[]) raw(j, args));
    }

    /** True when {@code j}'s connection has been closed by the server. */
    static boolean isClosed(Jedis j) {
        try {
            j.ping();
            return false;
        } catch (JedisConnectionException e) {
            return true;
        }
    }

    @Test
    void qbufShouldShowTheUnfinishedCommandAClientHasSent() throws Exception {
        try (java.net.Socket partial = new java.net.Socket(ebb.host(), ebb.port());
                Jedis j = new Jedis(ebb.host(), ebb.port())) {
            partial.getOutputStream().write("CLIENT SETNAME partial\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            partial.getInputStream().readNBytes(5);
            String unfinished = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\nabc";
            partial.getOutputStream().write(unfinished.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            partial.getOutputStream().flush();

            long qbuf = 0;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (qbuf == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
                for (String line : j.clientList().split("\n")) {
                    if (line.contains(" name=partial ")) {
                        qbuf = Long.parseLong(line.replaceAll(".* qbuf=(\\d+) .*", "$1"));
                    }
                }
            }
            String own = j.clientInfo();

            assertTrue(qbuf > 0 && qbuf <= unfinished.length(), "qbuf=" + qbuf);
            // Jedis sends *2\r\n$6\r\nCLIENT\r\n$4\r\nINFO\r\n: 26 bytes, still in Redis's buffer as it runs.
            assertTrue(own.contains(" qbuf=26 "), own);
        }
    }
}
