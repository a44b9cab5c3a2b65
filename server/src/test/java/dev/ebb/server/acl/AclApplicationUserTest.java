package dev.ebb.server.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The acceptance case: an application user {@code app} with
 * {@code on >secret ~app:* &app:* +@read +@write -@dangerous} works through Jedis and Lettuce, gets
 * Redis's NOPERM texts for a foreign key, a foreign channel, FLUSHALL and CONFIG (also from EVAL),
 * every denial is in ACL LOG, and ACL DRYRUN agrees with what really happens. The user also gets
 * {@code +@scripting +@pubsub}: without them EVAL and PUBLISH are denied as commands, before any key or
 * channel is looked at, as in Redis.
 */
class AclApplicationUserTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    @BeforeEach
    void createApp() {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            admin.aclDelUser("app");
            admin.aclLogReset();
            assertEquals("OK", admin.aclSetUser("app", "on", ">secret", "~app:*", "&app:*", "+@read", "+@write",
                    "-@dangerous", "+@scripting", "+@pubsub"));
        }
    }

    private static String error(Runnable call) {
        return assertThrows(JedisDataException.class, call::run).getMessage();
    }

    @Test
    void appUserShouldWorkOnItsKeysAndGetRedisNopermTextsElsewhereThroughJedis() {
        try (Jedis app = new Jedis(ebb.host(), ebb.port())) {
            app.auth("app", "secret");

            assertEquals("OK", app.set("app:1", "v"));
            assertEquals("v", app.get("app:1"));
            assertEquals(0L, app.publish("app:news", "hi"));
            assertEquals("NOPERM No permissions to access a key", error(() -> app.get("other")));
            assertEquals("NOPERM No permissions to access a key", error(() -> app.mset("app:2", "x", "other", "y")));
            assertEquals("NOPERM No permissions to access a channel", error(() -> app.publish("other", "hi")));
            assertEquals("NOPERM User app has no permissions to run the 'flushall' command",
                    error(app::flushAll));
            assertEquals("NOPERM User app has no permissions to run the 'config|get' command",
                    error(() -> app.configGet("maxmemory")));
            assertEquals("NOPERM No permissions to access a key", error(() -> app.eval("return 1", 1, "other")));
            String script = error(() -> app.eval("return redis.call('get', 'other')", 0));
            assertTrue(script.startsWith("ERR ACL failure in script: No permissions to access a key script: "),
                    script);
            assertEquals("v", app.eval("return redis.call('get', 'app:1')", 0));
        }
    }

    @Test
    void appUserShouldWorkThroughLettuceWithHelloAuth() {
        RedisURI uri = RedisURI.builder().withHost(ebb.host()).withPort(ebb.port())
                .withAuthentication("app", "secret".toCharArray()).build();
        RedisClient client = RedisClient.create(LETTUCE, uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> app = connection.sync();

            app.set("app:lettuce", "1");

            assertEquals("1", app.get("app:lettuce"));
            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                    () -> app.set("other", "1"));
            assertEquals("NOPERM No permissions to access a key", e.getMessage());
            e = assertThrows(RedisCommandExecutionException.class, app::flushall);
            assertEquals("NOPERM User app has no permissions to run the 'flushall' command", e.getMessage());
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void aclLogShouldRecordEachDenialWithRedisFields() {
        try (Jedis app = new Jedis(ebb.host(), ebb.port()); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            app.auth("app", "secret");
            error(() -> app.get("other"));
            error(() -> app.get("other"));
            error(() -> app.publish("news", "x"));
            error(app::flushAll);
            error(() -> app.eval("return redis.call('set', 'foreign', 1)", 0));
            error(() -> app.auth("app", "wrong"));

            List<Object> log = castList(admin.sendCommand(redis.clients.jedis.Protocol.Command.ACL, "LOG"));

            assertEquals(5, log.size());
            assertEntry(log.get(0), 1, "auth", "toplevel", "AUTH", "app");
            assertEntry(log.get(1), 1, "key", "lua", "foreign", "app");
            assertEntry(log.get(2), 1, "command", "toplevel", "flushall", "app");
            assertEntry(log.get(3), 1, "channel", "toplevel", "news", "app");
            assertEntry(log.get(4), 2, "key", "toplevel", "other", "app");
            Map<String, Object> first = entry(log.get(4));
            assertEquals(List.of("count", "reason", "context", "object", "username", "age-seconds", "client-info",
                    "entry-id", "timestamp-created", "timestamp-last-updated"), List.copyOf(first.keySet()));
            assertTrue(text(first.get("client-info")).contains(" user=app "), text(first.get("client-info")));
            assertTrue((Long) first.get("entry-id") < (Long) entry(log.get(0)).get("entry-id"));
            assertEquals("OK", admin.aclLogReset());
            assertEquals(0, castList(admin.sendCommand(redis.clients.jedis.Protocol.Command.ACL, "LOG")).size());
        }
    }

    @Test
    void dryrunShouldAgreeWithWhatReallyHappens() {
        try (Jedis app = new Jedis(ebb.host(), ebb.port()); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            app.auth("app", "secret");
            String[][] lines = {
                {"get", "app:1"}, {"get", "other"}, {"set", "app:1", "x"}, {"flushall"}, {"publish", "app:c", "m"},
                {"publish", "other", "m"}, {"config", "get", "maxmemory"}, {"sintercard", "2", "app:a", "zz"},
                {"sort", "app:l", "store", "other"}, {"eval", "return 1", "1", "zz"},
            };
            for (String[] line : lines) {
                String dry = admin.aclDryRun("app", line[0], java.util.Arrays.copyOfRange(line, 1, line.length));
                String real;
                try {
                    app.sendCommand(() -> redis.clients.jedis.util.SafeEncoder.encode(line[0]),
                            java.util.Arrays.copyOfRange(line, 1, line.length));
                    real = "OK";
                } catch (JedisDataException e) {
                    real = e.getMessage();
                }

                if (dry.equals("OK")) {
                    assertTrue(!real.startsWith("NOPERM"), String.join(" ", line) + " -> " + real);
                } else {
                    assertTrue(real.startsWith("NOPERM"), String.join(" ", line) + " -> " + real);
                    assertTrue(dry.startsWith("User app has no permissions to "), dry);
                }
            }
            assertEquals("User app has no permissions to access the 'other' key", admin.aclDryRun("app", "get", "other"));
            assertEquals("User app has no permissions to access the 'other' channel",
                    admin.aclDryRun("app", "publish", "other", "m"));
            assertEquals("User app has no permissions to run the 'flushall' command", admin.aclDryRun("app", "flushall"));
        }
    }

    @Test
    void transactionsShouldBeCheckedWhenQueuedAndAgainAtExec() {
        try (Jedis app = new Jedis(ebb.host(), ebb.port()); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            app.auth("app", "secret");
            admin.aclSetUser("app", "+multi", "+exec");
            redis.clients.jedis.Transaction t = app.multi();
            t.set("app:t", "1");
            t.get("other");
            JedisDataException abort = assertThrows(JedisDataException.class, t::exec);
            assertTrue(abort.getMessage().startsWith("EXECABORT"), abort.getMessage());

            // One command at a time, so the SET is queued before the rules change.
            assertEquals("OK", text(app.sendCommand(redis.clients.jedis.Protocol.Command.MULTI)));
            assertEquals("QUEUED", text(app.sendCommand(redis.clients.jedis.Protocol.Command.SET, "app:t", "2")));
            admin.aclSetUser("app", "resetkeys", "~nothing");
            List<Object> replies = castList(app.sendCommand(redis.clients.jedis.Protocol.Command.EXEC));

            assertEquals(1, replies.size());
            assertTrue(replies.get(0) instanceof JedisDataException, String.valueOf(replies.get(0)));
            assertEquals("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC"
                    + " call. This command is no longer allowed for the following reason: no permission to touch the"
                    + " specified keys", ((JedisDataException) replies.get(0)).getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object o) {
        return (List<Object>) o;
    }

    private static Map<String, Object> entry(Object raw) {
        List<Object> flat = castList(raw);
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            Object v = flat.get(i + 1);
            map.put(text(flat.get(i)), v instanceof byte[] ? text(v) : v);
        }
        return map;
    }

    private static String text(Object o) {
        return o instanceof byte[] ? new String((byte[]) o, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(o);
    }

    private static void assertEntry(Object raw, long count, String reason, String context, String object, String user) {
        Map<String, Object> e = entry(raw);
        assertEquals(count, e.get("count"), e.toString());
        assertEquals(reason, e.get("reason"), e.toString());
        assertEquals(context, e.get("context"), e.toString());
        assertEquals(object, e.get("object"), e.toString());
        assertEquals(user, e.get("username"), e.toString());
    }
}
