package dev.ebb.storage.rdb;

import java.io.IOException;

/**
 * An RDB file or DUMP payload that cannot be read: truncated, corrupt, of an unknown version or
 * type, or with a wrong checksum. The message is Redis's for the same case where it has one
 * ("Short read or OOM loading DB. Unrecoverable error, aborting now.", "Wrong RDB checksum ...").
 * Nothing read before the failure may be kept: callers load into fresh databases and swap them in
 * only on success.
 */
public final class RdbException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Redis's text when the input ends early. */
    public static final String SHORT_READ = "Short read or OOM loading DB. Unrecoverable error, aborting now.";

    public RdbException(String message) {
        super(message);
    }

    public RdbException(String message, Throwable cause) {
        super(message, cause);
    }

    static RdbException shortRead() {
        return new RdbException(SHORT_READ);
    }

    /** Redis's rdbReportCorruptRDB text: where in the input and what is wrong. */
    static RdbException corrupt(long offset, String what) {
        return new RdbException("Internal error in RDB reading offset " + offset + " -> " + what);
    }
}
