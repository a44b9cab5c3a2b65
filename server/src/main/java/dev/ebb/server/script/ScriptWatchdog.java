package dev.ebb.server.script;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;

/**
 * LuaJ's instruction hook, used as Redis uses Lua's count hook: every {@value #CHECK_EVERY}
 * instructions the running script hands control to {@link Scripting#checkpoint()}, which watches
 * the time limit, serves other clients once the script is busy, and ends a killed script.
 *
 * <p>LuaJ calls {@code globals.debuglib} on every instruction, call and return when one is set;
 * this subclass replaces DebugLib's bookkeeping (its call stack, under a lock) with a counter and a
 * light frame stack (for the line an error happened on, and the registers Lua 5.1's wording of a
 * runtime error reads), so the cost per instruction is a virtual
 * call, a store and a decrement. It is never exposed to
 * scripts as the {@code debug} table. Error messages therefore carry no Lua traceback (Redis's
 * carry none either). Used by the loop thread, and by LuaJ coroutine threads while the loop
 * thread waits for them.
 */
final class ScriptWatchdog extends DebugLib {
    static final int CHECK_EVERY = 4096;

    private final Scripting scripting;
    private int countdown = CHECK_EVERY;
    // The running Lua thread's call stack (each coroutine has its own, see swap).
    private Frames frames = new Frames();
    // The line of the function that called error(msg, level >= 2), which Redis's "on @user_script:N" names.
    private int raisedLine;

    ScriptWatchdog(Scripting scripting) {
        this.scripting = scripting;
    }

    /** Forgets the frames of a previous script. */
    void reset() {
        countdown = CHECK_EVERY;
        frames = new Frames();
        raisedLine = 0;
    }

    /**
     * Makes {@code next} the call stack frames are pushed on (a coroutine's, when the turn passes to
     * it) and returns the one it replaces, as Lua keeps a call stack per coroutine.
     */
    Frames swap(Frames next) {
        Frames previous = frames;
        frames = next;
        return previous;
    }

    /**
     * Whether {@code yield}, just called, may yield as Lua 5.1 lets it: only when every frame of the
     * coroutine is a Lua function called by a plain call from the frame below, and the innermost calls
     * {@code yield} (or a Lua function that tail-called it). A metamethod, an iterator, or a function
     * called back by a library function (pcall, table.sort, tostring) is a boundary yield cannot cross.
     */
    boolean canYield(LuaValue yield) {
        Frames f = frames;
        if (f.depth == 0) {
            return tailCalled(f, yield);
        }
        if (!f.baseCalledByLua) {
            return false;
        }
        for (int i = 0; i < f.depth; i++) {
            Prototype p = f.prototypes[i];
            if (p == null) {
                return false;
            }
            int instruction = instruction(p, f.pcs[i]);
            if (Lua.GET_OPCODE(instruction) != Lua.OP_CALL) {
                return false;
            }
            LuaValue called = f.stacks[i][Lua.GETARG_A(instruction)];
            boolean innermost = i == f.depth - 1;
            if (innermost ? called != yield && !(called instanceof LuaClosure && tailCalled(f, yield))
                    : !(called instanceof LuaClosure)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code callee}, a function being called with no frame of its own, was tail-called
     * ({@code return f()}) by the Lua function that returned last, directly above the innermost
     * frame: LuaJ calls it after that function's frame is gone.
     */
    private static boolean tailCalled(Frames f, LuaValue callee) {
        Prototype p = f.returnedPrototype;
        if (p == null || f.returnedDepth != f.depth) {
            return false;
        }
        int instruction = instruction(p, f.returnedPc);
        return Lua.GET_OPCODE(instruction) == Lua.OP_TAILCALL && f.returnedStack[Lua.GETARG_A(instruction)] == callee;
    }

    private static int instruction(Prototype p, int pc) {
        return pc >= 0 && pc < p.code.length ? p.code[pc] : -1;
    }

    /** The line error(msg, level) was called on in this script (level 2 or more), or 0. */
    int raisedLine() {
        return raisedLine;
    }

    /**
     * Makes the next instruction a checkpoint, whichever thread runs it: once a script is killed,
     * a coroutine must not use up the count before the script's own code reaches it.
     */
    void checkSoon() {
        countdown = 1;
    }

    /** The source line the script was at: the innermost Lua frame, else the one that returned last; 0 if none. */
    int currentLine() {
        Frames f = frames;
        for (int i = f.depth - 1; i >= 0; i--) {
            if (f.prototypes[i] != null) {
                return line(f.prototypes[i], f.pcs[i]);
            }
        }
        return f.returnedPrototype == null ? 0 : line(f.returnedPrototype, f.returnedPc);
    }

    /**
     * Lua 5.1's text for an error raised by the instruction of the frame that returned last, or
     * null: LuaJ raises a failing tail call ({@code return x.y()}) after the caller's frame is gone.
     */
    String describeReturned() {
        Frames f = frames;
        return f.returnedPrototype == null ? null : LuaRuntimeErrors.describe(f.returnedPrototype, f.returnedPc, f.returnedStack);
    }

    /**
     * Where {@code callee}, a Java function, was tail-called from ({@code return f()}): the
     * {@code chunk:line} of the Lua function LuaJ has already returned from when it calls it, so
     * that no frame is left to place its error; null if it was not tail-called.
     */
    String tailCallerPosition(LuaValue callee) {
        Frames f = frames;
        if (!tailCalled(f, callee) || f.returnedPrototype.source == null) {
            return null;
        }
        return f.returnedPrototype.source.tojstring() + ":" + line(f.returnedPrototype, f.returnedPc);
    }

    private static int line(Prototype p, int pc) {
        return p.lineinfo != null && pc >= 0 && pc < p.lineinfo.length ? p.lineinfo[pc] : 0;
    }

    private void push(Prototype p, LuaValue[] stack) {
        Frames f = frames;
        if (f.depth == f.prototypes.length) {
            f.prototypes = java.util.Arrays.copyOf(f.prototypes, f.depth * 2);
            f.pcs = java.util.Arrays.copyOf(f.pcs, f.depth * 2);
            f.stacks = java.util.Arrays.copyOf(f.stacks, f.depth * 2);
        }
        f.prototypes[f.depth] = p;
        f.stacks[f.depth] = stack;
        f.pcs[f.depth++] = 0;
    }

    /** A Lua thread's call stack: each frame's prototype (null for a Java function), current
     * instruction and registers, plus the frame that returned last (a tail call's error is raised
     * after its caller has returned). */
    static final class Frames {
        private Prototype[] prototypes = new Prototype[16];
        private int[] pcs = new int[16];
        private LuaValue[][] stacks = new LuaValue[16][];
        private int depth;
        private Prototype returnedPrototype;
        private int returnedPc;
        private LuaValue[] returnedStack;
        private int returnedDepth;
        // Whether the outermost frame is the coroutine's function, or a Lua function it (or one
        // such) tail-called, rather than one a Java function called back after such a tail call.
        private boolean baseCalledByLua;
        private boolean started;
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        Frames f = frames;
        if (f.depth > 0) {
            f.pcs[f.depth - 1] = pc;
        }
        if (--countdown == 0) {
            countdown = CHECK_EVERY;
            scripting.checkpoint();
        }
    }

    @Override
    public void onCall(LuaFunction f) {
        push(null, null);
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        Frames f = frames;
        if (f.depth == 0) {
            f.baseCalledByLua = !f.started || tailCalled(f, c);
            f.started = true;
        }
        push(c.p, stack);
    }

    @Override
    public void onReturn() {
        Frames f = frames;
        if (f.depth > 0) {
            f.depth--;
            if (f.prototypes[f.depth] != null) {
                f.returnedDepth = f.depth;
                f.returnedPrototype = f.prototypes[f.depth];
                f.returnedPc = f.pcs[f.depth];
                f.returnedStack = f.stacks[f.depth];
            }
            f.stacks[f.depth] = null;
        }
    }

    /**
     * Called by LuaJ when an error first leaves a Lua function, before its frame is popped: the
     * place for Lua 5.1's wording of an error the failing instruction raised itself
     * ({@link LuaRuntimeErrors}), which LuaError.getMessage puts in place of LuaJ's text (marked
     * by a NUL after the line break), and the position {@code error(msg, level)} asks for (marked by
     * a \\u0001). No Lua traceback otherwise.
     */
    @Override
    public String traceback(int level) {
        Frames f = frames;
        String message = describeTop();
        if (message != null) {
            return "\u0000" + message;
        }
        if (level >= 2 && f.depth > 0) {
            raisedLine = f.prototypes[f.depth - 1] == null ? 0 : line(f.prototypes[f.depth - 1], f.pcs[f.depth - 1]);
            // error(msg, level): the position of the frame that many levels up (LuaJ takes the
            // innermost); none past the script's main chunk or at a pcall, as in Lua.
            int d = f.depth - level;
            Prototype p = d >= 0 ? f.prototypes[d] : null;
            return "\u0001" + (p == null || p.source == null ? "" : p.source.tojstring() + ":" + line(p, f.pcs[d]));
        }
        return "";
    }

    /** Lua 5.1's text for an error the innermost Lua frame's instruction raised itself, or null. */
    String describeTop() {
        Frames f = frames;
        if (f.depth == 0 || f.prototypes[f.depth - 1] == null) {
            return null;
        }
        return LuaRuntimeErrors.describe(f.prototypes[f.depth - 1], f.pcs[f.depth - 1], f.stacks[f.depth - 1]);
    }
}
