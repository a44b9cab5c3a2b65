package dev.ebb.server.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Commands;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * ACL users beyond the application case: selectors, read-only and write-only key patterns, the
 * connections of a deleted or disabled user, CLIENT LIST/KILL USER, subscribers cut when their
 * channels are taken away, and the categories COMMAND INFO reports.
 */
class AclUsersTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("enable-debug-command", "yes");

    private Jedis admin;

    @BeforeEach
    void cleanUsers() {
        admin = new Jedis(ebb.host(), ebb.port());
        for (String user : admin.aclUsers()) {
            if (!user.equals("default")) {
                admin.aclDelUser(user);
            }
        }
    }

    @org.junit.jupiter.api.AfterEach
    void closeAdmin() {
        admin.close();
    }

    private Jedis as(String user, String password) {
        Jedis j = new Jedis(ebb.host(), ebb.port());
        j.auth(user, password);
        return j;
    }

    private static String error(Runnable call) {
        return assertThrows(JedisDataException.class, call::run).getMessage();
    }

    @Test
    void aSelectorShouldAllowWhatTheRootSelectorDoesNot() {
        admin.aclSetUser("virginia", "on", ">pw", "+get", "allkeys", "(+set ~app2*)");
        try (Jedis v = as("virginia", "pw")) {
            assertEquals("OK", v.set("app2:1", "x"));
            assertEquals("x", v.get("app2:1"));
            assertEquals("NOPERM No permissions to access a key", error(() -> v.set("app1", "x")));
            assertEquals("NOPERM User virginia has no permissions to run the 'del' command",
                    error(() -> v.del("app2:1")));
        }
    }

    @Test
    void readAndWriteKeyPatternsShouldFollowEachKeysAccess() {
        admin.aclSetUser("alice", "on", ">pw", "+@all", "%R~src:*", "%W~dst:*");
        admin.rpush("src:list", "a", "b");
        try (Jedis alice = as("alice", "pw")) {
            assertEquals(List.of("a", "b"), alice.lrange("src:list", 0, -1));
            assertEquals("OK", alice.set("dst:1", "v"));
            assertEquals(true, alice.copy("src:list", "dst:copy", false));
            assertEquals("NOPERM No permissions to access a key", error(() -> alice.get("dst:1")));
            assertEquals("NOPERM No permissions to access a key", error(() -> alice.set("src:1", "v")));
            assertEquals("NOPERM No permissions to access a key", error(() -> alice.setGet("dst:1", "w")));
            assertEquals("NOPERM No permissions to access a key",
                    error(() -> alice.lmove("src:list", "dst:l", redis.clients.jedis.args.ListDirection.LEFT,
                            redis.clients.jedis.args.ListDirection.RIGHT)));
        }
    }

    @Test
    void allButDebugShouldRefuseOnlyDebug() {
        admin.aclSetUser("antirez", "on", ">pw", "+@all", "-debug", "~*", "&*");
        try (Jedis a = as("antirez", "pw")) {
            assertEquals("PONG", a.ping());
            assertEquals("OK", a.set("k", "v"));
            assertEquals("OK", a.flushAll());
            assertEquals("NOPERM User antirez has no permissions to run the 'debug' command",
                    error(() -> a.sendCommand(() -> redis.clients.jedis.util.SafeEncoder.encode("DEBUG"), "SLEEP", "0")));
        }
    }

    @Test
    void deletingOrDisablingAUserShouldDisconnectItsClients() {
        admin.aclSetUser("gone", "on", ">pw", "+@all", "~*");
        admin.aclSetUser("off", "on", ">pw", "+@all", "~*");
        Jedis gone = as("gone", "pw");
        Jedis off = as("off", "pw");
        assertEquals("PONG", gone.ping());
        assertTrue(admin.clientList().contains(" user=gone "), admin.clientList());

        assertEquals(1L, admin.aclDelUser("gone"));
        admin.aclSetUser("off", "off");

        assertThrows(JedisConnectionException.class, gone::ping);
        assertThrows(JedisConnectionException.class, off::ping);
        assertEquals("WRONGPASS invalid username-password pair or user is disabled.",
                error(() -> as("off", "pw").close()));
        gone.close();
        off.close();
    }

    @Test
    void clientKillUserShouldCloseThatUsersConnections() {
        admin.aclSetUser("k", "on", ">pw", "+@all", "~*");
        try (Jedis k = as("k", "pw")) {
            assertEquals("PONG", k.ping());

            assertEquals(1L, admin.clientKill(new redis.clients.jedis.params.ClientKillParams().user("k")));

            assertThrows(JedisConnectionException.class, k::ping);
        }
        assertEquals("ERR No such user 'nobody'", error(() -> admin.clientKill(
                new redis.clients.jedis.params.ClientKillParams().user("nobody"))));
    }

    @Test
    void channelRulesShouldApplyToSubscribeAndCutSubscribersWhenRevoked() throws Exception {
        admin.aclSetUser("sub", "on", ">pw", "+@all", "~*", "resetchannels", "&news.*");
        try (Jedis s = as("sub", "pw")) {
            assertEquals("NOPERM No permissions to access a channel", error(() -> s.subscribe(new JedisPubSub() {
            }, "sports")));
        }
        try (Jedis s = as("sub", "pw")) {
            CountDownLatch subscribed = new CountDownLatch(1);
            CountDownLatch ended = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try {
                    s.psubscribe(new JedisPubSub() {
                        @Override
                        public void onPSubscribe(String pattern, int count) {
                            subscribed.countDown();
                        }
                    }, "news.*");
                } catch (JedisConnectionException expected) {
                    // The server cut the connection.
                } finally {
                    ended.countDown();
                }
            });
            t.start();
            assertTrue(subscribed.await(30, TimeUnit.SECONDS));

            admin.aclSetUser("sub", "resetchannels", "&other");

            assertTrue(ended.await(30, TimeUnit.SECONDS), "subscriber was not disconnected");
        }
    }

    @Test
    void dryrunShouldUseTheRealKeyListOfMovableKeyCommands() {
        admin.aclSetUser("m", "on", ">pw", "+@all", "~mine:*");
        assertEquals("OK", admin.aclDryRun("m", "zunionstore", "mine:d", "2", "mine:a", "mine:b"));
        assertEquals("User m has no permissions to access the 'other' key",
                admin.aclDryRun("m", "zunionstore", "mine:d", "2", "mine:a", "other"));
        assertEquals("User m has no permissions to access the 'other' key",
                admin.aclDryRun("m", "sort", "mine:l", "by", "x*", "store", "other"));
        assertEquals("User m has no permissions to access the 'other' key",
                admin.aclDryRun("m", "georadius", "mine:g", "0", "0", "1", "km", "store", "other"));
        assertEquals("User m has no permissions to access the 'other' key",
                admin.aclDryRun("m", "eval", "return 1", "2", "mine:a", "other"));
        assertEquals("User m has no permissions to access the 'other' key",
                admin.aclDryRun("m", "lmpop", "2", "mine:a", "other", "left"));
    }

    @Test
    void commandInfoShouldReportRedisCategories() {
        java.util.Map<String, List<String>> categories = new java.util.TreeMap<>();
        admin.commandInfo("get", "set", "config|get", "info").forEach((name, i) -> categories.put(name,
                i.getAclCategories()));

        assertEquals(java.util.Map.of("get", List.of("@read", "@string", "@fast"),
                "set", List.of("@write", "@string", "@slow"),
                "config|get", List.of("@admin", "@slow", "@dangerous"),
                "info", List.of("@slow", "@dangerous")), categories);
    }

    @Test
    void everyCommandShouldHaveRedisCategoriesWhenRedisHasIt() {
        for (CommandSpec spec : Commands.table().all()) {
            assertTrue(CommandAcl.categories(spec) != -1 || !spec.subcommands().isEmpty(),
                    "no Redis categories for " + spec.fullName());
            for (CommandSpec sub : spec.subcommands()) {
                assertFalse(CommandAcl.categories(sub) == -1, "no Redis categories for " + sub.fullName());
            }
        }
    }

    @Test
    void resetShouldReturnToTheDefaultUser() {
        admin.aclSetUser("r", "on", ">pw", "+@all", "~*");
        try (Jedis r = as("r", "pw")) {
            assertEquals("r", r.aclWhoAmI());
            r.sendCommand(redis.clients.jedis.Protocol.Command.RESET);
            assertEquals("default", r.aclWhoAmI());
        }
    }

    @Test
    void theDefaultUserShouldBeUnrestrictedWithoutPassword() {
        assertEquals("default", admin.aclWhoAmI());
        assertEquals(List.of("user default on nopass sanitize-payload ~* &* +@all"), admin.aclList());
    }

    @Test
    void aclPubsubDefaultShouldDecideTheChannelsOfNewUsers() {
        admin.aclSetUser("before", "on");
        admin.configSet("acl-pubsub-default", "allchannels");
        try {
            admin.aclSetUser("after", "on");

            admin.aclSetUser("reset", "on", "resetchannels", "&x", "reset");

            List<String> users = admin.aclList();
            assertTrue(users.contains("user before on sanitize-payload resetchannels -@all"), users.toString());
            assertTrue(users.contains("user after on sanitize-payload &* -@all"), users.toString());
            assertTrue(users.contains("user reset off sanitize-payload &* -@all"), users.toString());
        } finally {
            admin.configSet("acl-pubsub-default", "resetchannels");
        }
    }

    @Test
    void anAuthenticatedUserShouldSeeRequirepassOnlyOnTheDefaultUser() {
        admin.aclSetUser("app", "on", ">pw", "+@all", "~*");
        admin.configSet("requirepass", "adminpw");
        try (Jedis fresh = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("NOAUTH Authentication required.", error(fresh::ping));
            fresh.auth("app", "pw");
            assertEquals("PONG", fresh.ping());
            assertTrue(admin.aclList().contains("user default on sanitize-payload #"
                    + User.sha256Hex("adminpw") + " ~* &* +@all"), admin.aclList().toString());
        } finally {
            admin.configSet("requirepass", "");
        }
    }
}
