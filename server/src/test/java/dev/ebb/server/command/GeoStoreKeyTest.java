package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GEORADIUS's STORE / STOREDIST keys are keys of the command (movable, found as Redis's key specs
 * find them): in cluster mode they must share the source's slot, alone or inside a transaction.
 */
class GeoStoreKeyTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    private static final String CROSSSLOT = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";

    @Test
    void storeKeyInAnotherSlotShouldBeRefused() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("GEOADD", "{g}src", "15", "37", "m");

            assertEquals(CROSSSLOT, s.call("GEORADIUS", "{g}src", "15", "37", "1", "km", "STORE", "other"));
            assertEquals(CROSSSLOT, s.call("GEORADIUSBYMEMBER", "{g}src", "m", "1", "km", "STOREDIST", "other"));
            assertEquals(":1\r\n", s.call("GEORADIUS", "{g}src", "15", "37", "1", "km", "STORE", "{g}dst"));
            assertEquals("*1\r\n$1\r\nm\r\n", s.call("GEORADIUS_RO", "{g}src", "15", "37", "1", "km"));
            assertEquals(CROSSSLOT, s.call("GEOSEARCHSTORE", "other", "{g}src", "FROMMEMBER", "m", "BYRADIUS", "1",
                    "km"));
        }
    }

    @Test
    void storeKeyInAnotherSlotShouldBeRefusedWhenQueuedAndAbortTheTransaction() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            assertEquals("+QUEUED\r\n", s.call("GEORADIUS", "{g}src", "15", "37", "1", "km", "STORE", "{g}dst"));

            assertEquals(CROSSSLOT, s.call("GEORADIUS", "{g}src", "15", "37", "1", "km", "STOREDIST", "other"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", s.call("EXEC"));
        }
    }
}
