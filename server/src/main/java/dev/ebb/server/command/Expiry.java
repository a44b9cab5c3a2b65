package dev.ebb.server.command;

import dev.ebb.server.Client;

/** Turns the relative and absolute expire arguments of SET, GETEX, EXPIRE … into absolute unix ms. */
final class Expiry {
    private Expiry() {
    }

    /**
     * Parses {@code arg} in {@code unit} ("ex", "px", "exat", "pxat") into an absolute time in ms.
     * Replies {@code ERR value is not an integer or out of range} for a non-number and
     * {@code ERR invalid expire time in '<command>' command} for a value that is not positive or
     * overflows, and then returns {@link Arguments#INVALID}.
     */
    static long absoluteMsOrReply(Client c, byte[] arg, String unit, String command) {
        if (!Arguments.isLongOrReply(c, arg)) {
            return Arguments.INVALID;
        }
        long v = Arguments.parseLong(arg);
        boolean seconds = unit.equals("ex") || unit.equals("exat");
        boolean relative = unit.equals("ex") || unit.equals("px");
        if (v <= 0 || (seconds && v > Long.MAX_VALUE / 1000)) {
            c.reply().error(Errors.invalidExpireTime(command));
            return Arguments.INVALID;
        }
        long ms = seconds ? v * 1000 : v;
        if (relative) {
            long now = c.server().nowMs();
            if (ms > Long.MAX_VALUE - now) {
                c.reply().error(Errors.invalidExpireTime(command));
                return Arguments.INVALID;
            }
            ms += now;
        }
        return ms;
    }
}
