package dev.ebb.server.script;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaThread;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Lua 5.1's {@code coroutine} library for scripts, in place of LuaJ's.
 *
 * <p>LuaJ's interpreter keeps a coroutine's state on a Java stack, so a coroutine still needs a
 * Java thread of its own. LuaJ's library starts one per coroutine and lets it run beside the
 * loop thread, which waits for it without a timeout; that thread is never given back while the
 * coroutine stays suspended (it polls every 5 s for its coroutine to be garbage collected). So a
 * script looping inside a coroutine hung the server for good (the loop thread never served
 * SCRIPT KILL), and 2,000 suspended coroutines held 2,000 threads past the script's end.
 *
 * <p>Here the script and its coroutines pass one turn between them ({@code turn}, the only Java
 * thread allowed to run Lua or touch the server): {@code resume} hands the turn to the
 * coroutine's thread and parks until it comes back by {@code yield}, return or error. So at any
 * moment one thread runs, and the script stays as atomic as without coroutines. While a
 * coroutine holds the turn the watchdog runs on its thread; when the script is busy and other
 * clients are due to be served, {@link #serveOnLoop} lends the turn to the loop thread (parked in
 * the outermost {@code resume}), which serves them and hands it back. A SCRIPT KILL is thus seen
 * by the coroutine's own checkpoint, which raises the kill error, and again by every checkpoint
 * after it.
 *
 * <p>As in Lua (and LuaJ's own LuaThread.resume), a coroutine runs as {@code running} with a call
 * stack of its own in the {@link ScriptWatchdog}: error positions, {@code error(msg, level)} and
 * Lua 5.1's wording of runtime errors read the right frames, and a suspended coroutine leaves none
 * on its resumer's. {@code yield} fails with "attempt to yield across metamethod/C-call boundary"
 * where Lua 5.1's would: inside a metamethod, an iterator, or a function a library function
 * ({@code pcall}, {@code table.sort}) called ({@link ScriptWatchdog#canYield}).
 *
 * <p>Limits: at most {@link #MAX_LIVE} coroutines of a script may be started and not yet dead
 * (each holds a thread); resuming one more fails with "too many live coroutines". When the
 * script ends, {@link #end} ends every coroutine left suspended: its thread unwinds (an
 * {@link Error} no {@code pcall} catches) and exits, so no thread outlives its script. Cost: a
 * thread start per coroutine, two park/unpark hand-offs per resume/yield pair.
 *
 * <p>Thread safety: the methods run on the thread holding the turn; {@code turn} is volatile, and
 * handing it over publishes everything the previous holder wrote.
 */
final class LuaCoroutines {
    static final int MAX_LIVE = 256;
    private static final String[] STATUS = {"running", "suspended", "normal", "dead"};
    private static final int RUNNING = 0;
    private static final int SUSPENDED = 1;
    private static final int NORMAL = 2;
    private static final int DEAD = 3;

    private final Scripting scripting;
    private final Globals globals;
    private final ScriptWatchdog watchdog;
    private final LuaValue yield;
    // The Globals whose running Lua thread follows the turn besides the base library's: the
    // sandboxes of EVAL and of functions.
    private Globals[] sandboxes = {};
    private final List<Coroutine> live = new ArrayList<>();
    private volatile Thread turn;
    private volatile Thread serveRequester;
    private Thread loopThread;
    private Coroutine current;
    private int started;

    LuaCoroutines(Scripting scripting, Globals globals, ScriptWatchdog watchdog) {
        this.scripting = scripting;
        this.globals = globals;
        this.watchdog = watchdog;
        this.yield = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return yieldCurrent(args);
            }
        };
    }

    /** The sandboxes' {@code running} Lua thread is switched along with the base library's. */
    void switchRunningOf(Globals... sandboxes) {
        this.sandboxes = sandboxes.clone();
    }

    LuaTable library() {
        LuaTable t = new LuaTable();
        t.rawset("create", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue f) {
                return new Coroutine(globals, checkLuaFunction(f, "create"));
            }
        });
        t.rawset("resume", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return resume(checkCoroutine(args.arg1(), "resume"), args.subargs(2));
            }
        });
        t.rawset("yield", yield);
        t.rawset("status", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue co) {
                return valueOf(STATUS[checkCoroutine(co, "status").status]);
            }
        });
        t.rawset("running", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return current == null ? NIL : current;
            }
        });
        t.rawset("wrap", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue f) {
                Coroutine co = new Coroutine(globals, checkLuaFunction(f, "wrap"));
                return new VarArgFunction() {
                    @Override
                    public Varargs invoke(Varargs args) {
                        return resumeOrRaise(co, this, args);
                    }
                };
            }
        });
        return t;
    }

    /** A script starts on the calling (loop) thread: it holds the turn. */
    void begin() {
        loopThread = Thread.currentThread();
        turn = loopThread;
        current = null;
        started = 0;
    }

    /**
     * The script has ended, on the loop thread: every coroutine still suspended is ended and its
     * thread waited for, so none outlives the script.
     */
    void end() {
        for (Coroutine co : new ArrayList<>(live)) {
            co.abandoned = true;
            runUntilBack(co);
            joinQuietly(co.thread);
        }
        live.clear();
        current = null;
    }

    /**
     * Called by the watchdog on a coroutine's thread when other clients are due to be served:
     * lends the turn to the loop thread, which serves them, and waits for it back.
     */
    void serveOnLoop() {
        serveRequester = Thread.currentThread();
        handTo(loopThread);
        awaitTurn();
    }

    private Varargs resume(Coroutine co, Varargs args) {
        if (co.status != SUSPENDED) {
            return LuaValue.varargsOf(LuaValue.FALSE,
                    LuaValue.valueOf("cannot resume " + STATUS[co.status] + " coroutine"));
        }
        boolean start = co.thread == null;
        if (start && live.size() >= MAX_LIVE) {
            throw new LuaError("too many live coroutines (at most " + MAX_LIVE + " per script)");
        }
        Coroutine resumer = current;
        if (resumer != null) {
            resumer.status = NORMAL;
        }
        co.resumer = resumer == null ? loopThread : resumer.thread;
        co.status = RUNNING;
        co.transfer = args;
        current = co;
        if (start) {
            co.thread = new Thread(co::body, "lua-coroutine-" + (++started));
            co.thread.setDaemon(true);
            live.add(co);
        }
        runUntilBack(co);
        current = resumer;
        if (resumer != null) {
            resumer.status = RUNNING;
        }
        Varargs out = co.transfer;
        co.transfer = LuaValue.NONE;
        LuaError error = co.error;
        if (error != null) {
            co.error = null;
            return LuaValue.varargsOf(LuaValue.FALSE, errorValue(error));
        }
        return LuaValue.varargsOf(LuaValue.TRUE, out);
    }

    /**
     * Hands the turn to {@code co}'s thread (starting it if new) with its Lua thread as
     * {@code running} and its own call stack in the watchdog, as LuaJ's LuaThread.resume switches
     * {@code running}; when the turn comes back, the resumer's are put back.
     */
    private void runUntilBack(Coroutine co) {
        LuaThread resumer = globals.running;
        ScriptWatchdog.Frames frames = watchdog.swap(co.frames);
        globals.running = co;
        for (Globals sandbox : sandboxes) {
            sandbox.running = co;
        }
        if (co.thread.getState() == Thread.State.NEW) {
            turn = co.thread;
            co.thread.start();
        } else {
            handTo(co.thread);
        }
        awaitTurn();
        co.frames = watchdog.swap(frames);
        globals.running = resumer;
        for (Globals sandbox : sandboxes) {
            sandbox.running = resumer;
        }
    }

    /**
     * What {@code resume} returns for a coroutine's error: its value, but a failing
     * {@code redis.call}'s as the error table Redis raises ({@code {err=...}}, marked as counted in
     * INFO errorstats when it was), where {@code pcall} gives its text.
     */
    private static LuaValue errorValue(LuaError error) {
        if (error instanceof ReplyError) {
            LuaTable table = RespToLua.tableWith(RespToLua.ERR, error.getMessageObject());
            if (((ReplyError) error).counted()) {
                table.rawset(RespToLua.COUNTED, LuaValue.TRUE);
            }
            return table;
        }
        LuaValue message = error.getMessageObject();
        return message == null ? LuaValue.NIL : message;
    }

    /** {@code coroutine.wrap}'s function: the results, or the coroutine's error raised again (as Lua 5.1's auxwrap). */
    private Varargs resumeOrRaise(Coroutine co, LuaValue wrapper, Varargs args) {
        if (co.status != SUSPENDED) {
            throw new LuaError("cannot resume " + STATUS[co.status] + " coroutine");
        }
        Varargs result = resume(co, args);
        if (result.arg1().toboolean()) {
            return result.subargs(2);
        }
        LuaError error = co.lastError;
        co.lastError = null;
        if (error instanceof ReplyError) {
            throw error;
        }
        LuaValue message = result.arg(2);
        if (!message.isstring()) {
            throw new LuaError(message);
        }
        // Lua prefixes the caller's position. LuaJ does so as the error leaves the calling Lua
        // function, but a caller that tail-called the wrapper is gone: then it is placed here, once.
        String where = watchdog.tailCallerPosition(wrapper);
        if (where != null) {
            throw new ReadOnlyTable.UnplacedError(where + ": " + message.tojstring());
        }
        throw new LuaError(message.tojstring());
    }

    private Varargs yieldCurrent(Varargs args) {
        Coroutine co = current;
        if (co == null || !watchdog.canYield(yield)) {
            throw new ReadOnlyTable.UnplacedError("attempt to yield across metamethod/C-call boundary");
        }
        co.transfer = args;
        co.status = SUSPENDED;
        handTo(co.resumer);
        awaitTurn();
        if (co.abandoned) {
            throw new Abandoned();
        }
        Varargs in = co.transfer;
        co.transfer = LuaValue.NONE;
        return in;
    }

    private void handTo(Thread t) {
        turn = t;
        LockSupport.unpark(t);
    }

    /**
     * Parks until this thread holds the turn. The loop thread may get it lent by a coroutine to
     * serve other clients: it serves them and hands the turn back.
     */
    private void awaitTurn() {
        Thread me = Thread.currentThread();
        while (true) {
            while (turn != me) {
                LockSupport.park(this);
            }
            Thread requester = serveRequester;
            if (me != loopThread || requester == null) {
                return;
            }
            serveRequester = null;
            scripting.serveOthers();
            handTo(requester);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static LuaFunction checkLuaFunction(LuaValue f, String name) {
        if (!f.isclosure()) {
            throw new LuaError("bad argument #1 to '" + name + "' (Lua function expected)");
        }
        return (LuaFunction) f;
    }

    private static Coroutine checkCoroutine(LuaValue v, String name) {
        if (!(v instanceof Coroutine)) {
            throw new LuaError("bad argument #1 to '" + name + "' (coroutine expected)");
        }
        return (Coroutine) v;
    }

    /** Unwinds an abandoned coroutine's thread; an Error, so that no pcall catches it. */
    private static final class Abandoned extends Error {
        private static final long serialVersionUID = 1L;

        Abandoned() {
            super("coroutine abandoned at the end of its script", null, false, false);
        }
    }

    /** A coroutine: its function, status, thread (once started) and the values passed across. */
    private final class Coroutine extends LuaThread {
        private final LuaFunction function;
        private int status = SUSPENDED;
        private Thread thread;
        private Thread resumer;
        private ScriptWatchdog.Frames frames = new ScriptWatchdog.Frames();
        private Varargs transfer = LuaValue.NONE;
        private LuaError error;
        private LuaError lastError;
        private boolean abandoned;

        Coroutine(Globals globals, LuaFunction function) {
            super(globals, function);
            this.function = function;
        }

        @Override
        public String getStatus() {
            return STATUS[status];
        }

        @Override
        public Varargs resume(Varargs args) {
            return LuaCoroutines.this.resume(this, args);
        }

        /** The coroutine's thread: waits for the turn (given at start), runs the function, hands the turn back. */
        private void body() {
            awaitTurn();
            try {
                transfer = function.invoke(transfer);
            } catch (Abandoned e) {
                status = DEAD;
                handTo(loopThread);
                return;
            } catch (LuaError e) {
                fail(e);
            } catch (StackOverflowError e) {
                fail(new LuaError("stack overflow"));
            } catch (Throwable e) {
                fail(new LuaError(e));
            }
            status = DEAD;
            live.remove(this);
            handTo(resumer);
        }

        private void fail(LuaError e) {
            transfer = LuaValue.NONE;
            error = e;
            lastError = e;
        }
    }
}
