package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

class RenameCommandTest {

    @Test
    void renamedCommandShouldAnswerOnlyUnderItsNewName() throws Exception {
        ServerConfig config = ServerConfig.fromText("port 0\nrename-command get fetch\nrename-command flushall \"\"\n");

        try (EbbServer server = EbbServer.start(config); Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            jedis.set("k", "v");

            assertEquals("v", new String((byte[]) jedis.sendCommand(() -> "FETCH".getBytes(), "k")));
            JedisDataException get = assertThrows(JedisDataException.class, () -> jedis.get("k"));
            assertEquals("ERR unknown command 'GET', with args beginning with: 'k' ", get.getMessage());
            JedisDataException flush = assertThrows(JedisDataException.class, jedis::flushAll);
            assertTrue(flush.getMessage().startsWith("ERR unknown command 'FLUSHALL'"), flush.getMessage());
            assertEquals(1L, jedis.dbSize());
        }
    }

    @Test
    void renameCommandInAConfigFileShouldRenameAndDisable(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("ebb.conf");
        java.nio.file.Files.writeString(file, "port 0\nrename-command CONFIG secret-config\nrename-command KEYS \"\"\n");

        try (EbbServer server = EbbServer.start(ServerConfig.load(file));
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            JedisDataException keys = assertThrows(JedisDataException.class, () -> jedis.keys("*"));
            JedisDataException config = assertThrows(JedisDataException.class, () -> jedis.configGet("port"));
            Object renamed = jedis.sendCommand(() -> "secret-config".getBytes(), "get", "maxclients");

            assertEquals("ERR unknown command 'KEYS', with args beginning with: '*' ", keys.getMessage());
            assertTrue(config.getMessage().startsWith("ERR unknown command 'CONFIG'"), config.getMessage());
            assertEquals("maxclients", new String((byte[]) ((java.util.List<?>) renamed).get(0)));
        }
    }

    @Test
    void renamingAnUnknownCommandShouldFailStartUp() throws Exception {
        ServerConfig config = ServerConfig.fromText("port 0\nrename-command nosuch other\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EbbServer.start(config));

        assertTrue(e.getMessage().contains("No such command in rename-command"), e.getMessage());
    }

    @Test
    void renamingOntoAnExistingCommandShouldFailStartUp() throws Exception {
        ServerConfig config = ServerConfig.fromText("port 0\nrename-command get set\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EbbServer.start(config));

        assertTrue(e.getMessage().contains("Target command name already exists"), e.getMessage());
    }
}
