package dev.ebb.server.script;

import dev.ebb.server.BusyPump;
import dev.ebb.server.Client;
import dev.ebb.server.ScriptDispatch;
import dev.ebb.server.Server;
import dev.ebb.server.command.Errors;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's Lua scripting engine (LuaJ): one interpreter for all scripts, the script cache
 * (SHA1 of the body to its compiled function) and the script being run.
 *
 * <p>Sandbox, as Redis 7: the global table and every table reachable from it (the libraries, their
 * metatables, the string metatable) are sealed ({@link SandboxGlobals}, {@link ReadOnlyTable}), so
 * no script can change what a later one sees ({@code x = 1} fails with "Attempt to modify a
 * readonly table"); reading a missing global fails ("Script attempted to access nonexistent global
 * variable 'x'"), and there is no {@code os}, {@code io}, {@code debug}, {@code print},
 * {@code require}, {@code dofile} or {@code loadfile}; {@code loadstring} compiles into the same
 * sandbox. The libraries are Lua's base, string, table and math, coroutines
 * ({@link LuaCoroutines}), Redis's {@code cjson}, {@code cmsgpack}, {@code struct} and {@code bit},
 * the global {@code unpack}, and the Lua 5.1 functions LuaJ lacks ({@link Lua51Compat}), with Lua
 * 5.1's argument checks and error texts ({@link LuaArgChecks}).
 * Numbers print as Redis's Lua prints them (see {@link LuaNumbers}).
 *
 * <p>Scripts run atomically on the command loop: EVAL calls the compiled function directly and
 * {@code redis.call} dispatches through the command table as a connection-less client
 * ({@link ScriptDispatch}). A script is not confined to the keys it declares.
 *
 * <p>Functions (FUNCTION LOAD, FCALL) share this interpreter, its sealed libraries, the
 * {@code redis.call} bridge, the watchdog, busy serving and KILL: {@link #call} runs a function
 * as {@link #run} runs EVAL, with its keys and arguments as parameters and its own globals
 * ({@link FunctionEnvironment}); {@link #functions()} holds the libraries.
 *
 * <p>Thread safety: none; the command loop thread, or a coroutine's thread while it holds the
 * script's turn ({@link LuaCoroutines}).
 */
public final class Scripting {
    private static final Pattern ERROR_POSITION = Pattern.compile("^(?:user_script|user_function):(\\d+): ");
    private static final String CHUNK_NAME = "user_script";
    /** The chunk name of a function library, as Redis names it ({@code @user_function}). */
    static final String FUNCTION_CHUNK_NAME = "user_function";
    private static final Logger LOG = LoggerFactory.getLogger(Scripting.class);
    private static final long SERVE_INTERVAL_NANOS = 1_000_000;
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";
    static final String NOT_BUSY = "NOTBUSY No scripts in execution right now.";
    /** -BUSY while EVAL runs (and SCRIPT KILL's answer if it does not), and while a function runs. */
    public static final String BUSY_EVAL = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    public static final String BUSY_FUNCTION =
            "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
    static final String UNKILLABLE = "UNKILLABLE Sorry the script already executed write commands against the dataset."
            + " You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE"
            + " command.";

    private final Server server;
    private final Globals globals;
    private final SandboxGlobals env;
    private final RedisLib redis;
    private final ScriptWatchdog watchdog;
    private final LuaCoroutines coroutines;
    private final FunctionEnvironment functionEnv;
    private final Functions functions;
    private final Map<String, LuaFunction> cache = new HashMap<>();
    /** Source bytes of the cached scripts plus their 40-byte SHA1 names: MEMORY STATS {@code lua.caches}. */
    private long cachedBytes;

    // The running script: who called it, since when, and what the watchdog has decided.
    private Client caller;
    // What runs: its name in errors and FUNCTION STATS (an EVAL's SHA1, a function's name), whether
    // it is EVAL (SCRIPT KILL) or a function (FUNCTION KILL), and the caller's command.
    private String runName;
    private boolean runEval;
    private byte[][] runArgv;
    /** While FUNCTION LOAD runs a library's code: when it must stop (0 for no limit). */
    private long loadDeadlineNanos;
    private boolean loading;
    private Thread loopThread;
    private long startNanos;
    private long thresholdNanos;
    private long lastServeNanos;
    private boolean busy;
    private boolean killRequested;

    public Scripting(Server server) {
        this.server = server;
        this.globals = new Globals();
        this.redis = new RedisLib(server, ScriptDispatch.newScriptClient(server));
        this.watchdog = new ScriptWatchdog(this);
        this.globals.debuglib = watchdog;
        this.coroutines = new LuaCoroutines(this, globals, watchdog);
        Map<LuaTable, LuaTable> copies = ReadOnlyTable.newCopies();
        this.env = sandbox(globals, copies);
        this.functionEnv = new FunctionEnvironment(this, globals, copies, redis, watchdog);
        coroutines.switchRunningOf(env, functionEnv.globals(), functionEnv.runtime());
        this.functions = new Functions(functionEnv);
    }

    private SandboxGlobals sandbox(Globals g, Map<LuaTable, LuaTable> copies) {
        g.load(new BaseLib());
        g.load(new PackageLib());
        g.load(new TableLib());
        g.load(new StringLib());
        g.load(new JseMathLib());
        g.rawset("coroutine", coroutines.library());
        LoadState.install(g);
        LuaC.install(g);
        for (String name : new String[] {"dofile", "loadfile", "print", "require", "package", "module"}) {
            g.rawset(name, LuaValue.NIL);
        }
        LuaValue string = g.get("string");
        string.rawset("format", new LuaStringFormat());
        string.rawset("dump", LuaValue.NIL);
        g.rawset("unpack", g.get("table").get("unpack"));
        Lua51Compat.install(g);
        LuaArgChecks.install(g);
        g.rawset("cjson", LuaCjson.library());
        g.rawset("cmsgpack", LuaCmsgpack.library());
        g.rawset("struct", LuaStruct.library());
        g.rawset("bit", LuaBit.library());
        g.rawset("redis", redis.library());
        g.rawset("_VERSION", "Lua 5.1");
        g.rawset("gcinfo", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.valueOf((int) (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1024);
            }
        });

        LuaValue xpcall = g.get("xpcall");
        g.rawset("xpcall", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue handler = args.arg(2);
                return xpcall.invoke(LuaValue.varargsOf(args.arg1(), handler.isfunction() ? new Reworded(handler) : handler,
                        args.subargs(3)));
            }
        });

        LuaFunction loadString = new LoadString(this);
        g.rawset("loadstring", loadString);
        g.rawset("load", loadString);

        // Everything a script can reach is sealed, the string metatable included (Redis 7.2.4
        // leaves that one writable, and a change there outlives the script that made it).
        SandboxGlobals sandbox = new SandboxGlobals();
        sandbox.debuglib = watchdog;
        // One Lua thread for both: xpcall (a base library function, bound to g) sets its handler
        // on g's thread, and the scripts' functions (bound to the sandbox) call the handler of theirs.
        sandbox.running = g.running;
        sandbox.sealFrom(g, copies);
        LuaString.s_metatable = ReadOnlyTable.sealedCopy((LuaTable) LuaString.s_metatable, copies);
        return sandbox;
    }

    /** SHA1 of {@code body} in lower-case hex: the name of a script in the cache. */
    public static String sha1hex(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body);
            StringBuilder sb = new StringBuilder(40);
            for (byte b : digest) {
                sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every Java runtime", e);
        }
    }

    /**
     * Compiles {@code body} into the cache (if not there yet) and returns its SHA1, or writes the
     * compile error to {@code c} and returns null.
     */
    public String load(Client c, byte[] body) {
        String sha = sha1hex(body);
        if (cache.containsKey(sha)) {
            return sha;
        }
        try {
            cache.put(sha, compile(body, env));
            cachedBytes += body.length + sha.length();
            return sha;
        } catch (LuaError e) {
            // LuaJ words syntax errors its own way; Lua 5.1's text where the checker finds the error.
            c.reply().error("ERR Error compiling script (new function): " + compileError(e, body, CHUNK_NAME));
            return null;
        }
    }

    LuaFunction compile(byte[] body, LuaValue environment) {
        return compile(body, CHUNK_NAME, environment);
    }

    LuaFunction compile(byte[] body, String chunkName, LuaValue environment) {
        return globals.load(new ByteArrayInputStream(body), chunkName, "t", environment).checkfunction();
    }

    /** Lua 5.1's text for the syntax error in {@code body} where the checker finds it, else LuaJ's. */
    static String compileError(LuaError e, byte[] body, String chunk) {
        String lua51 = Lua51Syntax.firstError(body, chunk);
        return lua51 != null ? lua51 : e.getMessage().replace("[string \"" + chunk + "\"]", chunk);
    }

    public boolean exists(String sha) {
        return cache.containsKey(sha);
    }

    /** How many scripts the cache holds. */
    public int cachedScripts() {
        return cache.size();
    }

    /**
     * The script cache's bytes as Ebb counts them: each script's source and SHA1 name. The compiled
     * LuaJ closures are not measured (the JVM gives no per-object size), so this is a lower bound.
     */
    public long cachedScriptBytes() {
        return cachedBytes;
    }

    /** SCRIPT FLUSH: forgets every cached script. */
    public void flush() {
        cache.clear();
        cachedBytes = 0;
    }

    /**
     * Runs the cached script {@code sha} for {@code caller} with the given KEYS and ARGV and writes
     * its result (or its error) as the caller's reply. The caller has checked that it exists.
     */
    public void run(Client caller, String sha, byte[][] keys, byte[][] args, boolean readOnly) {
        env.define("KEYS", array(keys));
        env.define("ARGV", array(args));
        execute(caller, cache.get(sha), LuaValue.NONE, keys, sha, CHUNK_NAME, true, null, readOnly, true);
    }

    /** The functions (FUNCTION LOAD's libraries) this engine runs. */
    public Functions functions() {
        return functions;
    }

    /**
     * FCALL: runs {@code function} for {@code caller}, its keys and arguments passed as its two
     * arguments (not as globals), and writes its result or error as the caller's reply.
     * {@code argv} is the caller's command, for FUNCTION STATS.
     */
    public void call(Client caller, LibraryFunction function, byte[][] keys, byte[][] args, boolean readOnly,
            byte[][] argv) {
        execute(caller, function.callback(), LuaValue.varargsOf(array(keys), array(args)), keys, function.name(),
                FUNCTION_CHUNK_NAME, false, argv, readOnly || function.has(LibraryFunction.NO_WRITES),
                function.has(LibraryFunction.ALLOW_CROSS_SLOT));
    }

    /**
     * Runs {@code fn} with {@code arguments} as a script: the run state (watchdog, busy threshold,
     * KILL), the redis.call bridge, the reply or Redis's error text.
     */
    private void execute(Client caller, LuaFunction fn, Varargs arguments, byte[][] keys, String name, String chunk,
            boolean eval, byte[][] argv, boolean readOnly, boolean allowCrossSlot) {
        redis.begin(caller, readOnly, allowCrossSlot);
        redis.declaredKeys(keys);
        this.caller = caller;
        this.runName = name;
        this.runEval = eval;
        this.runArgv = argv;
        this.loopThread = Thread.currentThread();
        this.startNanos = System.nanoTime();
        this.thresholdNanos = server.config().busyReplyThreshold() * 1_000_000L;
        this.busy = false;
        this.killRequested = false;
        watchdog.reset();
        long replyMark = caller.reply().pendingBytes();
        coroutines.begin();
        try {
            LuaValue result = fn.invoke(arguments).arg1();
            LuaToResp.write(caller.reply(), result, redis.resp());
        } catch (LuaError e) {
            String reply = errorReply(e, name, chunk, watchdog.currentLine(), watchdog.describeReturned(),
                    watchdog.raisedLine());
            if (countedAlready(e)) {
                caller.reply().repeatedError(reply);
            } else {
                caller.reply().error(reply);
            }
        } catch (StackOverflowError e) {
            int line = watchdog.currentLine();
            caller.reply().error("ERR " + chunk + ":" + line + ": stack overflow script: " + name + ", on @" + chunk + ":"
                    + line + ".");
        } catch (OutOfMemoryError e) {
            // A string or table the heap cannot hold (Redis would hold it, or die): refused with OOM,
            // past any pcall, with what the script wrote before it kept; the loop carries on.
            LOG.warn("Script {} refused: {}", name, e.toString());
            caller.reply().discardFrom(replyMark);
            caller.reply().error(Errors.OOM);
        } finally {
            coroutines.end();
            if (busy) {
                LOG.warn("Slow script finished after {} ms", (System.nanoTime() - startNanos) / 1_000_000);
            }
            this.caller = null;
            this.runArgv = null;
            this.busy = false;
            this.killRequested = false;
            redis.end();
        }
    }

    /**
     * Runs a library's code for FUNCTION LOAD (its {@code redis.register_function} calls), with
     * Redis's load-time limit: past {@code timeoutMs} (0: none) it fails with "FUNCTION LOAD
     * timeout". Not busy-served: no other client runs meanwhile.
     */
    void runLibraryCode(LuaFunction chunk, long timeoutMs) {
        loading = true;
        loadDeadlineNanos = timeoutMs > 0 ? System.nanoTime() + timeoutMs * 1_000_000L : 0;
        watchdog.reset();
        coroutines.begin();
        try {
            chunk.call();
        } finally {
            coroutines.end();
            loading = false;
        }
    }

    /** What FUNCTION STATS reports of the running function, or null when none runs. */
    public RunningScript running() {
        if (caller == null) {
            return null;
        }
        return new RunningScript(runName, runEval, runArgv, (System.nanoTime() - startNanos) / 1_000_000);
    }

    /** The script running now, as FUNCTION STATS describes it; {@code argv} is null for EVAL. */
    public record RunningScript(String name, boolean eval, byte[][] argv, long durationMs) {
    }

    /** The -BUSY error for other clients: SCRIPT KILL's while EVAL runs, FUNCTION KILL's while a function does. */
    public String busyError() {
        return runEval ? BUSY_EVAL : BUSY_FUNCTION;
    }

    /**
     * True while a script runs past {@code busy-reply-threshold}: other clients then get
     * {@code -BUSY} (see {@link dev.ebb.server.BusyPump}).
     */
    public boolean busy() {
        return busy;
    }

    /**
     * Called by the watchdog every few thousand instructions. Past the threshold the script is
     * busy: about once a millisecond it serves the other clients (on the loop thread; from a coroutine's
     * thread it lends the loop thread the turn, see {@link LuaCoroutines}), and
     * once SCRIPT KILL or SHUTDOWN NOSAVE asked for it, it raises the kill error, again at every
     * checkpoint so that a {@code pcall} cannot swallow it for good (as Redis's hook does).
     */
    void checkpoint() {
        if (loading) {
            if (loadDeadlineNanos != 0 && System.nanoTime() - loadDeadlineNanos > 0) {
                watchdog.checkSoon();
                throw new ReplyError("ERR FUNCTION LOAD timeout");
            }
            return;
        }
        if (caller == null) {
            return;
        }
        long now = System.nanoTime();
        if (!busy) {
            if (now - startNanos < thresholdNanos) {
                return;
            }
            busy = true;
            LOG.warn("Slow script detected: still in execution after {} milliseconds. You can try killing the script"
                    + " using the {} command. Script name is: {}.", (now - startNanos) / 1_000_000,
                    runEval ? "SCRIPT KILL" : "FUNCTION KILL", runName);
        }
        if (now - lastServeNanos >= SERVE_INTERVAL_NANOS) {
            lastServeNanos = now;
            if (Thread.currentThread() == loopThread) {
                serveOthers();
            } else {
                coroutines.serveOnLoop();
            }
        }
        if (killRequested) {
            watchdog.checkSoon();
            throw new ReplyError(KILLED);
        }
    }

    /** Serves the other clients while the script is busy; on the loop thread, holding the script's turn. */
    void serveOthers() {
        BusyPump.serve(server, caller);
    }

    /**
     * SCRIPT KILL ({@code eval} true) or FUNCTION KILL: asks the busy script to stop, unless it has
     * already written (then it must run to its end, or the server be stopped with SHUTDOWN NOSAVE)
     * or is of the other kind (SCRIPT KILL stops only EVAL, FUNCTION KILL only a function; the
     * answer is then the -BUSY error that names the right one).
     */
    public void kill(Client c, boolean eval) {
        if (caller == null) {
            c.reply().error(NOT_BUSY);
        } else if (redis.wrote()) {
            c.reply().error(UNKILLABLE);
        } else if (eval != runEval) {
            c.reply().error(busyError());
        } else {
            killRequested = true;
            c.reply().ok();
        }
    }

    /** SHUTDOWN NOSAVE during a busy script: the script ends now, writes or not. */
    public void abortForShutdown() {
        if (caller != null) {
            killRequested = true;
        }
    }

    private static LuaTable array(byte[][] values) {
        LuaTable t = new LuaTable(values.length, 0);
        for (int i = 0; i < values.length; i++) {
            t.rawset(i + 1, LuaString.valueOf(values[i]));
        }
        return t;
    }

    /**
     * Whether a script's error passes on a command's error, already counted in INFO errorstats: a
     * failing {@code redis.call}, or the table of one raised with {@code error()}.
     */
    private static boolean countedAlready(LuaError e) {
        if (e instanceof ReplyError) {
            return ((ReplyError) e).counted();
        }
        LuaValue object = e.getMessageObject();
        return object != null && object.istable() && object.rawget(RespToLua.COUNTED).toboolean();
    }

    /**
     * Redis 7's text for a script that raised an error: an error reply ({@code redis.call} failing)
     * or an error table ({@code error(redis.error_reply(...))}) keeps its own text; any other error
     * becomes {@code ERR user_script:<line>: <message>} ({@code user_function} for a function;
     * {@code ERR <message>} for an error a library
     * function raised unplaced, such as a readonly table's, and for {@code error(v, 0)},
     * {@code error(nil)} ("ERR nil") and {@code error(true)}, which Lua leaves unplaced); all end in
     * {@code script: <sha>, on @user_script:<line>.}. {@code fallbackLine} is used when LuaJ could not
     * place the error (an error in a tail call is raised after its caller returned), and
     * {@code tailCallError} (null if none) is Lua 5.1's text for such an error ("attempt to call
     * field 'x' (a nil value)"), which replaces LuaJ's. {@code raisedLine} (0 if none) is where
     * {@code error(msg, 2)} was called: the message carries its caller's position, the reply's
     * {@code on @user_script:N} this line, as Redis's.
     */
    static String errorReply(LuaError e, String sha, String chunk, int fallbackLine, String tailCallError,
            int raisedLine) {
        String[] messageAndLine = errorMessage(e, chunk, fallbackLine, tailCallError, raisedLine);
        return messageAndLine[0] + " script: " + sha + ", on @" + chunk + ":" + messageAndLine[1] + ".";
    }

    /** The message of {@link #errorReply} (no leading '-') and the line its suffix names. */
    static String[] errorMessage(LuaError e, String chunk, int fallbackLine, String tailCallError, int raisedLine) {
        String text = e.getMessage() == null ? "" : e.getMessage().strip();
        Matcher position = ERROR_POSITION.matcher(text);
        boolean placed = position.find();
        String line = raisedLine > 0 && e.leveled() ? Integer.toString(raisedLine)
                : placed ? position.group(1) : Integer.toString(fallbackLine);
        LuaValue object = e.getMessageObject();
        String message;
        if (e instanceof ReplyError) {
            message = object.tojstring();
        } else if (object != null && object.istable() && object.rawget(RespToLua.ERR).isstring()) {
            message = object.rawget(RespToLua.ERR).tojstring();
        } else if (e instanceof ReadOnlyTable.UnplacedError) {
            message = "ERR " + text;
        } else if (e.positionless()) {
            message = "ERR " + e.bareMessage();
        } else {
            if (!placed && tailCallError != null && text.startsWith("attempt to ")) {
                text = tailCallError;
            }
            message = "ERR " + (placed ? text : chunk + ":" + line + ": " + text);
        }
        if (message.startsWith("-")) {
            message = message.substring(1);
        }
        return new String[] {message, line};
    }

    /**
     * The text of an error that a library's code raised while FUNCTION LOAD ran it, as Redis's
     * "Error registering functions: ..." carries it: an error reply's or error table's own text,
     * any other error as {@code ERR user_function:<line>: <message>}; no script suffix.
     */
    String loadErrorMessage(LuaError e) {
        return errorMessage(e, FUNCTION_CHUNK_NAME, watchdog.currentLine(), watchdog.describeReturned(),
                watchdog.raisedLine())[0];
    }

    Server server() {
        return server;
    }

    /** Where {@code loadstring} compiles: the running function's globals, else EVAL's sandbox. */
    private LuaValue loadEnvironment() {
        return (caller != null && !runEval) || loading ? functionEnv.globals() : env;
    }

    LuaTable env() {
        return env;
    }

    /**
     * An xpcall handler behind Lua 5.1's wording: LuaJ calls the handler before the error reaches
     * {@link ScriptWatchdog#traceback}, so the handler rewords a VM error first (the failing frame is
     * still the innermost then), keeping the {@code user_script:N:} position.
     */
    private final class Reworded extends VarArgFunction {
        private final LuaValue handler;

        Reworded(LuaValue handler) {
            this.handler = handler;
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaValue message = args.arg1();
            String described = watchdog.describeTop();
            if (described != null && message.type() == LuaValue.TSTRING) {
                Matcher position = ERROR_POSITION.matcher(message.tojstring());
                if (position.find() && message.tojstring().startsWith("attempt to", position.end())) {
                    message = LuaValue.valueOf(position.group() + described);
                }
            }
            return handler.invoke(LuaValue.varargsOf(message, args.subargs(2)));
        }
    }

    /** {@code loadstring(s [, name])}: compiles {@code s} into the sandbox; nil and the message on error. */
    private static final class LoadString extends VarArgFunction {
        private final Scripting scripting;

        LoadString(Scripting scripting) {
            this.scripting = scripting;
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaString s = args.checkstring(1);
            byte[] body = new byte[s.length()];
            s.copyInto(0, body, 0, body.length);
            try {
                return scripting.compile(body, args.optjstring(2, s.tojstring()), scripting.loadEnvironment());
            } catch (LuaError e) {
                return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf(e.getMessage()));
            }
        }
    }

    static byte[] bytes(LuaString s) {
        byte[] b = new byte[s.length()];
        s.copyInto(0, b, 0, b.length);
        return b;
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
