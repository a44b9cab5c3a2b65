package dev.ebb.server.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.RawConnection.Reply;
import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replays seeded random command sequences ({@link CommandGenerator}) against Ebb and the reference
 * redis-server 7.2.4 side by side and compares every raw reply: type bytes, texts, error messages,
 * RESP2 and RESP3. Replies whose order Redis leaves open are compared as multisets. A difference
 * fails with the seed, the command's position and the commands before it, so it can be replayed.
 * Skipped, with the reason, where the reference binary cannot run.
 */
class DifferentialTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final int COMMANDS_PER_SEQUENCE = 400;
    private static ReferenceRedis redis;

    @BeforeAll
    static void startReference() {
        redis = ReferenceRedis.startOrNull();
    }

    @AfterAll
    static void stopReference() {
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest(name = "seed {0}, RESP{1}")
    @CsvSource({"1, 2", "2, 2", "3, 2", "4, 3", "5, 3", "6, 2", "7, 3", "8, 2"})
    void randomCommandsShouldGetTheSameRepliesAsRedis(long seed, int protocol) throws Exception {
        assumeTrue(redis != null, "skipped: " + ReferenceRedis.unavailableReason);
        try (RawConnection ours = new RawConnection(ebb.port()); RawConnection theirs = new RawConnection(redis.port())) {
            for (RawConnection c : List.of(ours, theirs)) {
                c.call(List.of("FLUSHALL"));
                c.call(List.of("HELLO", String.valueOf(protocol)));
            }
            CommandGenerator generator = new CommandGenerator(seed);
            Deque<String> recent = new ArrayDeque<>();
            for (int i = 0; i < COMMANDS_PER_SEQUENCE; i++) {
                List<String> command = generator.next();
                Reply expected = comparable(command, theirs.call(command));
                Reply actual = comparable(command, ours.call(command));
                recent.addLast(i + ": " + command);
                if (recent.size() > 12) {
                    recent.removeFirst();
                }
                assertEquals(expected.toString(), actual.toString(),
                        "seed " + seed + " RESP" + protocol + ", command " + i + " " + command + "; the commands before:\n"
                                + String.join("\n", recent));
            }
        }
    }

    private static Reply comparable(List<String> command, Reply reply) {
        String name = command.get(0).toUpperCase(java.util.Locale.ROOT);
        if (CommandGenerator.UNORDERED.contains(name)) {
            return reply.unordered(false);
        }
        if (CommandGenerator.UNORDERED_PAIRS.contains(name)) {
            return reply.unordered(true);
        }
        return reply;
    }
}
