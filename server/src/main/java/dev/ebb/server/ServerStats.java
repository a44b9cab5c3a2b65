package dev.ebb.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters INFO stats reports, with Redis's names. Written only by the command loop thread, except
 * the connection counters which IO threads bump (hence the atomic fields).
 */
public final class ServerStats {
    final AtomicLong totalConnectionsReceived = new AtomicLong();
    final AtomicLong rejectedConnections = new AtomicLong();
    final AtomicLong netInputBytes = new AtomicLong();
    final AtomicLong netOutputBytes = new AtomicLong();
    long totalCommandsProcessed;
    long keyspaceHits;
    long keyspaceMisses;
    long unexpectedErrorReplies;
    /** Clients closed by client-output-buffer-limit (INFO client_output_buffer_limit_disconnections). */
    long clientOutputBufferLimitDisconnections;
    private long usedMemoryPeak;
    private long lazyfreedObjects;

    private static final int SAMPLES = 16;
    private final long[] opsSamples = new long[SAMPLES];
    private final long[] inputSamples = new long[SAMPLES];
    private final long[] outputSamples = new long[SAMPLES];
    private int sampleIndex;
    private long lastSampleMs;
    private long lastOps;
    private long lastInput;
    private long lastOutput;

    public long totalConnectionsReceived() {
        return totalConnectionsReceived.get();
    }

    public long rejectedConnections() {
        return rejectedConnections.get();
    }

    public long netInputBytes() {
        return netInputBytes.get();
    }

    public long netOutputBytes() {
        return netOutputBytes.get();
    }

    public long totalCommandsProcessed() {
        return totalCommandsProcessed;
    }

    public long clientOutputBufferLimitDisconnections() {
        return clientOutputBufferLimitDisconnections;
    }

    public long keyspaceHits() {
        return keyspaceHits;
    }

    public long keyspaceMisses() {
        return keyspaceMisses;
    }

    /** Counts a read lookup for INFO's keyspace_hits / keyspace_misses. */
    public void lookup(boolean hit) {
        if (hit) {
            keyspaceHits++;
        } else {
            keyspaceMisses++;
        }
    }

    /** Commands that failed with an unexpected exception (INFO {@code unexpected_error_replies}). */
    public long unexpectedErrorReplies() {
        return unexpectedErrorReplies;
    }

    /**
     * Raises the recorded peak to {@code usedMemory} if it is higher and returns the peak (INFO
     * {@code used_memory_peak}). The peak only sees the values observed; INFO observes on every call.
     * Like Redis, {@link #reset()} keeps it.
     */
    public long observeUsedMemory(long usedMemory) {
        if (usedMemory > usedMemoryPeak) {
            usedMemoryPeak = usedMemory;
        }
        return usedMemoryPeak;
    }

    /** Samples the counters (called by cron every 100 ms or so) for the instantaneous rates. */
    void sample(long nowMs) {
        long elapsed = nowMs - lastSampleMs;
        if (elapsed <= 0) {
            return;
        }
        long ops = totalCommandsProcessed;
        long in = netInputBytes.get();
        long out = netOutputBytes.get();
        if (lastSampleMs != 0) {
            opsSamples[sampleIndex] = (ops - lastOps) * 1000 / elapsed;
            inputSamples[sampleIndex] = (in - lastInput) * 1000 / elapsed;
            outputSamples[sampleIndex] = (out - lastOutput) * 1000 / elapsed;
            sampleIndex = (sampleIndex + 1) % SAMPLES;
        }
        lastSampleMs = nowMs;
        lastOps = ops;
        lastInput = in;
        lastOutput = out;
    }

    public long instantaneousOpsPerSec() {
        return mean(opsSamples);
    }

    public double instantaneousInputKbps() {
        return mean(inputSamples) / 1024.0;
    }

    public double instantaneousOutputKbps() {
        return mean(outputSamples) / 1024.0;
    }

    private static long mean(long[] samples) {
        long sum = 0;
        for (long s : samples) {
            sum += s;
        }
        return sum / samples.length;
    }

    /**
     * INFO {@code lazyfreed_objects}: what Redis 7.2.4 would have handed to its lazy-free thread
     * (see {@code LazyFree}). Loop thread only.
     */
    public long lazyfreedObjects() {
        return lazyfreedObjects;
    }

    /** Counts {@code n} objects Redis would have freed lazily. Loop thread only. */
    public void lazyfreed(long n) {
        lazyfreedObjects += n;
    }

    /** INFO {@code evicted_clients}: clients closed by {@code maxmemory-clients}. Loop thread only. */
    long evictedClients;

    public long evictedClients() {
        return evictedClients;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        evictedClients = 0;
        lazyfreedObjects = 0;
        totalConnectionsReceived.set(0);
        rejectedConnections.set(0);
        netInputBytes.set(0);
        netOutputBytes.set(0);
        totalCommandsProcessed = 0;
        keyspaceHits = 0;
        keyspaceMisses = 0;
        unexpectedErrorReplies = 0;
        clientOutputBufferLimitDisconnections = 0;
    }
}
