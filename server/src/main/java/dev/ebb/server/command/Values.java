package dev.ebb.server.command;

/** Sentinels shared by the command families. */
final class Values {
    /** Returned by {@code lookup...OrReply} helpers after they replied WRONGTYPE. */
    static final Object WRONG_TYPE = new Object();

    private Values() {
    }
}
