package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Every string and bitmap command with one argument too few, and the fixed-arity ones with one too
 * many: Redis's arity error, naming the command.
 */
class StringArityTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @ParameterizedTest(name = "{0} with {1} arguments")
    @CsvSource({
        "get, 0", "get, 2", "set, 1", "setnx, 1", "setnx, 3", "setex, 2", "setex, 4", "psetex, 2", "psetex, 4",
        "getset, 1", "getset, 3", "getdel, 0", "getdel, 2", "getex, 0", "mget, 0", "mset, 1", "msetnx, 1",
        "incr, 0", "incr, 2", "decr, 2", "incrby, 1", "incrby, 3", "decrby, 1", "incrbyfloat, 1", "incrbyfloat, 3",
        "append, 1", "append, 3", "strlen, 0", "strlen, 2", "getrange, 2", "getrange, 4", "substr, 2",
        "setrange, 2", "setrange, 4", "lcs, 1", "setbit, 2", "setbit, 4", "getbit, 1", "getbit, 3",
        "bitcount, 0", "bitpos, 1", "bitop, 2"})
    void shouldAnswerTheArityErrorNamingTheCommand(String command, int arguments) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String[] args = new String[arguments];
            Arrays.fill(args, "1");

            assertError("ERR wrong number of arguments for '" + command + "' command",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), args));
        }
    }
}
