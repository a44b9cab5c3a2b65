package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The syntax-line parser behind COMMAND DOCS: Redis's argument shapes for the patterns the Redis
 * docs use, type inference, and that every row of the real command table parses.
 */
class CommandCommandSyntaxTest {
    private static CommandSpec spec(String name, long flags, int first, int last, int step, String syntax) {
        return CommandSpec.spec(name, -1, flags, first, last, step, (c, argv) -> { })
                .doc(CommandGroup.GENERIC, "1.0.0", "test", syntax).build();
    }

    private static String tree(String name, long flags, int first, int last, int step, String syntax) {
        return CommandSyntax.arguments(spec(name, flags, first, last, step, syntax)).toString();
    }

    private static String tree(String syntax) {
        return tree("cmd", 0, 0, 0, 0, syntax);
    }

    @Test
    void setSyntaxShouldGiveRedisShapes() {
        String syntax = "key value [NX | XX] [GET] [EX seconds | PX milliseconds | EXAT unix-time-seconds |"
                + " PXAT unix-time-milliseconds | KEEPTTL]";

        assertEquals("[key:key, value:string, "
                + "nx_xx:oneof optional [nx:pure-token token=NX, xx:pure-token token=XX], "
                + "get:pure-token token=GET optional, "
                + "seconds_milliseconds_unix-time-seconds_unix-time-milliseconds_keepttl:oneof optional "
                + "[seconds:integer token=EX, milliseconds:integer token=PX, "
                + "unix-time-seconds:unix-time token=EXAT, unix-time-milliseconds:unix-time token=PXAT, "
                + "keepttl:pure-token token=KEEPTTL]]",
                tree("set", CommandFlags.WRITE, 1, 1, 1, syntax));
    }

    @Test
    void repeatedItemsShouldBecomeOneMultipleArgument() {
        assertEquals("[key:key multiple]", tree("key [key ...]"));
        assertEquals("[key_value:block multiple [key:key, value:string]]", tree("key value [key value ...]"));
        assertEquals("[numkeys:integer, key:key multiple]", tree("numkeys key [key ...]"));
        assertEquals("[command:string, arg:string optional multiple]", tree("command [arg [arg ...]]"));
        assertEquals("[member:string optional multiple]", tree("[member ...]"));
    }

    @Test
    void aTokenFollowedByValuesShouldTakeThemAsRedisDoes() {
        assertEquals("[count:integer token=COUNT optional]", tree("[COUNT count]"));
        assertEquals("[limit:block token=LIMIT optional [offset:integer, count:integer]]",
                tree("[LIMIT offset count]"));
        assertEquals("[id:block token=ID optional [client-id:integer multiple]]",
                tree("[ID client-id [client-id ...]]"));
        assertEquals("[type:oneof token=TYPE optional [normal:pure-token token=NORMAL, "
                + "master:pure-token token=MASTER]]", tree("[TYPE <NORMAL | MASTER>]"));
        assertEquals("[pattern:pattern token=GET optional multiple multiple_token]",
                tree("[GET pattern [GET pattern ...]]"));
    }

    @Test
    void repeatedAlternativesShouldMarkTheGroupMultiple() {
        String filter = "[ID client-id] | [USER username] | [SKIPME <YES | NO>]";

        String tree = tree("<ip:port | <" + filter + "> [" + filter + " ...]>");

        assertEquals("[ip:port_client-id_username_skipme:oneof [ip:port:string, "
                + "client-id_username_skipme:oneof multiple [client-id:integer token=ID optional, "
                + "username:string token=USER optional, "
                + "skipme:oneof token=SKIPME optional [yes:pure-token token=YES, no:pure-token token=NO]]]]", tree);
    }

    @Test
    void typesShouldBeInferredFromNamesAndKeyPositions() {
        assertEquals("[source:key, destination:key, destination-db:integer token=DB optional, "
                + "replace:pure-token token=REPLACE optional]",
                tree("copy", CommandFlags.WRITE, 1, 2, 1, "source destination [DB destination-db] [REPLACE]"));
        assertEquals("[key:key, increment:double]", tree("incrbyfloat", CommandFlags.WRITE, 1, 1, 1, "key increment"));
        assertEquals("[key:key, increment:integer]", tree("incrby", CommandFlags.WRITE, 1, 1, 1, "key increment"));
        assertEquals("[key:key multiple, timeout:double]",
                tree("blpop", CommandFlags.WRITE | CommandFlags.BLOCKING, 1, -2, 1, "key [key ...] timeout"));
        assertEquals("[timeout:integer]", tree("wait", 0, 0, 0, 0, "timeout"));
        assertEquals("[pattern:pattern, score:double, name:string]", tree("pattern score name"));
    }

    @Test
    void malformedLinesShouldFailNamingTheCommandAndLine() {
        for (String bad : new String[] {"[key", "key]", "<a | b", "a | b", "[ | a]", "[...]", "key ..."}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CommandSyntax.arguments(spec("broken", 0, 0, 0, 0, bad)), bad);
            assertTrue(e.getMessage().startsWith("bad syntax line for command broken: syntax=" + bad), e.getMessage());
        }
    }

    @Test
    void emptySyntaxShouldHaveNoArguments() {
        assertEquals("[]", tree(""));
    }

    @Test
    void everyRowOfTheCommandTableShouldParse() {
        int parsed = 0;
        for (CommandSpec command : Commands.table().all()) {
            for (CommandSpec spec : withSubcommands(command)) {
                List<CommandSyntax.Argument> args = CommandSyntax.arguments(spec);
                assertTrue(spec.syntax().isEmpty() || !args.isEmpty(), spec.fullName());
                parsed++;
            }
        }
        assertTrue(parsed >= Commands.table().size());
    }

    private static List<CommandSpec> withSubcommands(CommandSpec command) {
        List<CommandSpec> all = new java.util.ArrayList<>();
        all.add(command);
        all.addAll(command.subcommands());
        return all;
    }
}
