package dev.ebb.server.cluster;

import dev.ebb.server.embedded.EbbExtension;

/**
 * Makes a test's cluster-enabled Ebb a one-node cluster that owns every slot, as
 * {@code CLUSTER ADDSLOTSRANGE 0 16383} does on a fresh redis-server (a new node owns no slot).
 */
public final class OneNodeCluster {
    private OneNodeCluster() {
    }

    public static void ownEverySlot(EbbExtension ebb) {
        ebb.server().runOnLoop(s -> {
            ClusterState cs = s.cluster().state();
            for (int slot = 0; slot < HashSlots.SLOTS; slot++) {
                if (cs.slotOwner(slot) == null) {
                    cs.addMySlot(slot);
                }
            }
            cs.updateState(s.nowMs());
            s.cluster().saveIfNeeded();
        });
    }
}
