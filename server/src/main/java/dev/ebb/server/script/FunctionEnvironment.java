package dev.ebb.server.script;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Where function libraries live in the shared Lua engine, built as Redis 7 builds its function
 * engine: every library is compiled with one empty, read-only globals table ({@link #globals()})
 * whose metatable {@code __index} is switched. While FUNCTION LOAD runs a library's code it points
 * to the load-time API, a table holding only {@code redis} with {@code register_function},
 * {@code log}, the log levels and the version (so {@code redis.call}, {@code string} or
 * {@code error} fail there as "nonexistent global variable"); otherwise it points to the run-time
 * globals ({@link #runtime()}): EVAL's sandbox (the same sealed library tables) without
 * {@code KEYS} and {@code ARGV} (a function gets its keys and arguments as parameters) and with a
 * {@code redis} table lacking {@code replicate_commands}, as Redis's.
 *
 * <p>{@link #load} compiles a library's code and runs it to collect its
 * {@code redis.register_function} calls. Loop thread only.
 */
final class FunctionEnvironment {
    private static final String BAD_NAME = "Library names can only contain letters, numbers, or underscores(_) and must"
            + " be at least one character long";

    private final Scripting scripting;
    private final SandboxGlobals globals = new SandboxGlobals();
    private final SandboxGlobals runtime = new SandboxGlobals();
    private final LuaTable loadTimeIndex;
    private final LuaTable runTimeIndex;
    /** The functions the library being loaded has registered so far; null outside FUNCTION LOAD. */
    private List<LibraryFunction> registering;
    private String registeringLibrary;

    FunctionEnvironment(Scripting scripting, Globals base, Map<LuaTable, LuaTable> copies, RedisLib redis,
            ScriptWatchdog watchdog) {
        this.scripting = scripting;
        for (Globals g : new Globals[] {globals, runtime}) {
            g.debuglib = watchdog;
            g.running = base.running;
        }
        runtime.sealFrom(base, copies);
        runtime.define("redis", ReadOnlyTable.sealedCopy(redis.functionLibrary(), copies));

        LuaTable api = new LuaTable();
        LuaTable loadRedis = RedisLib.loadTimeLibrary(new RegisterFunction());
        loadRedis.setmetatable(SandboxGlobals.missingGlobals());
        api.rawset("redis", loadRedis);
        api.setmetatable(SandboxGlobals.missingGlobals());
        Map<LuaTable, LuaTable> own = new IdentityHashMap<>();
        LuaTable sealedApi = ReadOnlyTable.sealedCopy(api, own);
        own.put(runtime, runtime);
        this.loadTimeIndex = ReadOnlyTable.sealedCopy(indexTo(sealedApi), own);
        this.runTimeIndex = ReadOnlyTable.sealedCopy(indexTo(runtime), own);
        globals.defineMetatable(runTimeIndex);
    }

    private static LuaTable indexTo(LuaTable target) {
        LuaTable mt = new LuaTable();
        mt.rawset(LuaValue.INDEX, target);
        return mt;
    }

    /** The globals every library's code and functions are compiled with. */
    Globals globals() {
        return globals;
    }

    /** The globals functions see when they run (behind {@link #globals()}). */
    Globals runtime() {
        return runtime;
    }

    /**
     * Compiles library {@code name}'s {@code body} (its code after the shebang line, whose line
     * break is kept so line numbers match) and runs it with the load-time API, for at most
     * {@code timeoutMs} (0: no limit).
     *
     * @return the library with the functions it registered
     * @throws FunctionException with Redis's text when the code does not compile, fails, or
     *     registers no function
     */
    FunctionLibrary load(String name, byte[] code, byte[] body, long timeoutMs) {
        LuaFunction chunk;
        try {
            chunk = scripting.compile(body, Scripting.FUNCTION_CHUNK_NAME, globals);
        } catch (LuaError e) {
            throw new FunctionException(
                    "Error compiling function: " + Scripting.compileError(e, body, Scripting.FUNCTION_CHUNK_NAME));
        }
        List<LibraryFunction> registered = new ArrayList<>();
        registering = registered;
        registeringLibrary = name;
        globals.defineMetatable(loadTimeIndex);
        try {
            scripting.runLibraryCode(chunk, timeoutMs);
        } catch (LuaError e) {
            throw new FunctionException("Error registering functions: " + scripting.loadErrorMessage(e));
        } catch (StackOverflowError e) {
            throw new FunctionException("Error registering functions: ERR stack overflow");
        } finally {
            globals.defineMetatable(runTimeIndex);
            registering = null;
            registeringLibrary = null;
        }
        if (registered.isEmpty()) {
            throw new FunctionException("No functions registered");
        }
        return new FunctionLibrary(name, code, registered);
    }

    /** Whether {@code name} is a valid library or function name: letters, digits and '_', at least one. */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (!(ch >= 'a' && ch <= 'z') && !(ch >= 'A' && ch <= 'Z') && !(ch >= '0' && ch <= '9') && ch != '_') {
                return false;
            }
        }
        return true;
    }

    static String badName() {
        return BAD_NAME;
    }

    /**
     * {@code redis.register_function(name, callback)} or {@code redis.register_function{function_name=,
     * callback=, flags=, description=}}, with Redis 7's checks and texts; only while FUNCTION LOAD
     * runs the library's code.
     */
    private final class RegisterFunction extends VarArgFunction {
        @Override
        public Varargs invoke(Varargs args) {
            if (registering == null) {
                throw new ReplyError("ERR redis.register_function can only be called on FUNCTION LOAD command");
            }
            LibraryFunction f = args.narg() == 1 ? named(args.arg1()) : positional(args);
            if (!validName(f.name())) {
                throw new ReplyError("ERR " + BAD_NAME);
            }
            for (LibraryFunction other : registering) {
                if (other.name().equals(f.name())) {
                    throw new ReplyError("ERR Function already exists in the library");
                }
            }
            registering.add(f);
            return NONE;
        }

        private LibraryFunction positional(Varargs args) {
            if (args.narg() != 2) {
                throw fail("wrong number of arguments to redis.register_function");
            }
            if (!args.arg1().isstring()) {
                throw fail("first argument to redis.register_function must be a string");
            }
            if (!args.arg(2).isfunction()) {
                throw fail("second argument to redis.register_function must be a function");
            }
            return new LibraryFunction(args.arg1().tojstring(), null, 0, (LuaFunction) args.arg(2), registeringLibrary);
        }

        private LibraryFunction named(LuaValue table) {
            if (!table.istable()) {
                throw fail("calling redis.register_function with a single argument is only applicable to Lua table"
                        + " (representing named arguments).");
            }
            String name = null;
            String description = null;
            LuaFunction callback = null;
            int flags = 0;
            LuaValue k = LuaValue.NIL;
            while (true) {
                Varargs next = table.next(k);
                k = next.arg1();
                if (k.isnil()) {
                    break;
                }
                LuaValue v = next.arg(2);
                if (!k.isstring()) {
                    throw fail("named argument key given to redis.register_function is not a string");
                }
                switch (k.tojstring().toLowerCase(java.util.Locale.ROOT)) {
                    case "function_name":
                        if (!v.isstring()) {
                            throw fail("function_name argument given to redis.register_function must be a string");
                        }
                        name = v.tojstring();
                        break;
                    case "description":
                        if (!v.isstring()) {
                            throw fail("description argument given to redis.register_function must be a string");
                        }
                        description = v.tojstring();
                        break;
                    case "callback":
                        if (!v.isfunction()) {
                            throw fail("callback argument given to redis.register_function must be a function");
                        }
                        callback = (LuaFunction) v;
                        break;
                    case "flags":
                        if (!v.istable()) {
                            throw fail("flags argument to redis.register_function must be a table representing"
                                    + " function flags");
                        }
                        flags = flags(v);
                        break;
                    default:
                        throw fail("unknown argument given to redis.register_function");
                }
            }
            if (name == null) {
                throw fail("redis.register_function must get a function name argument");
            }
            if (callback == null) {
                throw fail("redis.register_function must get a callback argument");
            }
            return new LibraryFunction(name, description, flags, callback, registeringLibrary);
        }

        /** The flags of a {@code flags} table: its strings from index 1 up to the first nil, each a known flag. */
        private int flags(LuaValue table) {
            int flags = 0;
            for (int i = 1; ; i++) {
                LuaValue v = table.get(i);
                if (v.isnil()) {
                    return flags;
                }
                int flag = v.isstring() ? LibraryFunction.flag(v.tojstring()) : 0;
                if (flag == 0) {
                    throw fail("unknown flag given");
                }
                flags |= flag;
            }
        }

        private ReplyError fail(String message) {
            return new ReplyError("ERR " + message);
        }
    }
}
