package dev.ebb.server.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;

/**
 * An error raised with a Redis error reply as its text ({@code ERR ...}, {@code WRONGTYPE ...}):
 * a failing {@code redis.call}, a misused {@code redis.*} function, a killed script. Lua code that
 * catches it with {@code pcall} gets the bare text, as in Redis 7; uncaught, the caller's reply is
 * that text followed by {@code script: <sha>, on @user_script:<line>.}, with no position prefix.
 */
final class ReplyError extends LuaError {
    private static final long serialVersionUID = 1L;

    private final boolean counted;

    ReplyError(String reply) {
        this(reply, false);
    }

    /** @param counted whether the error is a command's, already counted in INFO errorstats */
    ReplyError(String reply, boolean counted) {
        super(LuaValue.valueOf(reply));
        this.counted = counted;
    }

    /** Whether the error is a command's, already counted in INFO errorstats. */
    boolean counted() {
        return counted;
    }
}
