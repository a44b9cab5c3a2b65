package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of the geo commands: the keyevent sequence redis-server 7.2.4 published
 * for the same commands (GEOADD is a ZADD; STORE forms publish georadiusstore or geosearchstore,
 * and "del" when an empty result removes the destination; reads and no-ops publish nothing).
 */
class GeoNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void geoCommandsShouldPublishRedisEventSequence() throws Exception {
        String[] commands = {"GEOADD g 13.361389 38.115556 Palermo 15.087269 37.502669 Catania",
            "GEOADD g NX 1 1 Palermo", "GEOADD g XX CH 1 1 nope", "GEORADIUS g 15 37 200 km STORE d",
            "GEORADIUS g 15 37 200 km STOREDIST d", "GEORADIUSBYMEMBER g Palermo 1 km STORE d",
            "GEOSEARCHSTORE d2 g FROMLONLAT 15 37 BYRADIUS 200 km",
            "GEOSEARCHSTORE d2 g FROMLONLAT 15 37 BYRADIUS 1 m", "GEORADIUS nokey 15 37 200 km STORE d",
            "GEORADIUS nokey 15 37 200 km STORE d", "GEOSEARCH g FROMLONLAT 15 37 BYRADIUS 200 km",
            "ZREM g Palermo", "RENAME g g2", "MOVE g2 1", "SET done 1"};
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            for (String command : commands) {
                c.call(command.split(" "));
            }

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("zadd g", "georadiusstore d", "georadiusstore d", "georadiusstore d",
                    "geosearchstore d2", "del d2", "del d", "zrem g", "rename_from g", "rename_to g2",
                    "move_from g2", "set done"), events);
        }
    }
}
