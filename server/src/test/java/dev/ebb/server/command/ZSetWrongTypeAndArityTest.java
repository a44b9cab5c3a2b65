package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.ZSetTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/** Every sorted set command on a string key (WRONGTYPE, nothing changed) and with too few arguments. */
class ZSetWrongTypeAndArityTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "zadd str 1 a", "zincrby str 1 a", "zscore str a", "zmscore str a", "zcard str", "zrem str a",
        "zrank str a", "zrevrank str a", "zcount str 0 1", "zlexcount str - +", "zrange str 0 -1",
        "zrevrange str 0 -1", "zrangebyscore str 0 1", "zrevrangebyscore str 1 0", "zrangebylex str - +",
        "zrevrangebylex str + -", "zrangestore d str 0 -1", "zremrangebyrank str 0 -1",
        "zremrangebyscore str 0 1", "zremrangebylex str - +", "zpopmin str", "zpopmax str 2",
        "zmpop 1 str min", "zrandmember str", "zrandmember str 2", "zscan str 0", "zunion 2 z str",
        "zinter 1 str", "zdiff 2 z str", "zunionstore d 2 z str", "zinterstore d 1 str",
        "zdiffstore d 1 str", "zintercard 2 z str"})
    void commandsOnAStringShouldAnswerWrongTypeAndChangeNothing(String command) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("str", "text");
            run(j, "zadd", "z", "1", "a");

            assertError("WRONGTYPE Operation against a key holding the wrong kind of value",
                    () -> run(j, command.split(" ")));

            assertEquals("text", j.get("str"));
            assertEquals("[a, 1]", run(j, "zrange", "z", "0", "-1", "withscores"));
        }
    }

    @ParameterizedTest(name = "{0} with {1} arguments")
    @CsvSource({
        "zadd, 2", "zincrby, 2", "zincrby, 4", "zscore, 1", "zscore, 3", "zmscore, 1", "zcard, 0", "zcard, 2",
        "zrem, 1", "zrank, 1", "zrevrank, 1", "zcount, 2", "zcount, 4", "zlexcount, 2", "zrange, 2",
        "zrevrange, 2", "zrangebyscore, 2", "zrevrangebyscore, 2", "zrangebylex, 2", "zrevrangebylex, 2",
        "zrangestore, 3", "zremrangebyrank, 2", "zremrangebyrank, 4", "zremrangebyscore, 2",
        "zremrangebylex, 4", "zpopmin, 0", "zpopmax, 0", "zmpop, 2", "zrandmember, 0", "zscan, 1",
        "zunion, 1", "zinter, 1", "zdiff, 1", "zunionstore, 2", "zinterstore, 2", "zdiffstore, 2",
        "zintercard, 1"})
    void tooFewOrTooManyArgumentsShouldAnswerTheArityError(String command, int arguments) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String[] args = new String[arguments + 1];
            Arrays.fill(args, "1");
            args[0] = command;

            assertError("ERR wrong number of arguments for '" + command + "' command", () -> run(j, args));
        }
    }
}
