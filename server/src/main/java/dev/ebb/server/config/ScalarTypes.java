package dev.ebb.server.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The single-argument value types: yes/no, integers, memory amounts, enumerations, strings and the directory.
 * Error texts are Redis 7's. All types are immutable and thread-safe.
 */
final class ScalarTypes {
    static final String WRONG_NUMBER_OF_ARGUMENTS = "wrong number of arguments";

    private ScalarTypes() {
    }

    /** Base for types that take exactly one argument. */
    abstract static class SingleArg<T> implements ValueType<T> {
        @Override
        public final T parse(List<String> args, T current) throws InvalidValueException {
            if (args.size() != 1) {
                throw new InvalidValueException(WRONG_NUMBER_OF_ARGUMENTS);
            }
            return parseOne(args.get(0), current);
        }

        abstract T parseOne(String arg, T current) throws InvalidValueException;

        @Override
        public String fileForm(T value) {
            return format(value);
        }
    }

    /** yes/no, case-insensitive; optionally only "no" is accepted, with a reason for refusing "yes". */
    static final class Bool extends SingleArg<Boolean> {
        private final String yesRefusal;

        private Bool(String yesRefusal) {
            this.yesRefusal = yesRefusal;
        }

        static Bool yesNo() {
            return new Bool(null);
        }

        /** A directive Ebb accepts for compatibility only when it is off. */
        static Bool onlyNo(String reasonForRefusingYes) {
            return new Bool(reasonForRefusingYes);
        }

        @Override
        Boolean parseOne(String arg, Boolean current) throws InvalidValueException {
            if (arg.equalsIgnoreCase("yes")) {
                if (yesRefusal != null) {
                    throw new InvalidValueException(yesRefusal);
                }
                return Boolean.TRUE;
            }
            if (arg.equalsIgnoreCase("no")) {
                return Boolean.FALSE;
            }
            throw new InvalidValueException("argument must be 'yes' or 'no'");
        }

        @Override
        public String format(Boolean value) {
            return value ? "yes" : "no";
        }
    }

    /**
     * A decimal integer in [min, max] (Redis's strict {@code string2ll} syntax). Values outside [clampMin, clampMax]
     * but inside [min, max] are accepted and capped, as Redis does for {@code hz}.
     */
    static final class Int extends SingleArg<Long> {
        private final long min;
        private final long max;
        private final long clampMin;
        private final long clampMax;

        private Int(long min, long max, long clampMin, long clampMax) {
            this.min = min;
            this.max = max;
            this.clampMin = clampMin;
            this.clampMax = clampMax;
        }

        static Int range(long min, long max) {
            return new Int(min, max, min, max);
        }

        static Int clamped(long min, long max, long clampMin, long clampMax) {
            return new Int(min, max, clampMin, clampMax);
        }

        @Override
        Long parseOne(String arg, Long current) throws InvalidValueException {
            Long value = ConfigNumbers.parseStrictLong(arg);
            if (value == null) {
                throw new InvalidValueException("argument couldn't be parsed into an integer");
            }
            return Math.max(clampMin, Math.min(clampMax, checkRange(value, min, max)));
        }

        @Override
        public String format(Long value) {
            return value.toString();
        }
    }

    /** A byte count with optional unit (see {@link ConfigNumbers#parseMemory}) in [min, max]. */
    static final class Memory extends SingleArg<Long> {
        private final long min;
        private final long max;

        private Memory(long min, long max) {
            this.min = min;
            this.max = max;
        }

        static Memory range(long min, long max) {
            return new Memory(min, max);
        }

        @Override
        Long parseOne(String arg, Long current) throws InvalidValueException {
            Long value = ConfigNumbers.parseMemory(arg);
            if (value == null) {
                throw new InvalidValueException("argument must be a memory value");
            }
            return checkRange(value, min, max);
        }

        @Override
        public String format(Long value) {
            return value.toString();
        }

        @Override
        public String fileForm(Long value) {
            return ConfigNumbers.formatMemory(value);
        }
    }

    /**
     * A byte count with optional unit, or a whole percentage {@code N%} (0 to 100) of something
     * else, stored as {@code -N} as Redis stores it ({@code maxmemory-clients}).
     */
    static final class MemoryOrPercent extends SingleArg<Long> {
        static MemoryOrPercent of() {
            return new MemoryOrPercent();
        }

        @Override
        Long parseOne(String arg, Long current) throws InvalidValueException {
            if (arg.endsWith("%")) {
                String digits = arg.substring(0, arg.length() - 1);
                if (!digits.isEmpty() && digits.chars().allMatch(Character::isDigit)) {
                    long percent;
                    try {
                        percent = Long.parseLong(digits);
                    } catch (NumberFormatException e) {
                        percent = Long.MAX_VALUE;
                    }
                    if (percent > 100) {
                        throw new InvalidValueException("percentage argument must be less or equal to 100");
                    }
                    return -percent;
                }
                throw new InvalidValueException("argument must be a memory or percent value");
            }
            Long value = ConfigNumbers.parseMemory(arg);
            if (value == null || value < 0) {
                throw new InvalidValueException("argument must be a memory or percent value");
            }
            return value;
        }

        @Override
        public String format(Long value) {
            return value < 0 ? -value + "%" : value.toString();
        }

        @Override
        public String fileForm(Long value) {
            return value < 0 ? -value + "%" : ConfigNumbers.formatMemory(value);
        }
    }

    /** One of a Java enum's {@link ConfigEnum#configName() config names}, case-insensitive. */
    static final class Enumeration<E extends Enum<E> & ConfigEnum> extends SingleArg<E> {
        private final E[] constants;

        private Enumeration(Class<E> type) {
            this.constants = type.getEnumConstants();
        }

        static <E extends Enum<E> & ConfigEnum> Enumeration<E> of(Class<E> type) {
            return new Enumeration<>(type);
        }

        @Override
        E parseOne(String arg, E current) throws InvalidValueException {
            for (E constant : constants) {
                if (constant.configName().equalsIgnoreCase(arg)) {
                    return constant;
                }
            }
            List<String> names = new ArrayList<>();
            for (E constant : constants) {
                names.add(constant.configName());
            }
            throw new InvalidValueException("argument(s) must be one of the following: " + String.join(", ", names));
        }

        @Override
        public String format(E value) {
            return value.configName();
        }
    }

    /** Any string, optionally checked; written back quoted. */
    static final class Text extends SingleArg<String> {
        /** The error for a value with a directory part, or null if any text is allowed. */
        private final String notBaseName;

        private Text(String notBaseName) {
            this.notBaseName = notBaseName;
        }

        static Text any() {
            return new Text(null);
        }

        /** A file name without directory part, as Redis requires for {@code dbfilename}. */
        static Text fileName() {
            return new Text("dbfilename can't be a path, just a filename");
        }

        /** A name without directory part, refused with {@code notBaseName} (Redis's text for the directive). */
        static Text baseName(String notBaseName) {
            return new Text(notBaseName);
        }

        @Override
        String parseOne(String arg, String current) throws InvalidValueException {
            if (notBaseName != null && (arg.indexOf('/') >= 0 || arg.indexOf('\\') >= 0)) {
                throw new InvalidValueException(notBaseName);
            }
            return arg;
        }

        @Override
        public String format(String value) {
            return value;
        }

        @Override
        public String fileForm(String value) {
            return ConfigSyntax.quote(value);
        }
    }

    /**
     * The working directory, kept as a normalized absolute path. A relative path is resolved against the previous
     * value, which is what Redis's {@code chdir} amounts to. The JVM cannot change its own working directory, so Ebb
     * records the directory without moving into it; the RDB file is written and read there.
     */
    static final class Directory extends SingleArg<String> {
        @Override
        String parseOne(String arg, String current) throws InvalidValueException {
            Path absolute;
            try {
                Path path = current == null ? Path.of(arg) : Path.of(current).resolve(arg);
                absolute = path.toAbsolutePath().normalize();
            } catch (InvalidPathException e) {
                throw new InvalidValueException("Invalid path: " + e.getReason());
            }
            if (!Files.exists(absolute)) {
                throw new InvalidValueException("No such file or directory");
            }
            if (!Files.isDirectory(absolute)) {
                throw new InvalidValueException("Not a directory");
            }
            return absolute.toString();
        }

        @Override
        public String format(String value) {
            return value;
        }

        @Override
        public String fileForm(String value) {
            return ConfigSyntax.quote(value);
        }
    }

    static long checkRange(long value, long min, long max) throws InvalidValueException {
        if (value < min || value > max) {
            throw new InvalidValueException("argument must be between " + min + " and " + max + " inclusive");
        }
        return value;
    }

    static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
