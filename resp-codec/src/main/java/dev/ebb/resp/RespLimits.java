package dev.ebb.resp;

/**
 * Request-size limits that every {@link RespDecoder} of a server reads.
 *
 * <p>Thread safety: one instance is shared by all connections; CONFIG SET changes it on the command
 * loop thread while IO threads read it, so both fields are volatile. A change applies to the next
 * header or read a decoder looks at; a command half-way through decoding keeps the bulk length it
 * already accepted. Reads cost one volatile load.
 */
public final class RespLimits {
    /** Redis's default {@code proto-max-bulk-len}: 512 MB. */
    public static final long DEFAULT_PROTO_MAX_BULK_LEN = 512L * 1024 * 1024;
    /** Redis's default {@code client-query-buffer-limit}: 1 GB. */
    public static final long DEFAULT_CLIENT_QUERY_BUFFER_LIMIT = 1024L * 1024 * 1024;

    private volatile long protoMaxBulkLen = DEFAULT_PROTO_MAX_BULK_LEN;
    private volatile long clientQueryBufferLimit = DEFAULT_CLIENT_QUERY_BUFFER_LIMIT;

    /** Limits with Redis's defaults. */
    public RespLimits() {
    }

    /** Largest bulk argument a client may declare ({@code proto-max-bulk-len}). */
    public long protoMaxBulkLen() {
        return protoMaxBulkLen;
    }

    /**
     * Sets {@code proto-max-bulk-len}. Range checks beyond positivity (Redis's minimum is 1 MB) belong
     * to the config layer. A Java array holds at most about 2 GB, so larger values behave as that.
     */
    public void protoMaxBulkLen(long v) {
        if (v <= 0) {
            throw new IllegalArgumentException("proto-max-bulk-len must be positive: protoMaxBulkLen=" + v);
        }
        protoMaxBulkLen = v;
    }

    /** Most bytes one client may have buffered for a command that is not complete yet. */
    public long clientQueryBufferLimit() {
        return clientQueryBufferLimit;
    }

    /** Sets {@code client-query-buffer-limit}; range checks beyond positivity belong to the config layer. */
    public void clientQueryBufferLimit(long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(
                "client-query-buffer-limit must be positive: clientQueryBufferLimit=" + v);
        }
        clientQueryBufferLimit = v;
    }
}
