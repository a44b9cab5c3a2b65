package dev.ebb.server.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.luaj.vm2.LuaFunction;

/**
 * One function a library registered with {@code redis.register_function}: its name, optional
 * description, flags and the Lua callback FCALL runs. Immutable.
 *
 * @param library the name of the library that registered it
 */
public record LibraryFunction(String name, String description, int flags, LuaFunction callback, String library) {
    /** {@code no-writes}: may only read; FCALL_RO may run it, and it may run when memory is over maxmemory. */
    public static final int NO_WRITES = 1;
    /** {@code allow-oom}: may run (and write) when memory is over maxmemory. */
    public static final int ALLOW_OOM = 1 << 1;
    /** {@code allow-stale}: may run on a stale replica. */
    public static final int ALLOW_STALE = 1 << 2;
    /** {@code no-cluster}: refused in cluster mode. */
    public static final int NO_CLUSTER = 1 << 3;
    /** {@code allow-cross-slot-keys}: in cluster mode, may touch keys of several slots. */
    public static final int ALLOW_CROSS_SLOT = 1 << 4;

    /** The flags' names, in the order Redis lists them (FUNCTION LIST), bit i named at index i. */
    private static final String[] FLAG_NAMES = {"no-writes", "allow-oom", "allow-stale", "no-cluster",
        "allow-cross-slot-keys"};

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** The flag named {@code name} (any case), or 0 if there is none. */
    static int flag(String name) {
        for (int i = 0; i < FLAG_NAMES.length; i++) {
            if (FLAG_NAMES[i].equals(name.toLowerCase(Locale.ROOT))) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The names of this function's flags, in Redis's order. */
    public List<String> flagNames() {
        List<String> names = new ArrayList<>(FLAG_NAMES.length);
        for (int i = 0; i < FLAG_NAMES.length; i++) {
            if ((flags & (1 << i)) != 0) {
                names.add(FLAG_NAMES[i]);
            }
        }
        return names;
    }
}
