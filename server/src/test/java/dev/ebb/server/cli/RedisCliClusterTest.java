package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** redis-cli against Ebb in cluster mode: {@code -c} (cluster-aware) and {@code --cluster check}. */
class RedisCliClusterTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    @Test
    void clusterModeClientShouldWorkWithHashTaggedKeysAndSeeCrossslot() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result mset = cli.run("-c", "mset", "{user:100}:name", "ann", "{user:100}:city", "Oslo");
        RedisCli.Result mget = cli.run("-c", "mget", "{user:100}:name", "{user:100}:city");
        RedisCli.Result cross = cli.run("-c", "--no-raw", "mset", "user:100:name", "ann", "user:200:name", "bob");

        assertEquals(List.of("OK"), mset.lines(), mset::describe);
        assertEquals(List.of("ann", "Oslo"), mget.lines(), mget::describe);
        assertEquals(List.of("(error) CROSSSLOT Keys in request don't hash to the same slot"), cross.lines(),
                cross::describe);
    }

    @Test
    void clusterCheckShouldFindEverySlotCovered() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result check = cli.run("--cluster", "check", "127.0.0.1:" + ebb.port());

        assertEquals(0, check.exitCode(), check::describe);
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }
}
