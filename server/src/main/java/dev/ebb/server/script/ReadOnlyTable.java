package dev.ebb.server.script;

import java.util.IdentityHashMap;
import java.util.Map;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * A Lua table that scripts cannot change, as Redis 7's readonly tables: once sealed, every write
 * fails with "Attempt to modify a readonly table" — an assignment ({@code t.k = v}, placed at the
 * script's line), {@code rawset}, {@code setmetatable}, {@code table.insert}/{@code remove}/
 * {@code sort} (raised by a library function, so unplaced, as Redis's C API raises it).
 *
 * <p>{@link #sealedCopy} copies a table and every table reachable from it (values and
 * metatables) into sealed tables, which is how the sandbox protects the library tables
 * ({@code string}, {@code redis}, {@code cjson} ...) and the string metatable: Redis 7 walks its
 * globals the same way ({@code luaSetTableProtectionRecursively}). Reads cost what a plain
 * table's cost. Immutable once sealed, so safe to share; sealing is done before any script runs.
 */
final class ReadOnlyTable extends LuaTable {
    static final String READONLY = "Attempt to modify a readonly table";

    private boolean sealed;

    private ReadOnlyTable() {
    }

    /**
     * Copies {@code source}, and the tables it reaches, into sealed tables. {@code copies} maps
     * each original to its copy: a table met twice (or a cycle) is copied once; entries already
     * mapped (say, {@code _G} to the sandbox's globals) are taken as they are.
     */
    static LuaTable sealedCopy(LuaTable source, Map<LuaTable, LuaTable> copies) {
        LuaTable done = copies.get(source);
        if (done != null) {
            return done;
        }
        ReadOnlyTable copy = new ReadOnlyTable();
        copies.put(source, copy);
        copyInto(source, copy, copies);
        copy.sealed = true;
        return copy;
    }

    /** Copies the entries and metatable of {@code source} into {@code target}, sealing the tables among them. */
    static void copyInto(LuaTable source, LuaTable target, Map<LuaTable, LuaTable> copies) {
        LuaValue k = LuaValue.NIL;
        while (true) {
            Varargs next = source.next(k);
            k = next.arg1();
            if (k.isnil()) {
                break;
            }
            target.rawset(k, sealed(next.arg(2), copies));
        }
        LuaValue mt = source.getmetatable();
        if (mt != null) {
            target.setmetatable(sealed(mt, copies));
        }
    }

    static Map<LuaTable, LuaTable> newCopies() {
        return new IdentityHashMap<>();
    }

    private static LuaValue sealed(LuaValue v, Map<LuaTable, LuaTable> copies) {
        return v instanceof LuaTable ? sealedCopy((LuaTable) v, copies) : v;
    }

    /** The error of a write by a library function (rawset, setmetatable, table.insert ...): no script position. */
    static LuaError unplaced() {
        return new UnplacedError(READONLY);
    }

    @Override
    public void set(int key, LuaValue value) {
        if (sealed) {
            throw new LuaError(READONLY);
        }
        super.set(key, value);
    }

    @Override
    public void set(LuaValue key, LuaValue value) {
        if (sealed) {
            throw new LuaError(READONLY);
        }
        super.set(key, value);
    }

    @Override
    public void rawset(int key, LuaValue value) {
        if (sealed) {
            throw unplaced();
        }
        super.rawset(key, value);
    }

    @Override
    public void rawset(LuaValue key, LuaValue value) {
        if (sealed) {
            throw unplaced();
        }
        super.rawset(key, value);
    }

    @Override
    public void hashset(LuaValue key, LuaValue value) {
        if (sealed) {
            throw unplaced();
        }
        super.hashset(key, value);
    }

    @Override
    public LuaValue setmetatable(LuaValue metatable) {
        if (sealed) {
            throw unplaced();
        }
        return super.setmetatable(metatable);
    }

    @Override
    public void sort(LuaValue comparator) {
        if (sealed && rawlen() > 1) {
            throw unplaced();
        }
        super.sort(comparator);
    }

    /**
     * An error raised by a library function rather than at a script's line: its message carries no
     * {@code user_script:<line>:} prefix (Redis's C functions raise theirs that way), and the
     * script's reply is {@code ERR <message>}.
     */
    static final class UnplacedError extends LuaError {
        private static final long serialVersionUID = 1L;

        private final String text;

        UnplacedError(String text) {
            super(text);
            this.text = text;
        }

        @Override
        public String getMessage() {
            return text;
        }
    }
}
