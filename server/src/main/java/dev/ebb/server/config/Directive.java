package dev.ebb.server.config;

import java.util.List;
import java.util.Objects;

/**
 * One row of the config table: a directive's name, aliases, value type, default and whether CONFIG SET may change
 * it. Immutable and thread-safe.
 *
 * @param <T> the Java type of the value
 */
final class Directive<T> {
    /** Whether CONFIG SET may change a directive. */
    enum Mutability {
        /** CONFIG SET changes it. */
        MUTABLE,
        /** Only the config file and the command line set it: "can't set immutable config". */
        IMMUTABLE,
        /**
         * Redis refuses it unless {@code enable-protected-configs} allows it, which Ebb does not support, so CONFIG SET
         * always answers "can't set protected config".
         */
        PROTECTED
    }

    final String name;
    final List<String> aliases;
    final ValueType<T> type;
    final T defaultValue;
    final Mutability mutability;
    /** Its value is a secret: never logged, and the CONFIG SET argument should be redacted from slowlog/MONITOR. */
    final boolean sensitive;
    /** Position in the table, which is also the slot of its value in a {@link ServerConfig} snapshot. */
    final int index;

    Directive(int index, String name, List<String> aliases, ValueType<T> type, T defaultValue,
            Mutability mutability, boolean sensitive) {
        this.index = index;
        this.name = Objects.requireNonNull(name, "name");
        this.aliases = List.copyOf(aliases);
        this.type = Objects.requireNonNull(type, "type");
        this.defaultValue = Objects.requireNonNull(defaultValue, "defaultValue of " + name);
        this.mutability = Objects.requireNonNull(mutability, "mutability");
        this.sensitive = sensitive;
    }

    @SuppressWarnings("unchecked")
    T cast(Object value) {
        return (T) value;
    }

    String format(Object value) {
        return type.format(cast(value));
    }

    @Override
    public String toString() {
        return name;
    }
}
