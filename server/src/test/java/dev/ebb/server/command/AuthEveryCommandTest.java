package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** With requirepass, every command of the table except the no_auth ones is refused before AUTH. */
class AuthEveryCommandTest {
    @RegisterExtension
    // DEBUG enabled, so that it too reaches the authentication check (Redis refuses a disabled DEBUG before it).
    static final EbbExtension ebb = new EbbExtension().config("requirepass", "pw")
            .config("enable-debug-command", "yes");

    private static final String NOAUTH = "-NOAUTH Authentication required.\r\n";

    @Test
    void everyCommandWithoutNoAuthShouldBeRefusedBeforeAuth() throws Exception {
        List<String> refusedWrongly = new ArrayList<>();
        int checked = 0;
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            for (CommandSpec spec : Commands.table().all()) {
                if (spec.has(CommandFlags.NO_AUTH) || spec.name().equals("shutdown")) {
                    continue;
                }
                String[] argv;
                if (spec.subcommands().isEmpty()) {
                    argv = new String[Math.max(Math.abs(spec.arity()), 1)];
                    java.util.Arrays.fill(argv, "x");
                    argv[0] = spec.name();
                } else {
                    CommandSpec sub = spec.subcommands().get(0);
                    argv = new String[Math.max(Math.abs(sub.arity()), 2)];
                    java.util.Arrays.fill(argv, "x");
                    argv[0] = spec.name();
                    argv[1] = sub.name();
                }
                String reply = s.call(argv);
                checked++;
                // As redis-server 7.2.4: a refused EXEC aborts, whatever refused it.
                String expected = spec.name().equals("exec")
                        ? "-EXECABORT Transaction discarded because of: NOAUTH Authentication required.\r\n" : NOAUTH;
                if (!reply.equals(expected)) {
                    refusedWrongly.add(spec.name() + " -> " + reply);
                }
            }
            assertEquals(List.of(), refusedWrongly);
            assertEquals("+OK\r\n", s.call("AUTH", "pw"));
            assertEquals("+PONG\r\n", s.call("PING"));
        }
        assertNotEquals(0, checked);
    }

    @Test
    void configSetRequirepassShouldApplyToNewConnections() {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            admin.auth("pw");
            admin.configSet("requirepass", "newpw");
            try (Jedis fresh = new Jedis(ebb.host(), ebb.port())) {
                assertEquals("WRONGPASS invalid username-password pair or user is disabled.",
                        org.junit.jupiter.api.Assertions.assertThrows(
                                redis.clients.jedis.exceptions.JedisDataException.class,
                                () -> fresh.auth("pw")).getMessage());
                assertEquals("OK", fresh.auth("newpw"));
            }
            assertEquals("PONG", admin.ping());
            admin.configSet("requirepass", "pw");
        }
    }
}
