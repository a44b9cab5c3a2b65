package dev.ebb.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Replicas, elections and manual failover on the gossip state machine, over {@link SimulatedBus}
 * with a manual clock: the replica role as the others see it, a FAIL primary replaced by its best
 * replica after a majority vote, one vote per epoch, the old primary following the new owner, the
 * validity factor and no-failover settings, replica migration and its barrier, and CLUSTER
 * FAILOVER's default, FORCE and TAKEOVER forms.
 */
class FailoverStateMachineTest {
    private static final long TIMEOUT = 2000;

    private final SimulatedBus bus = new SimulatedBus();

    /** Nodes 0-2 primaries with a third of the slots each (epochs 1-3), nodes 3.. replicas of 0, 1, 2, 0 … */
    private SimulatedBus.Node[] cluster(int replicas) {
        SimulatedBus.Node[] n = new SimulatedBus.Node[3 + replicas];
        for (int i = 0; i < n.length; i++) {
            n[i] = bus.add(TIMEOUT);
        }
        int[] bounds = {0, 5461, 10923, HashSlots.SLOTS};
        for (int i = 0; i < 3; i++) {
            for (int s = bounds[i]; s < bounds[i + 1]; s++) {
                n[i].state.addMySlot(s);
            }
            n[i].state.setMyConfigEpoch(i + 1);
        }
        for (int i = 1; i < n.length; i++) {
            assertTrue(n[0].gossip.startHandshake("127.0.0.1", 7000 + i, 17000 + i, bus.now));
        }
        bus.run(3000);
        for (int i = 3; i < n.length; i++) {
            SimulatedBus.Node master = n[(i - 3) % 3];
            n[i].gossip.replicas().setMyMaster(n[i].view(master), bus.now);
        }
        bus.run(3000);
        return n;
    }

    @Test
    void replicasShouldBeSeenAsSlavesOfTheirPrimaryByEveryNodeAndFollowIt() {
        SimulatedBus.Node[] n = cluster(3);

        for (SimulatedBus.Node node : n) {
            for (int i = 3; i < 6; i++) {
                ClusterNode view = node.view(n[i]);
                assertTrue(view.has(ClusterNode.SLAVE), view.flagsText());
                assertEquals(n[i - 3].myself().name(), view.slaveof());
                assertEquals(0, view.slotCount());
            }
            assertEquals(3, node.state.size());
            node.state.updateState(bus.now);
            assertEquals(ClusterState.OK, node.state.state());
        }
        assertEquals(7000, n[3].replication.port);
        assertEquals(n[0].myself().shardId(), n[3].myself().shardId());
        assertEquals(1, n[0].state.replicasOf(n[0].myself()).size());
        assertTrue(n[0].myself().has(ClusterNode.MIGRATE_TO));
    }

    @Test
    void aFailedPrimaryShouldBeReplacedByItsReplicaWithTheVotesOfAMajority() {
        SimulatedBus.Node[] n = cluster(3);
        long epochBefore = n[1].state.currentEpoch();

        n[0].kill();
        bus.run(TIMEOUT * 3 + 3000);

        SimulatedBus.Node replica = n[3];
        assertTrue(replica.myself().isMaster(), replica.myself().flagsText());
        assertEquals(1, replica.replication.promotions);
        assertEquals(5461, replica.myself().slotCount());
        assertTrue(replica.myself().configEpoch() > epochBefore);
        for (int i = 1; i < 6; i++) {
            if (i == 3) {
                continue;
            }
            assertEquals(replica.myself().name(), n[i].state.slotOwner(0).name(), "node " + i);
            assertEquals(ClusterState.OK, n[i].state.state(), "node " + i);
        }
        assertEquals(replica.myself().configEpoch(), n[1].state.lastVoteEpoch());
        assertEquals(replica.myself().configEpoch(), n[2].state.lastVoteEpoch());
    }

    @Test
    void theReturningOldPrimaryShouldBecomeAReplicaOfTheNewOwner() {
        SimulatedBus.Node[] n = cluster(3);
        n[0].kill();
        bus.run(TIMEOUT * 3 + 3000);
        assertTrue(n[3].myself().isMaster());

        n[0].down = false;
        bus.run(TIMEOUT * 3);

        assertTrue(n[0].myself().has(ClusterNode.SLAVE), n[0].myself().flagsText());
        assertEquals(n[3].myself().name(), n[0].myself().slaveof());
        assertEquals(0, n[0].myself().slotCount());
        assertEquals(7003, n[0].replication.port);
        assertEquals(n[3].myself().name(), n[1].view(n[0]).slaveof());
        assertFalse(n[1].view(n[0]).failing(), n[1].view(n[0]).flagsText());
    }

    @Test
    void theReplicaWithTheLargerOffsetShouldWin() {
        SimulatedBus.Node[] n = cluster(4);
        // Nodes 3 and 6 both replicate node 0; node 6 has applied more of the stream.
        n[3].replication.offset = 100;
        n[6].replication.offset = 500;
        bus.run(2000);

        n[0].kill();
        bus.run(TIMEOUT * 3 + 4000);

        assertTrue(n[6].myself().isMaster(), n[6].myself().flagsText());
        assertTrue(n[3].myself().has(ClusterNode.SLAVE));
        assertEquals(n[6].myself().name(), n[3].myself().slaveof());
        assertEquals(7006, n[3].replication.port);
    }

    @Test
    void aPrimaryShouldVoteOncePerEpoch() {
        SimulatedBus.Node[] n = cluster(3);
        n[0].kill();
        bus.run(TIMEOUT * 3);
        SimulatedBus.Node voter = n[1];
        ClusterNode failed = voter.view(n[0]);
        assertTrue(failed.has(ClusterNode.FAIL));
        long votes = voter.state.sent(BusMessage.FAILOVER_AUTH_ACK);
        BusMessage request = n[3].gossip.header(BusMessage.FAILOVER_AUTH_REQUEST);
        request.currentEpoch = voter.state.currentEpoch();
        voter.state.lastVoteEpoch = voter.state.currentEpoch();

        voter.gossip.failover().voteIfNeeded(voter.view(n[3]), request, bus.now + TIMEOUT * 10);

        assertEquals(votes, voter.state.sent(BusMessage.FAILOVER_AUTH_ACK), "voted twice in one epoch");
    }

    @Test
    void aReplicaDisconnectedForLongerThanTheValidityFactorAllowsShouldNotFailOver() {
        SimulatedBus.Node[] n = cluster(3);
        n[3].replication.dataAgeMs = 10_000 + TIMEOUT * 11 + 1;

        n[0].kill();
        bus.run(TIMEOUT * 6);

        assertTrue(n[1].view(n[0]).has(ClusterNode.FAIL));
        assertTrue(n[3].myself().has(ClusterNode.SLAVE));
        assertEquals(0, n[3].state.sent(BusMessage.FAILOVER_AUTH_REQUEST));
    }

    @Test
    void aReplicaWithNoFailoverShouldNotFailOverAndBeFlaggedSo() {
        SimulatedBus.Node[] n = cluster(3);
        n[3].state.failoverSettings(10, true, 1, true, 10_000);
        bus.run(1000);
        assertTrue(n[1].view(n[3]).has(ClusterNode.NOFAILOVER), n[1].view(n[3]).flagsText());

        n[0].kill();
        bus.run(TIMEOUT * 6);

        assertTrue(n[3].myself().has(ClusterNode.SLAVE));
        assertEquals(0, n[3].state.sent(BusMessage.FAILOVER_AUTH_REQUEST));
    }

    @Test
    void aSpareReplicaShouldMigrateToAPrimaryLeftWithoutWorkingReplicas() {
        SimulatedBus.Node[] n = cluster(4);
        // Node 0 has replicas 3 and 6, node 2 only replica 5: when 5 dies, one of 3 and 6 moves to 2.
        n[5].kill();
        bus.run(TIMEOUT * 3 + Replicas.MIGRATION_DELAY_MS + 2000);

        SimulatedBus.Node mover = n[3].myself().name().compareTo(n[6].myself().name()) < 0 ? n[3] : n[6];
        SimulatedBus.Node stayer = mover == n[3] ? n[6] : n[3];
        assertEquals(n[2].myself().name(), mover.myself().slaveof());
        assertEquals(n[0].myself().name(), stayer.myself().slaveof());
        assertEquals(7002, mover.replication.port);
        assertEquals(n[2].myself().name(), n[1].view(mover).slaveof());
    }

    @Test
    void noReplicaShouldMigrateWhenTheBarrierWouldBeCrossed() {
        SimulatedBus.Node[] n = cluster(4);
        for (SimulatedBus.Node node : n) {
            node.state.failoverSettings(10, false, 2, true, 10_000);
        }
        n[5].kill();
        bus.run(TIMEOUT * 3 + Replicas.MIGRATION_DELAY_MS + 2000);

        assertEquals(n[0].myself().name(), n[3].myself().slaveof());
        assertEquals(n[0].myself().name(), n[6].myself().slaveof());
    }

    @Test
    void manualFailoverShouldPauseThePrimaryWaitForItsOffsetAndSwapRoles() {
        SimulatedBus.Node[] n = cluster(3);
        n[0].replication.offset = 1234;
        n[3].replication.offset = 1000;

        assertNull(n[3].gossip.failover().manualFailover(false, false, bus.now));
        bus.run(300);
        boolean pausedWhileBehind = n[0].replication.pausedUntil != 0 && n[3].myself().has(ClusterNode.SLAVE);
        n[3].replication.offset = 1234;
        bus.run(2000);

        assertTrue(pausedWhileBehind, "the primary should hold writes until the replica caught up");
        assertTrue(n[3].myself().isMaster(), n[3].myself().flagsText());
        assertEquals(5461, n[3].myself().slotCount());
        assertTrue(n[0].myself().has(ClusterNode.SLAVE), n[0].myself().flagsText());
        assertEquals(n[3].myself().name(), n[0].myself().slaveof());
        assertEquals(0, n[0].replication.pausedUntil, "the old primary should let its clients go");
    }

    @Test
    void manualFailoverErrorsShouldBeRedis() {
        SimulatedBus.Node[] n = cluster(3);

        assertEquals("ERR You should send CLUSTER FAILOVER to a replica",
                n[0].gossip.failover().manualFailover(false, false, bus.now));
        n[3].state.failoverSettings(10, true, 1, true, 10_000);
        n[0].kill();
        bus.run(TIMEOUT * 4);
        assertEquals("ERR Master is down or failed, please use CLUSTER FAILOVER FORCE",
                n[3].gossip.failover().manualFailover(false, false, bus.now));
        assertNull(n[3].gossip.failover().manualFailover(true, false, bus.now));
        bus.run(TIMEOUT);
        assertTrue(n[3].myself().isMaster(), "FORCE fails over even with cluster-replica-no-failover");
    }

    @Test
    void takeoverShouldNeedNoVotes() {
        SimulatedBus.Node[] n = cluster(3);
        long maxEpoch = n[2].myself().configEpoch();
        n[1].kill();
        n[2].kill();

        assertNull(n[3].gossip.failover().manualFailover(true, true, bus.now));

        assertTrue(n[3].myself().isMaster());
        assertTrue(n[3].myself().configEpoch() > maxEpoch);
        assertEquals(0, n[3].state.sent(BusMessage.FAILOVER_AUTH_REQUEST));
        bus.run(1000);
        assertTrue(n[0].myself().has(ClusterNode.SLAVE), n[0].myself().flagsText());
        assertNotNull(n[0].myself().slaveof());
    }
}
