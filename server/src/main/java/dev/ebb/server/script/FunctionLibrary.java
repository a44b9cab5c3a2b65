package dev.ebb.server.script;

import java.util.List;

/**
 * A library FUNCTION LOAD loaded: its name (from the {@code #!lua name=<lib>} line), its whole
 * code as given (shebang included: what FUNCTION LIST WITHCODE, FUNCTION DUMP and persistence
 * keep) and the functions it registered, in registration order. Immutable.
 */
public record FunctionLibrary(String name, byte[] code, List<LibraryFunction> functions) {
    /** The engine every library runs on; Redis 7 has only this one. */
    public static final String ENGINE = "LUA";

    public FunctionLibrary {
        functions = List.copyOf(functions);
    }
}
