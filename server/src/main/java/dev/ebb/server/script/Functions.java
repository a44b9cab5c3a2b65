package dev.ebb.server.script;

import dev.ebb.resp.ArgumentSplitter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The loaded function libraries (Redis 7 Functions): libraries by name, and every library's
 * functions by name for FCALL. Library names are case-sensitive; function names are looked up
 * case-insensitively across all libraries, as Redis's function dictionary does, so two libraries
 * cannot register {@code f} and {@code F}.
 *
 * <p>This is also the API persistence uses: {@link #libraries()} gives each library's code to
 * save (RDB's function opcode, the AOF's FUNCTION LOAD), and {@link #load} loads it back.
 *
 * <p>Loading runs the library's code in the shared Lua engine ({@link FunctionEnvironment}), so
 * it is refused while a script runs. Loop thread only.
 */
public final class Functions {
    /** FUNCTION LOAD's limit on running a library's code, as Redis's LOAD_TIMEOUT_MS. */
    public static final long LOAD_TIMEOUT_MS = 500;

    private final FunctionEnvironment environment;
    private Map<String, FunctionLibrary> libraries = new LinkedHashMap<>();
    private Map<String, LibraryFunction> functions = new HashMap<>();
    /** Code bytes of every library plus its functions' names: INFO {@code used_memory_functions}. */
    private long codeBytes;

    Functions(FunctionEnvironment environment) {
        this.environment = environment;
    }

    /** The loaded libraries in load order; read-only view. */
    public Collection<FunctionLibrary> libraries() {
        return Collections.unmodifiableCollection(libraries.values());
    }

    /** The function FCALL names (any case), or null. */
    public LibraryFunction function(byte[] name) {
        return functions.get(lower(new String(name, StandardCharsets.UTF_8)));
    }

    public FunctionLibrary library(String name) {
        return libraries.get(name);
    }

    public int libraryCount() {
        return libraries.size();
    }

    public int functionCount() {
        return functions.size();
    }

    /** The libraries' code and function names, in bytes (a lower bound: compiled code is not counted). */
    public long memory() {
        return codeBytes;
    }

    /**
     * FUNCTION LOAD: compiles {@code code} (which starts with its {@code #!lua name=<lib>} line),
     * runs it to register its functions, and adds the library, replacing one of the same name
     * if {@code replace}. Nothing changes if it fails.
     *
     * @return the library's name
     * @throws FunctionException with Redis's text
     */
    public String load(byte[] code, boolean replace) {
        return load(code, replace, LOAD_TIMEOUT_MS);
    }

    private String load(byte[] code, boolean replace, long timeoutMs) {
        FunctionLibrary library = compile(code, timeoutMs, replace ? null : libraries);
        FunctionLibrary old = replace ? libraries.get(library.name()) : null;
        for (LibraryFunction f : library.functions()) {
            LibraryFunction existing = functions.get(lower(f.name()));
            if (existing != null && (old == null || !existing.library().equals(old.name()))) {
                throw new FunctionException("Function " + f.name() + " already exists");
            }
        }
        if (old != null) {
            unlink(old);
        }
        link(library);
        return library.name();
    }

    /**
     * Parses the shebang line and compiles the library; when {@code existing} is given, a library
     * of the same name already there fails the load before its code runs, as in Redis.
     */
    private FunctionLibrary compile(byte[] code, long timeoutMs, Map<String, FunctionLibrary> existing) {
        if (code.length < 2 || code[0] != '#' || code[1] != '!') {
            throw new FunctionException("Missing library metadata");
        }
        int end = indexOf(code, (byte) '\n');
        if (end < 0) {
            throw new FunctionException("Invalid library metadata");
        }
        byte[][] parts = ArgumentSplitter.split(code, end);
        if (parts == null || parts.length == 0) {
            throw new FunctionException("Invalid library metadata");
        }
        String engine = text(parts[0]).substring(2);
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            String part = text(parts[i]);
            if (part.regionMatches(true, 0, "name=", 0, 5)) {
                if (name != null) {
                    throw new FunctionException("Invalid metadata value, name argument was given multiple times");
                }
                name = part.substring(5);
                continue;
            }
            throw new FunctionException("Invalid metadata value given: " + part);
        }
        if (name == null) {
            throw new FunctionException("Library name was not given");
        }
        if (!FunctionEnvironment.validName(name)) {
            throw new FunctionException(FunctionEnvironment.badName());
        }
        if (!engine.equalsIgnoreCase(FunctionLibrary.ENGINE)) {
            throw new FunctionException("Engine '" + engine + "' not found");
        }
        if (existing != null && existing.containsKey(name)) {
            throw new FunctionException("Library '" + name + "' already exists");
        }
        // The body keeps the shebang's line break, so that line numbers count from the shebang.
        byte[] body = Arrays.copyOfRange(code, end, code.length);
        return environment.load(name, code.clone(), body, timeoutMs);
    }

    /** FUNCTION DELETE: false if there is no such library. */
    public boolean delete(String name) {
        FunctionLibrary library = libraries.get(name);
        if (library == null) {
            return false;
        }
        unlink(library);
        return true;
    }

    /** FUNCTION FLUSH: forgets every library. */
    public void flush() {
        libraries = new LinkedHashMap<>();
        functions = new HashMap<>();
        codeBytes = 0;
    }

    /**
     * FUNCTION RESTORE: loads every library of {@code codes} (from a dump) into a new set first,
     * then, by {@code policy}, replaces all libraries with it (FLUSH), adds it failing on any
     * library name already loaded (APPEND), or adds it replacing libraries of the same names
     * (REPLACE); either way a function name clash fails it. Nothing changes if it fails.
     *
     * @throws FunctionException with Redis's text
     */
    public void restore(List<byte[]> codes, RestorePolicy policy) {
        Functions restored = new Functions(environment);
        for (byte[] code : codes) {
            restored.load(code, false, 0);
        }
        if (policy == RestorePolicy.FLUSH) {
            libraries = restored.libraries;
            functions = restored.functions;
            codeBytes = restored.codeBytes;
            return;
        }
        List<FunctionLibrary> replaced = new ArrayList<>();
        for (FunctionLibrary library : restored.libraries.values()) {
            FunctionLibrary old = libraries.get(library.name());
            if (old != null) {
                if (policy == RestorePolicy.APPEND) {
                    throw new FunctionException("Library " + library.name() + " already exists");
                }
                replaced.add(old);
            }
        }
        for (FunctionLibrary old : replaced) {
            unlink(old);
        }
        for (LibraryFunction f : restored.functions.values()) {
            if (functions.containsKey(lower(f.name()))) {
                for (FunctionLibrary old : replaced) {
                    link(old);
                }
                throw new FunctionException("Function " + f.name() + " already exists");
            }
        }
        for (FunctionLibrary library : restored.libraries.values()) {
            link(library);
        }
    }

    /** FUNCTION DUMP: every library in Redis 7.2's payload format ({@link FunctionsDump}). */
    public byte[] dump() {
        return FunctionsDump.write(libraries.values());
    }

    /**
     * FUNCTION RESTORE of a payload from FUNCTION DUMP (Ebb's or Redis's).
     *
     * @return false if the payload's version or checksum is wrong
     * @throws FunctionException with Redis's text if its libraries cannot be restored
     */
    public boolean restore(byte[] payload, RestorePolicy policy) {
        if (!FunctionsDump.verify(payload)) {
            return false;
        }
        restore(FunctionsDump.read(payload), policy);
        return true;
    }

    /** How FUNCTION RESTORE treats the libraries already loaded. */
    public enum RestorePolicy { FLUSH, APPEND, REPLACE }

    private void link(FunctionLibrary library) {
        libraries.put(library.name(), library);
        codeBytes += library.code().length;
        for (LibraryFunction f : library.functions()) {
            if (functions.putIfAbsent(lower(f.name()), f) == null) {
                codeBytes += f.name().length();
            }
        }
    }

    private void unlink(FunctionLibrary library) {
        libraries.remove(library.name());
        codeBytes -= library.code().length;
        for (LibraryFunction f : library.functions()) {
            if (functions.remove(lower(f.name()), f)) {
                codeBytes -= f.name().length();
            }
        }
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static int indexOf(byte[] b, byte value) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
