package dev.ebb.server.script;

import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaFunction;
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
    // The Lua call stack as far as error lines need it: each frame's prototype (null for a Java
    // function) and current instruction, plus the frame that returned last (a tail call's error
    // is raised after its caller has returned).
    private Prototype[] prototypes = new Prototype[16];
    private int[] pcs = new int[16];
    private org.luaj.vm2.LuaValue[][] stacks = new org.luaj.vm2.LuaValue[16][];
    private int depth;
    private Prototype returnedPrototype;
    private int returnedPc;
    private org.luaj.vm2.LuaValue[] returnedStack;
    // The line of the function that called error(msg, level >= 2), which Redis's "on @user_script:N" names.
    private int raisedLine;

    ScriptWatchdog(Scripting scripting) {
        this.scripting = scripting;
    }

    /** Forgets the frames of a previous script. */
    void reset() {
        countdown = CHECK_EVERY;
        depth = 0;
        returnedPrototype = null;
        returnedStack = null;
        raisedLine = 0;
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
        for (int i = depth - 1; i >= 0; i--) {
            if (prototypes[i] != null) {
                return line(prototypes[i], pcs[i]);
            }
        }
        return returnedPrototype == null ? 0 : line(returnedPrototype, returnedPc);
    }

    /**
     * Lua 5.1's text for an error raised by the instruction of the frame that returned last, or
     * null: LuaJ raises a failing tail call ({@code return x.y()}) after the caller's frame is gone.
     */
    String describeReturned() {
        return returnedPrototype == null ? null : LuaRuntimeErrors.describe(returnedPrototype, returnedPc, returnedStack);
    }

    private static int line(Prototype p, int pc) {
        return p.lineinfo != null && pc >= 0 && pc < p.lineinfo.length ? p.lineinfo[pc] : 0;
    }

    private void push(Prototype p, org.luaj.vm2.LuaValue[] stack) {
        if (depth == prototypes.length) {
            prototypes = java.util.Arrays.copyOf(prototypes, depth * 2);
            pcs = java.util.Arrays.copyOf(pcs, depth * 2);
            stacks = java.util.Arrays.copyOf(stacks, depth * 2);
        }
        prototypes[depth] = p;
        stacks[depth] = stack;
        pcs[depth++] = 0;
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        if (depth > 0) {
            pcs[depth - 1] = pc;
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
    public void onCall(LuaClosure c, Varargs varargs, org.luaj.vm2.LuaValue[] stack) {
        push(c.p, stack);
    }

    @Override
    public void onReturn() {
        if (depth > 0) {
            depth--;
            if (prototypes[depth] != null) {
                returnedPrototype = prototypes[depth];
                returnedPc = pcs[depth];
                returnedStack = stacks[depth];
            }
            stacks[depth] = null;
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
        String message = describeTop();
        if (message != null) {
            return "\u0000" + message;
        }
        if (level >= 2 && depth > 0) {
            raisedLine = prototypes[depth - 1] == null ? 0 : line(prototypes[depth - 1], pcs[depth - 1]);
            // error(msg, level): the position of the frame that many levels up (LuaJ takes the
            // innermost); none past the script's main chunk or at a pcall, as in Lua.
            int d = depth - level;
            Prototype p = d >= 0 ? prototypes[d] : null;
            return "\u0001" + (p == null || p.source == null ? "" : p.source.tojstring() + ":" + line(p, pcs[d]));
        }
        return "";
    }

    /** Lua 5.1's text for an error the innermost Lua frame's instruction raised itself, or null. */
    String describeTop() {
        if (depth == 0 || prototypes[depth - 1] == null) {
            return null;
        }
        return LuaRuntimeErrors.describe(prototypes[depth - 1], pcs[depth - 1], stacks[depth - 1]);
    }
}
