package dev.ebb.server.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One command's row in the command table: name, arity, flags, key positions, documentation and
 * handler, or (for a container such as CONFIG) its subcommands. Immutable.
 *
 * <p>Arity counts the command name: positive is exact, negative is a minimum. Key positions are
 * 1-based argv indexes; {@code lastKey} -1 means "the last argument", 0 means no keys.
 */
public final class CommandSpec {
    private static final AtomicInteger ORDINALS = new AtomicInteger();

    private final int ordinal = ORDINALS.getAndIncrement();
    private final String name;
    private final String fullName;
    private final int arity;
    private final long flags;
    private final int firstKey;
    private final int lastKey;
    private final int keyStep;
    private final CommandHandler handler;
    private final CommandGroup group;
    private final String since;
    private final String summary;
    private final String syntax;
    private final String complexity;
    private final List<KeySpec> keySpecs;
    private final List<CommandSpec> subcommands;
    private final KeyFinder keyFinder;
    private final List<String> movableKeyFlags;
    private final FlagsResolver flagsResolver;

    private CommandSpec(Builder b, String parentName) {
        this.name = b.name;
        this.fullName = parentName == null ? b.name : parentName + "|" + b.name;
        this.arity = b.arity;
        this.flags = b.flags;
        this.firstKey = b.firstKey;
        this.lastKey = b.lastKey;
        this.keyStep = b.keyStep;
        this.handler = b.handler;
        this.group = b.group;
        this.since = b.since;
        this.summary = b.summary;
        this.syntax = b.syntax;
        this.complexity = b.complexity;
        this.keyFinder = b.keyFinder;
        this.movableKeyFlags = b.movableKeyFlags;
        this.flagsResolver = b.flagsResolver;
        this.keySpecs = List.copyOf(b.keySpecs);
        List<CommandSpec> subs = new ArrayList<>(b.subcommands.size());
        for (Builder sub : b.subcommands) {
            if (sub.group == null) {
                sub.group = b.group;
            }
            subs.add(new CommandSpec(sub, this.name));
        }
        this.subcommands = Collections.unmodifiableList(subs);
        if (handler == null && subcommands.isEmpty()) {
            throw new IllegalStateException("command has neither handler nor subcommands: " + fullName);
        }
        if (group == null || since == null || summary == null) {
            throw new IllegalStateException("command has no documentation: " + fullName);
        }
    }

    /**
     * Starts a spec, in the table's declarative shape:
     * {@code spec("get", 2, READONLY | FAST, 1, 1, 1, StringCommands::get)}.
     */
    public static Builder spec(String name, int arity, long flags, int firstKey, int lastKey, int keyStep,
            CommandHandler handler) {
        return new Builder(name, arity, flags, firstKey, lastKey, keyStep, handler);
    }

    /** A container command (CONFIG, CLIENT, OBJECT …) dispatched on its first argument. */
    public static Builder container(String name, int arity, long flags) {
        return new Builder(name, arity, flags, 0, 0, 0, null);
    }

    /**
     * A number no other spec in this JVM has, counting from 0 in creation order: where a server keeps
     * this command's statistics (the table is shared by every server in the JVM, the counts are not).
     */
    public int ordinal() {
        return ordinal;
    }

    /** Lower-case name, e.g. {@code get} or, for a subcommand, {@code get} under {@code config}. */
    public String name() {
        return name;
    }

    /** The name Redis uses in errors and COMMAND output: {@code get}, {@code config|get}. */
    public String fullName() {
        return fullName;
    }

    public int arity() {
        return arity;
    }

    public long flags() {
        return flags;
    }

    public boolean has(long flag) {
        return (flags & flag) != 0;
    }

    /**
     * The flags of one command line, as Redis's getCommandFlags: the declared flags, or those a
     * command whose nature depends on its arguments derives (FCALL's from the function's flags).
     */
    public long flags(dev.ebb.server.Client c, byte[][] argv) {
        return flagsResolver == null ? flags : flagsResolver.flags(c, argv, flags);
    }

    public int firstKey() {
        return firstKey;
    }

    public int lastKey() {
        return lastKey;
    }

    public int keyStep() {
        return keyStep;
    }

    public CommandHandler handler() {
        return handler;
    }

    public CommandGroup group() {
        return group;
    }

    public String since() {
        return since;
    }

    public String summary() {
        return summary;
    }

    /** Argument syntax as the Redis docs write it, e.g. {@code key [NX | XX]}; "" for none. */
    public String syntax() {
        return syntax;
    }

    public String complexity() {
        return complexity;
    }

    /** The key specs declared for COMMAND INFO; empty when they derive from the key positions. */
    public List<KeySpec> keySpecs() {
        return keySpecs;
    }

    public List<CommandSpec> subcommands() {
        return subcommands;
    }

    /** The subcommand named by {@code arg} (any case), or null. */
    public CommandSpec subcommand(byte[] arg) {
        String lower = new String(arg, java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        for (CommandSpec sub : subcommands) {
            if (sub.name.equals(lower)) {
                return sub;
            }
        }
        return null;
    }

    /** True when argc satisfies the arity rule. */
    public boolean arityAccepts(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    /**
     * The argv indexes of this command's keys in {@code argv}, for a command whose keys move
     * (SORT's STORE destination), or null when the fixed first/last/step positions describe them.
     */
    public int[] movableKeys(byte[][] argv) {
        return keyFinder == null ? null : keyFinder.keys(argv);
    }

    /**
     * The COMMAND GETKEYSANDFLAGS flags (e.g. {@code RO access}) of the {@code n}th key
     * {@link #movableKeys} found, or null when none were declared for it.
     */
    public String movableKeyFlags(int n) {
        return n < movableKeyFlags.size() ? movableKeyFlags.get(n) : null;
    }

    /** Finds the keys of a command whose key positions depend on its other arguments. */
    @FunctionalInterface
    public interface KeyFinder {
        /** The argv indexes of the keys, in order; {@code argv} satisfies the arity. */
        int[] keys(byte[][] argv);
    }

    /** Derives a command line's flags from its arguments (see {@link CommandSpec#flags(dev.ebb.server.Client, byte[][])}). */
    @FunctionalInterface
    public interface FlagsResolver {
        long flags(dev.ebb.server.Client c, byte[][] argv, long declared);
    }

    /** Mutable description of a spec; {@link CommandTable} builds the immutable specs. */
    public static final class Builder {
        private final String name;
        private final int arity;
        private final long flags;
        private final int firstKey;
        private final int lastKey;
        private final int keyStep;
        private final CommandHandler handler;
        private CommandGroup group;
        private String since;
        private String summary;
        private String syntax = "";
        private String complexity = "";
        private List<KeySpec> keySpecs = List.of();
        private final List<Builder> subcommands = new ArrayList<>();
        private KeyFinder keyFinder;
        private List<String> movableKeyFlags = List.of();
        private FlagsResolver flagsResolver;

        private Builder(String name, int arity, long flags, int firstKey, int lastKey, int keyStep,
                CommandHandler handler) {
            if (!name.equals(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("command names are lower case: name=" + name);
            }
            if (arity == 0) {
                throw new IllegalArgumentException("arity must not be 0: name=" + name);
            }
            this.name = name;
            this.arity = arity;
            this.flags = flags;
            this.firstKey = firstKey;
            this.lastKey = lastKey;
            this.keyStep = keyStep;
            this.handler = handler;
        }

        /** Documentation: group, the Redis version that introduced it, one-line summary, argument syntax. */
        public Builder doc(CommandGroup group, String since, String summary, String syntax) {
            this.group = group;
            this.since = since;
            this.summary = summary;
            this.syntax = syntax;
            return this;
        }

        public Builder complexity(String complexity) {
            this.complexity = complexity;
            return this;
        }

        /**
         * Where the keys are when they move with the arguments (see {@link CommandSpec#movableKeys}),
         * and the GETKEYSANDFLAGS flags of the first, second … key found, space-separated.
         */
        public Builder keys(KeyFinder finder, String... flagsInOrder) {
            this.keyFinder = finder;
            this.movableKeyFlags = List.of(flagsInOrder);
            return this;
        }

        /** Flags that depend on the command line (FCALL's on the function it names). */
        public Builder flagsFrom(FlagsResolver resolver) {
            this.flagsResolver = resolver;
            return this;
        }

        /** Key specs as Redis declares them, for keys the first/last/step positions do not describe. */
        public Builder keySpecs(KeySpec... specs) {
            this.keySpecs = List.of(specs);
            return this;
        }

        public Builder sub(Builder subcommand) {
            subcommands.add(subcommand);
            return this;
        }

        /** Adds several subcommands, in order (a family split over two classes). */
        public Builder subs(java.util.List<Builder> more) {
            subcommands.addAll(more);
            return this;
        }

        String name() {
            return name;
        }

        CommandSpec build() {
            return new CommandSpec(this, null);
        }
    }
}
