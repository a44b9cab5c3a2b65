package dev.ebb.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The gossip state machine driven by a manual clock over {@link SimulatedBus}: joining by MEET,
 * failure detection (PFAIL after the node timeout, FAIL once a majority of primaries reports it,
 * clearing), config epoch collisions and slot ownership by epoch. No sockets, no sleeping.
 */
class GossipStateMachineTest {
    private static final long TIMEOUT = 2000;

    private final SimulatedBus bus = new SimulatedBus();

    /** Three primaries with a third of the slots each and epochs 1, 2, 3, joined by A meeting B and C. */
    private SimulatedBus.Node[] threePrimaries() {
        SimulatedBus.Node[] n = {bus.add(TIMEOUT), bus.add(TIMEOUT), bus.add(TIMEOUT)};
        int[] bounds = {0, 5461, 10923, HashSlots.SLOTS};
        for (int i = 0; i < 3; i++) {
            for (int s = bounds[i]; s < bounds[i + 1]; s++) {
                n[i].state.addMySlot(s);
            }
            n[i].state.setMyConfigEpoch(i + 1);
        }
        for (int i = 1; i < 3; i++) {
            assertTrue(n[0].gossip.startHandshake("127.0.0.1", 7000 + i, 17000 + i, bus.now));
        }
        bus.run(3000);
        return n;
    }

    @Test
    void meetShouldJoinEveryNodeUnderItsRealIdAndTheClusterShouldTurnOk() {
        SimulatedBus.Node[] n = threePrimaries();

        for (SimulatedBus.Node node : n) {
            assertEquals(3, node.state.nodes().size());
            for (SimulatedBus.Node other : n) {
                ClusterNode view = node.view(other);
                assertNotNull(view, "node " + node.myself().name() + " does not know " + other.myself().name());
                assertFalse(view.has(ClusterNode.HANDSHAKE));
                assertEquals(other.myself().slotCount(), view.slotCount());
            }
            node.state.updateState(bus.now);
            assertEquals(ClusterState.OK, node.state.state());
            assertEquals(3, node.state.size());
            assertEquals(3, node.state.currentEpoch());
        }
    }

    @Test
    void aKilledPrimaryShouldBePfailAfterTheTimeoutThenFailByMajorityThenClearedWhenBack() {
        SimulatedBus.Node[] n = threePrimaries();
        SimulatedBus.Node a = n[0];
        SimulatedBus.Node b = n[1];
        SimulatedBus.Node c = n[2];

        c.kill();
        bus.run(TIMEOUT / 2);
        boolean failingEarly = a.view(c).failing() || b.view(c).failing();
        bus.run(TIMEOUT * 2);

        assertFalse(failingEarly, "flagged before the node timeout");
        assertTrue(a.view(c).has(ClusterNode.FAIL), a.view(c).flagsText());
        assertTrue(b.view(c).has(ClusterNode.FAIL), b.view(c).flagsText());
        assertEquals(ClusterState.FAIL, a.state.state());
        assertEquals(5461, a.state.slotCounts()[3]);

        c.down = false;
        bus.run(TIMEOUT * 3);

        assertFalse(a.view(c).failing(), a.view(c).flagsText());
        assertFalse(b.view(c).failing(), b.view(c).flagsText());
        assertEquals(ClusterState.OK, a.state.state());
        assertEquals(ClusterState.OK, b.state.state());
    }

    @Test
    void aSinglePfailReportShouldNotBeEnoughForFailInAFivePrimaryCluster() {
        SimulatedBus.Node[] n = new SimulatedBus.Node[5];
        for (int i = 0; i < 5; i++) {
            n[i] = bus.add(TIMEOUT);
            n[i].state.addMySlot(i);
            n[i].state.setMyConfigEpoch(i + 1);
        }
        for (int i = 1; i < 5; i++) {
            n[0].gossip.startHandshake("127.0.0.1", 7000 + i, 17000 + i, bus.now);
        }
        bus.run(4000);
        ClusterNode target = n[0].view(n[4]);

        target.flags |= ClusterNode.PFAIL;
        n[0].gossip.markFailingIfNeeded(target, bus.now);

        assertFalse(target.has(ClusterNode.FAIL), "myself alone is 1 of the 3 reports needed");
        n[0].state.addFailureReport(target, n[0].view(n[1]), bus.now);
        n[0].gossip.markFailingIfNeeded(target, bus.now);
        assertFalse(target.has(ClusterNode.FAIL));
        n[0].state.addFailureReport(target, n[0].view(n[2]), bus.now);
        n[0].gossip.markFailingIfNeeded(target, bus.now);
        assertTrue(target.has(ClusterNode.FAIL));
    }

    @Test
    void failureReportsShouldExpireAfterTwiceTheNodeTimeout() {
        SimulatedBus.Node[] n = threePrimaries();
        ClusterNode target = n[0].view(n[2]);

        n[0].state.addFailureReport(target, n[0].view(n[1]), bus.now);
        int fresh = n[0].state.failureReports(target, bus.now + TIMEOUT * 2);
        int stale = n[0].state.failureReports(target, bus.now + TIMEOUT * 2 + 1);

        assertEquals(1, fresh);
        assertEquals(0, stale);
    }

    @Test
    void primariesWithTheSameConfigEpochShouldEndWithDifferentOnes() {
        SimulatedBus.Node a = bus.add(TIMEOUT);
        SimulatedBus.Node b = bus.add(TIMEOUT);
        a.state.addMySlot(0);
        b.state.addMySlot(1);
        a.state.setMyConfigEpoch(1);
        b.state.setMyConfigEpoch(1);

        a.gossip.startHandshake("127.0.0.1", 7001, 17001, bus.now);
        bus.run(3000);

        assertNotEquals(a.myself().configEpoch(), b.myself().configEpoch());
        SimulatedBus.Node smaller = a.myself().name().compareTo(b.myself().name()) < 0 ? a : b;
        assertEquals(2, smaller.myself().configEpoch());
    }

    @Test
    void linksQueueingMoreThanTheSendBufferLimitShouldBeFreedCountedAndReopened() {
        SimulatedBus.Node[] n = threePrimaries();
        SimulatedBus.Node a = n[0];
        a.state.linkSendBufferLimit(1000);
        a.queuedBytes = 1000;
        bus.run(100);
        assertEquals(0, a.state.linksBufferLimitExceeded(), "at the limit, not past it");

        a.queuedBytes = 1001;
        bus.run(100);

        assertEquals(4, a.state.linksBufferLimitExceeded(), "both links to each of the two other nodes");
        a.queuedBytes = 0;
        bus.run(3000);
        assertEquals(4, a.state.linksBufferLimitExceeded());
        for (SimulatedBus.Node other : new SimulatedBus.Node[] {n[1], n[2]}) {
            ClusterNode view = a.view(other);
            assertEquals(2, a.state.links(view).size(), "outbound and inbound links again");
            assertFalse(view.has(ClusterNode.PFAIL));
        }
        a.state.updateState(bus.now);
        assertEquals(ClusterState.OK, a.state.state());
    }

    @Test
    void aSlotClaimedWithAHigherEpochShouldChangeOwnerEverywhere() {
        SimulatedBus.Node[] n = threePrimaries();
        SimulatedBus.Node a = n[0];
        SimulatedBus.Node b = n[1];

        a.state.setImporting(5461, a.view(b));
        a.state.setSlotNode(5461, a.myself());
        a.gossip.broadcastPong(bus.now);
        bus.pump();
        b.state.delMySlot(5461);
        bus.run(2000);

        assertEquals(4, a.myself().configEpoch());
        for (SimulatedBus.Node node : n) {
            assertEquals(a.myself().name(), node.state.slotOwner(5461).name());
        }
    }
}
