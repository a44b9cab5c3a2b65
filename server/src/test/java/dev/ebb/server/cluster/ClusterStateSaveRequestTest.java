package dev.ebb.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Which nodes.conf save a change asks for: CLUSTER SETSLOT's own changes are saved without an
 * fsync, as Redis 7.2's SETSLOT (CLUSTER_TODO_SAVE_CONFIG only), so a resharding does not pay a
 * disk flush per slot; a new config epoch (the end of an import) is fsynced, as Redis's
 * clusterBumpConfigEpochWithoutConsensus; the stronger request wins.
 */
class ClusterStateSaveRequestTest {
    private final ClusterState state = new ClusterState(new SplittableRandom(7), 0);

    ClusterStateSaveRequestTest() {
        state.takeSaveRequest();
    }

    @Test
    void setslotChangesShouldAskForASaveWithoutFsync() {
        ClusterNode me = state.myself();
        state.addMySlot(5);
        state.takeSaveRequest();

        state.setMigrating(5, me);
        assertEquals(ClusterState.SAVE, state.takeSaveRequest());
        state.setStable(5);
        assertEquals(ClusterState.SAVE, state.takeSaveRequest());
        state.setImporting(6, me);
        assertEquals(ClusterState.SAVE, state.takeSaveRequest());
        assertEquals(ClusterState.SAVE_NONE, state.takeSaveRequest());
    }

    @Test
    void theEndOfAnImportShouldAskForAnFsyncedSave() {
        ClusterNode me = state.myself();
        state.setImporting(6, me);

        state.setSlotNode(6, me);

        assertEquals(ClusterState.SAVE_FSYNC, state.takeSaveRequest());
        assertEquals(1, me.configEpoch);
        state.setSlotNode(7, me);
        assertEquals(ClusterState.SAVE, state.takeSaveRequest());
    }
}
