package dev.ebb.server.script;

import java.util.Map;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The global table scripts see, read-only as in Redis 7: every write fails as a
 * {@link ReadOnlyTable}'s does ({@code x = 1}, {@code _G.x = 1}, {@code rawset(_G, ...)},
 * {@code setmetatable(_G, ...)}), and reading a global that does not exist fails with "Script
 * attempted to access nonexistent global variable" through a sealed metatable
 * ({@code rawget(_G, name)} still answers nil). Only the engine may set an entry, with
 * {@link #define} ({@code KEYS} and {@code ARGV} before each script).
 *
 * <p>It is a {@link Globals} (not a plain table) because LuaJ reaches the debug hooks, and so the
 * script watchdog, through a closure's environment. Loop thread only, or the coroutine thread
 * that holds the script's turn.
 */
final class SandboxGlobals extends Globals {
    private boolean sealed;

    /**
     * Takes the entries of {@code source} (its tables sealed, {@code copies} mapping each original
     * to its copy), and seals itself.
     */
    void sealFrom(LuaTable source, Map<LuaTable, LuaTable> copies) {
        copies.put(source, this);
        ReadOnlyTable.copyInto(source, this, copies);
        setmetatable(ReadOnlyTable.sealedCopy(missingGlobals(), copies));
        sealed = true;
    }

    /**
     * A metatable whose {@code __index} fails with "Script attempted to access nonexistent global
     * variable 'x'", not yet sealed.
     */
    static LuaTable missingGlobals() {
        LuaTable missing = new LuaTable();
        missing.rawset(LuaValue.INDEX, new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + key.tojstring() + "'");
            }
        });
        return missing;
    }

    /**
     * Sets the metatable behind the scripts' back and seals the table: how a function library's
     * empty globals switch between FUNCTION LOAD's API and the run-time globals (as Redis switches
     * its globals' {@code __index}).
     */
    void defineMetatable(LuaValue metatable) {
        sealed = false;
        try {
            super.setmetatable(metatable);
        } finally {
            sealed = true;
        }
    }

    /** Sets a global behind the scripts' back. */
    void define(String name, LuaValue value) {
        sealed = false;
        try {
            super.rawset(LuaValue.valueOf(name), value);
        } finally {
            sealed = true;
        }
    }

    @Override
    public void set(int key, LuaValue value) {
        if (sealed) {
            throw new LuaError(ReadOnlyTable.READONLY);
        }
        super.set(key, value);
    }

    @Override
    public void set(LuaValue key, LuaValue value) {
        if (sealed) {
            throw new LuaError(ReadOnlyTable.READONLY);
        }
        super.set(key, value);
    }

    @Override
    public void rawset(int key, LuaValue value) {
        if (sealed) {
            throw ReadOnlyTable.unplaced();
        }
        super.rawset(key, value);
    }

    @Override
    public void rawset(LuaValue key, LuaValue value) {
        if (sealed) {
            throw ReadOnlyTable.unplaced();
        }
        super.rawset(key, value);
    }

    @Override
    public void hashset(LuaValue key, LuaValue value) {
        if (sealed) {
            throw ReadOnlyTable.unplaced();
        }
        super.hashset(key, value);
    }

    @Override
    public LuaValue setmetatable(LuaValue metatable) {
        if (sealed) {
            throw ReadOnlyTable.unplaced();
        }
        return super.setmetatable(metatable);
    }

    @Override
    public void sort(LuaValue comparator) {
        if (sealed && rawlen() > 1) {
            throw ReadOnlyTable.unplaced();
        }
        super.sort(comparator);
    }
}
