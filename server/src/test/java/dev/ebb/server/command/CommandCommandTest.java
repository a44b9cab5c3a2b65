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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.CommandListFilterByParams;
import redis.clients.jedis.resps.CommandDocument;
import redis.clients.jedis.resps.CommandInfo;
import redis.clients.jedis.util.KeyValue;
import redis.clients.jedis.util.SafeEncoder;

/**
 * COMMAND, COUNT, INFO, DOCS, LIST, GETKEYS, GETKEYSANDFLAGS and HELP: reply shapes (checked
 * byte for byte against redis-server where the content is the same) and Jedis's own parsers.
 */
class CommandCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    /** COMMAND INFO get as Redis 7 sends it in RESP2. */
    private static final String GET_INFO_RESP2 = "*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n"
            + ":1\r\n*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n+access\r\n"
            + "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
            + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n"
            + "$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n";

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    @Test
    void countShouldBeTheNumberOfTopLevelCommands() {
        try (Jedis j = connect()) {
            assertEquals(Commands.table().size(), j.commandCount());
            assertEquals("ERR wrong number of arguments for 'command|count' command",
                    error(j, "COMMAND", "COUNT", "x"));
        }
    }

    @Test
    void bareCommandShouldDescribeEveryCommand() {
        try (Jedis j = connect()) {
            List<?> all = (List<?>) raw(j, "COMMAND");

            assertEquals(Commands.table().size(), all.size());
            for (Object entry : all) {
                assertEquals(10, ((List<?>) entry).size());
            }
        }
    }

    @Test
    void infoShouldMatchRedisByteForByteForGet() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("*1\r\n" + GET_INFO_RESP2, s.call("COMMAND", "INFO", "get"));
            assertEquals("*2\r\n" + GET_INFO_RESP2 + "$-1\r\n", s.call("COMMAND", "INFO", "GET", "nosuch"));
        }
    }

    @Test
    void infoShouldUseSetsAndNullInResp3() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("HELLO", "3");

            String reply = s.call("COMMAND", "INFO", "nosuch", "get");

            assertTrue(reply.startsWith("*2\r\n_\r\n*10\r\n$3\r\nget\r\n:2\r\n~2\r\n+readonly\r\n+fast\r\n"), reply);
            assertTrue(reply.contains("~3\r\n+@read\r\n+@string\r\n+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n~2\r\n"),
                    reply);
            assertTrue(reply.endsWith("$5\r\nlimit\r\n:0\r\n~0\r\n"), reply);
        }
    }

    @Test
    void infoShouldDeriveAclCategoriesAndKeySpecsFromTheTable() {
        try (Jedis j = connect()) {
            Map<String, CommandInfo> infos = j.commandInfo("set", "ping", "config|get");

            CommandInfo set = infos.get("set");
            assertEquals(-3, set.getArity());
            assertEquals(List.of("write", "denyoom"), set.getFlags());
            assertEquals(List.of("@write", "@string", "@slow"), set.getAclCategories());
            assertEquals(List.of("@fast", "@connection"), infos.get("ping").getAclCategories());
            assertEquals(List.of("admin", "noscript", "loading", "stale"), infos.get("config|get").getFlags());
            assertEquals(List.of("@admin", "@slow", "@dangerous"), infos.get("config|get").getAclCategories());
        }
    }

    /** Jedis 5.2 cannot parse a container's nested subcommand entries, so this reads the bytes. */
    @Test
    void containersShouldNestTheirSubcommandsWithoutGroupCategory() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String client = s.call("COMMAND", "INFO", "client");

            assertTrue(client.startsWith("*1\r\n*10\r\n$6\r\nclient\r\n:-2\r\n*0\r\n:0\r\n:0\r\n:0\r\n"
                    + "*1\r\n+@slow\r\n*0\r\n*0\r\n*" + Commands.table().lookup("client").subcommands().size()
                    + "\r\n*10\r\n$9\r\nclient|id\r\n:2\r\n"), client);
            assertTrue(client.contains("$11\r\nclient|kill\r\n:-3\r\n*4\r\n+admin\r\n+noscript\r\n+loading\r\n"
                    + "+stale\r\n:0\r\n:0\r\n:0\r\n*4\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n+@connection\r\n"),
                    client);
        }
    }

    @Test
    void docsShouldDescribeSetAsRedisClientsExpect() {
        try (Jedis j = connect()) {
            Map<String, CommandDocument> docs = j.commandDocs("set", "nosuch", "client|kill");

            assertEquals(2, docs.size());
            CommandDocument set = docs.get("set");
            assertEquals("string", set.getGroup());
            assertEquals("1.0.0", set.getSince());
            assertTrue(set.getSummary().startsWith("Sets the string value of a key"));
            assertEquals("connection", docs.get("client|kill").getGroup());
        }
    }

    @Test
    void docsArgumentsShouldBeMapsOfBulkStringsWithSimpleStringFlags() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String reply = s.call("COMMAND", "DOCS", "set");

            assertTrue(reply.matches("(?s)\\*2\r\n\\$3\r\nset\r\n\\*\\d+\r\n\\$7\r\nsummary\r\n.*"), reply);
            assertTrue(reply.contains("$9\r\narguments\r\n*5\r\n*6\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n"
                    + "$3\r\nkey\r\n$14\r\nkey_spec_index\r\n:0\r\n*4\r\n$4\r\nname\r\n$5\r\nvalue\r\n$4\r\ntype\r\n"
                    + "$6\r\nstring\r\n"),
                    reply);
            assertTrue(reply.contains("$5\r\nflags\r\n*1\r\n+optional\r\n$9\r\narguments\r\n*2\r\n*6\r\n$4\r\nname\r\n"
                    + "$2\r\nnx\r\n$4\r\ntype\r\n$10\r\npure-token\r\n$5\r\ntoken\r\n$2\r\nNX\r\n"), reply);

            s.call("HELLO", "3");
            String resp3 = s.call("COMMAND", "DOCS", "set");
            assertTrue(resp3.matches("(?s)%1\r\n\\$3\r\nset\r\n%\\d+\r\n\\$7\r\nsummary\r\n.*"), resp3);
            assertTrue(resp3.contains("$5\r\nflags\r\n~1\r\n+optional\r\n"), resp3);
            assertEquals("%0\r\n", s.call("COMMAND", "DOCS", "nosuch"));
        }
    }

    @Test
    void docsOfAContainerShouldNestItsSubcommands() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String reply = s.call("COMMAND", "DOCS", "config");

            assertTrue(reply.contains("$11\r\nsubcommands\r\n*10\r\n$10\r\nconfig|get\r\n"), reply);
            assertTrue(reply.contains("$7\r\nsummary\r\n$46\r\nA container for server configuration commands."),
                    reply);
        }
    }

    @Test
    void docsOfEveryCommandShouldRender() {
        try (Jedis j = connect()) {
            Map<String, CommandDocument> all = j.commandDocs();

            assertEquals(Commands.table().size(), all.size());
            for (CommandSpec spec : Commands.table().all()) {
                CommandDocument doc = all.get(spec.fullName());
                assertEquals(spec.summary(), doc.getSummary(), spec.fullName());
                assertEquals(spec.group().docName(), doc.getGroup(), spec.fullName());
            }
        }
    }

    @Test
    void listShouldNameCommandsAndSubcommandsAndFilter() {
        try (Jedis j = connect()) {
            List<String> all = j.commandList();

            int subcommands = 0;
            for (CommandSpec spec : Commands.table().all()) {
                subcommands += spec.subcommands().size();
            }
            assertEquals(Commands.table().size() + subcommands, all.size());
            assertTrue(all.contains("get") && all.contains("client|setinfo"));
            assertEquals(List.of("config", "config|get", "config|set", "config|resetstat", "config|rewrite",
                    "config|help"), j.commandListFilterBy(
                    CommandListFilterByParams.commandListFilterByParams().filterByPattern("CONFIG*")));
            List<String> connection = j.commandListFilterBy(
                    CommandListFilterByParams.commandListFilterByParams().filterByAclCat("connection"));
            assertTrue(connection.contains("ping") && connection.contains("client|id"), connection.toString());
            assertFalse(connection.contains("get") || connection.contains("client"), connection.toString());
            assertEquals(List.of(), j.commandListFilterBy(
                    CommandListFilterByParams.commandListFilterByParams().filterByModule("anything")));
            assertEquals(List.of(), j.commandListFilterBy(
                    CommandListFilterByParams.commandListFilterByParams().filterByAclCat("nosuchcategory")));
        }
    }

    @Test
    void listShouldRejectOtherArgumentsAsRedisDoes() {
        try (Jedis j = connect()) {
            assertEquals("ERR syntax error", error(j, "COMMAND", "LIST", "x"));
            assertEquals("ERR syntax error", error(j, "COMMAND", "LIST", "FILTERBY"));
            assertEquals("ERR syntax error", error(j, "COMMAND", "LIST", "FILTERBY", "PATTERN"));
            assertEquals("ERR syntax error", error(j, "COMMAND", "LIST", "FILTERBY", "foo", "x"));
        }
    }

    @Test
    void getkeysShouldPickTheKeysByPosition() {
        try (Jedis j = connect()) {
            assertEquals(List.of("k"), j.commandGetKeys("SET", "k", "v", "EX", "10"));
            assertEquals(List.of("a", "b"), j.commandGetKeys("del", "a", "b"));
            List<KeyValue<String, List<String>>> flagged = j.commandGetKeysAndFlags("GET", "x");
            assertEquals("x", flagged.get(0).getKey());
            assertEquals(List.of("RO", "access"), flagged.get(0).getValue());
            assertEquals(List.of("RW"), j.commandGetKeysAndFlags("set", "x", "1").get(0).getValue());
        }
    }

    @Test
    void getkeysShouldRejectWhatRedisRejects() {
        try (Jedis j = connect()) {
            assertEquals("ERR Invalid command specified", error(j, "COMMAND", "GETKEYS", "nosuch", "a"));
            assertEquals("ERR Invalid command specified", error(j, "COMMAND", "GETKEYS", "config", "nosuch"));
            assertEquals("ERR The command has no key arguments", error(j, "COMMAND", "GETKEYS", "ping"));
            assertEquals("ERR The command has no key arguments", error(j, "COMMAND", "GETKEYS", "client", "list"));
            assertEquals("ERR Invalid number of arguments specified for command",
                    error(j, "COMMAND", "GETKEYS", "set", "a"));
            assertEquals("ERR Invalid number of arguments specified for command",
                    error(j, "COMMAND", "GETKEYS", "get", "a", "b"));
            assertEquals("ERR wrong number of arguments for 'command|getkeys' command", error(j, "COMMAND", "GETKEYS"));
        }
    }

    @Test
    void helpShouldBeRedisLines() {
        try (Jedis j = connect()) {
            List<String> lines = new ArrayList<>();
            for (Object line : (List<?>) raw(j, "COMMAND", "HELP")) {
                lines.add(SafeEncoder.encode((byte[]) line));
            }

            assertEquals("COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", lines.get(0));
            assertEquals("(no subcommand)", lines.get(1));
            assertTrue(lines.contains("GETKEYSANDFLAGS <full-command>"));
            assertEquals(List.of("HELP", "    Print this help."), lines.subList(lines.size() - 2, lines.size()));
            assertEquals("ERR unknown subcommand 'nosuch'. Try COMMAND HELP.", error(j, "COMMAND", "nosuch"));
        }
    }

    @Test
    void infoOfAnUnknownCommandShouldBeNullForJedis() {
        try (Jedis j = connect()) {
            Map<String, CommandInfo> infos = j.commandInfo("nosuch");

            assertNull(infos.get("nosuch"));
        }
    }
}
