package dev.ebb.server.config;

import java.util.List;

/**
 * How one kind of directive value is read, shown and written back. Implementations are immutable and thread-safe;
 * the values they produce are immutable and compared with {@code equals} to detect a change.
 *
 * @param <T> the Java type of the value
 */
interface ValueType<T> {
    /**
     * Reads the arguments that followed the directive name (one for single-argument directives, which
     * {@link #multiArg()} tells apart).
     *
     * @param current the value before this assignment; only {@code dir} uses it, to resolve a relative path
     *     against the previous directory as Redis's {@code chdir} would
     */
    T parse(List<String> args, T current) throws InvalidValueException;

    /** True for directives that take a variable number of arguments (bind, save, client-output-buffer-limit). */
    default boolean multiArg() {
        return false;
    }

    /** The value as CONFIG GET prints it. */
    String format(T value);

    /** The value as it appears after the name on a config file line. */
    String fileForm(T value);

    /**
     * The config file lines for CONFIG REWRITE, each marked {@code force} when it must be written even if the file
     * does not mention the directive yet (Redis writes a directive only if it was in the file or is not at its
     * default).
     */
    default List<RewriteLine> rewrite(String name, T value, T defaultValue) {
        return List.of(new RewriteLine(name + " " + fileForm(value), !value.equals(defaultValue)));
    }

    /**
     * For directives written on several lines, which existing line a rewritten line should replace: lines with
     * equal keys are paired. Null (the default) pairs lines in order.
     *
     * @param args the arguments after the directive name on an existing line
     */
    default String lineKey(List<String> args) {
        return null;
    }

    /** One line to write for CONFIG REWRITE; {@code key} as in {@link #lineKey}. */
    record RewriteLine(String text, boolean force, String key) {
        RewriteLine(String text, boolean force) {
            this(text, force, null);
        }
    }
}
