package dev.ebb.server.acl;

import dev.ebb.server.util.Glob;
import java.nio.charset.StandardCharsets;

/**
 * One key pattern of a selector: {@code ~pattern} (read and write), {@code %R~pattern} or
 * {@code %W~pattern}, compiled once. Immutable.
 */
record KeyPattern(String pattern, int permissions, Glob glob) {

    static KeyPattern of(String pattern, int permissions) {
        return new KeyPattern(pattern, permissions, Glob.compile(pattern.getBytes(StandardCharsets.ISO_8859_1), false));
    }

    KeyPattern withPermissions(int more) {
        return new KeyPattern(pattern, permissions | more, glob);
    }

    /** As ACL LIST writes it: {@code ~p}, {@code %R~p}, {@code %W~p}. */
    String describe() {
        if (permissions == (CommandAcl.READ | CommandAcl.WRITE)) {
            return "~" + pattern;
        }
        return "%" + ((permissions & CommandAcl.READ) != 0 ? "R" : "") + ((permissions & CommandAcl.WRITE) != 0 ? "W" : "")
                + "~" + pattern;
    }
}
