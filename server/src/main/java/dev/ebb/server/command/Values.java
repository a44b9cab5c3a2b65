package dev.ebb.server.command;

/** Sentinels shared by the command families. */
final class Values {
    /** Returned by {@code lookup...OrReply} helpers after they replied WRONGTYPE. */
    static final Object WRONG_TYPE = new Object();

    /**
     * The bytes of a stored value if it is a string (exactly its length: a {@code RawString} with
     * spare capacity is copied), else null (missing key, other type). BITFIELD and SORT's BY and
     * GET patterns read strings through here.
     */
    static byte[] stringBytes(Object value) {
        return Strings.isString(value) ? Strings.exact(value) : null;
    }

    private Values() {
    }
}
