package dev.ebb.server.persistence;

/**
 * One background AOF rewrite (Redis's AOF child): the base file being written and the snapshot feeding
 * it, and when it started. {@link AppendOnlyFile} drives it. Loop thread only.
 */
final class AofRewrite {
    private final AofBaseOutput output;
    private final long startMs;
    private SnapshotHandOver job;

    AofRewrite(AofBaseOutput output, long startMs) {
        this.output = output;
        this.startMs = startMs;
    }

    /** Starts {@code snapshot}'s walk and writer thread, the latter on the CPUs of {@code cpulist} if not empty. */
    void start(SnapshotHandOver snapshot, String cpulist) {
        this.job = snapshot;
        snapshot.start("ebb-aof-rewrite", cpulist);
    }

    AofBaseOutput output() {
        return output;
    }

    SnapshotHandOver job() {
        return job;
    }

    long startMs() {
        return startMs;
    }
}
