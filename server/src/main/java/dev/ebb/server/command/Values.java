package dev.ebb.server.command;

/** Sentinels shared by the command families. */
final class Values {
    /** Returned by {@code lookup...OrReply} helpers after they replied WRONGTYPE. */
    static final Object WRONG_TYPE = new Object();

    /**
     * The bytes of a stored value if it is a string, else null (missing key, other type). BITFIELD
     * and SORT's BY and GET patterns read strings only through here, so a second string
     * representation needs one change: this method.
     */
    static byte[] stringBytes(Object value) {
        return value instanceof byte[] s ? s : null;
    }

    private Values() {
    }
}
