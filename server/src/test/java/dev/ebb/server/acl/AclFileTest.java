package dev.ebb.server.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** Users from the config file and from an aclfile: start-up, ACL SAVE / LOAD, CONFIG REWRITE. */
class AclFileTest {
    @TempDir
    Path dir;

    private static final String APP = "user app on #2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"
            + " ~app:* resetchannels &app:* -@all +@read +@write -@dangerous";

    @Test
    void aclfileShouldBeLoadedAtStartAndSavedAndReloaded() throws Exception {
        Path file = dir.resolve("users.acl");
        Files.writeString(file, APP + "\n");
        ServerConfig config = ServerConfig.fromText("port 0\ndir " + dir + "\naclfile users.acl\n");
        try (EbbServer server = EbbServer.start(config); Jedis admin = new Jedis("127.0.0.1", server.port())) {
            assertEquals(List.of("user app on sanitize-payload"
                    + " #2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b ~app:* resetchannels"
                    + " &app:* -@all +@read +@write -@dangerous",
                    "user default on nopass sanitize-payload ~* &* +@all"), admin.aclList());
            try (Jedis app = new Jedis("127.0.0.1", server.port())) {
                app.auth("app", "secret");
                assertEquals("OK", app.set("app:1", "v"));

                admin.aclSetUser("second", "on", "nopass", "+get", "~*");
                assertEquals("OK", admin.aclSave());
                String saved = Files.readString(file, StandardCharsets.ISO_8859_1);
                assertTrue(saved.contains("user second on nopass sanitize-payload ~* resetchannels -@all +get\n"),
                        saved);

                Files.writeString(file, "user only on nopass +ping\n# a comment\n");
                String error = assertThrows(JedisDataException.class, admin::aclLoad).getMessage();
                assertEquals("ERR " + file + ":2 should start with user keyword followed by the username."
                        + " WARNING: ACL errors detected, no change to the previously active ACL rules was performed",
                        error);
                assertEquals(List.of("app", "default", "second"), admin.aclUsers());

                Files.writeString(file, "user only on nopass +ping\n");
                assertEquals("OK", admin.aclLoad());
                assertEquals(List.of("default", "only"), admin.aclUsers());
                assertThrows(Exception.class, app::ping, "the replaced user's client must be closed");
            }
        }
    }

    @Test
    void configUserLinesShouldApplyAndConfigRewriteShouldKeepTheUsers() throws Exception {
        Path conf = dir.resolve("ebb.conf");
        Files.writeString(conf, "port 0\n" + APP.replace("#2bb8", ">secret #2bb8") + "\nuser default on >adminpw ~* &* +@all\n");
        try (EbbServer server = EbbServer.start(ServerConfig.load(conf));
                Jedis admin = new Jedis("127.0.0.1", server.port())) {
            admin.auth("adminpw");
            admin.aclSetUser("later", "on", "nopass", "+get", "~k*");

            assertEquals("OK", admin.configRewrite());

            String rewritten = Files.readString(conf, StandardCharsets.ISO_8859_1);
            assertTrue(rewritten.contains("user later on nopass sanitize-payload ~k* resetchannels -@all +get\n"),
                    rewritten);
            assertTrue(rewritten.contains("user app on sanitize-payload #2bb8"), rewritten);
            assertTrue(rewritten.contains("user default on sanitize-payload #"), rewritten);
            assertEquals(3, rewritten.lines().filter(l -> l.startsWith("user ")).count(), rewritten);
        }
        try (EbbServer again = EbbServer.start(ServerConfig.load(conf));
                Jedis later = new Jedis("127.0.0.1", again.port())) {
            later.auth("later", "anything");
            assertEquals(null, later.get("k1"));
            assertThrows(JedisDataException.class, () -> later.set("k1", "v"));
        }
    }

    @Test
    void usersInBothTheConfigAndAnAclfileShouldBeRefused() throws Exception {
        Files.writeString(dir.resolve("users.acl"), APP + "\n");
        ServerConfig config = ServerConfig.fromText("port 0\ndir " + dir + "\naclfile users.acl\nuser x on\n");

        Exception e = assertThrows(IllegalArgumentException.class, () -> EbbServer.start(config).close());

        assertTrue(e.getMessage().startsWith("Configuring Redis with users defined in redis.conf and at the same"),
                e.getMessage());
    }

    @Test
    void aclSaveAndLoadWithoutAnAclfileShouldAnswerRedisError() throws Exception {
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\n"));
                Jedis admin = new Jedis("127.0.0.1", server.port())) {
            String error = assertThrows(JedisDataException.class, admin::aclSave).getMessage();
            assertTrue(error.startsWith("ERR This Redis instance is not configured to use an ACL file."), error);
        }
    }
}
