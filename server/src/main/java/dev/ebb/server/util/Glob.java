package dev.ebb.server.util;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Redis glob-style pattern matching over bytes, as used by KEYS, SCAN MATCH, PSUBSCRIBE and CONFIG GET.
 *
 * <p>Syntax and its Redis quirks, all reproduced:
 * <ul>
 *   <li>{@code *} any run of bytes (consecutive stars count as one), {@code ?} exactly one byte.</li>
 *   <li>{@code [abc]}, {@code [^abc]}, {@code [a-z]} (reversed bounds {@code [z-a]} are swapped; bounds compare as
 *       <em>signed</em> bytes, as C {@code char} does), {@code \x} inside a class is the literal {@code x} and is
 *       always compared case-sensitively; a class left open at the end of the pattern runs to the end.</li>
 *   <li>{@code \x} outside a class is the literal {@code x}; a lone trailing backslash is a literal backslash.</li>
 *   <li>{@code nocase} folds ASCII A-Z only (the C locale {@code tolower}).</li>
 *   <li>An empty subject matches only the empty pattern: {@code "*"} does not match {@code ""}. KEYS and SCAN
 *       special-case the pattern {@code "*"} themselves before calling the matcher, as Redis does.</li>
 *   <li>Redis stops recursing after 1000 nested stars and then reports no match; a pattern whose 1001st star has
 *       to be crossed with bytes still left to match (and is not the last token) therefore never matches here either.</li>
 * </ul>
 *
 * <p>Algorithm: the pattern is compiled once into tokens (literal, any-byte, class as a 256-bit set, star). Matching
 * is the classic iterative wildcard walk that remembers only the most recent star: on a mismatch it lets that star
 * swallow one more byte and retries. Backtracking to earlier stars is never needed because every non-star token
 * consumes exactly one byte, so a later star can always absorb whatever an earlier one would have. Cost is
 * O(pattern tokens x subject length) in the worst case with no recursion, so pathological patterns such as
 * {@code *a*a*a*a*b} against a long run of {@code a} finish in linear-times-pattern time instead of exponential
 * time, and there is no stack to exhaust. Matching allocates nothing.
 *
 * <p>Instances are immutable and thread-safe. Compile once with {@link #compile(byte[], boolean)} when the same
 * pattern is matched against many subjects (KEYS, SCAN); {@link #matches(byte[], byte[], boolean)} compiles per call.
 */
public final class Glob {
    /** Redis returns "no match" once '*' recursion is nested deeper than this. */
    static final int MAX_STAR_NESTING = 1000;

    private static final byte LITERAL = 0;
    private static final byte ANY = 1;
    private static final byte CLASS = 2;
    private static final byte STAR = 3;

    private final boolean nocase;
    private final byte[] kinds;
    /** Literal byte (already folded when nocase), class number, or star ordinal (1-based), by token. */
    private final int[] operands;
    /** Four longs (256 bits, indexed by unsigned byte) per class. */
    private final long[] classBits;
    private final boolean emptyPattern;

    private Glob(byte[] kinds, int[] operands, long[] classBits, boolean nocase, boolean emptyPattern) {
        this.kinds = kinds;
        this.operands = operands;
        this.classBits = classBits;
        this.nocase = nocase;
        this.emptyPattern = emptyPattern;
    }

    /** Compiles {@code pattern}; O(pattern length x 256) for patterns with classes, O(pattern length) otherwise. */
    public static Glob compile(byte[] pattern, boolean nocase) {
        return new Compiler(pattern, nocase).compile();
    }

    /** Compiles a pattern given as a byte string (one char per byte, ISO-8859-1). */
    public static Glob compile(String pattern, boolean nocase) {
        return compile(pattern.getBytes(StandardCharsets.ISO_8859_1), nocase);
    }

    /** One-shot match; compiles the pattern on every call. */
    public static boolean matches(byte[] pattern, byte[] subject, boolean nocase) {
        return compile(pattern, nocase).matches(subject);
    }

    /** One-shot match of byte strings (one char per byte, ISO-8859-1); compiles the pattern on every call. */
    public static boolean matches(String pattern, String subject, boolean nocase) {
        return compile(pattern, nocase).matches(subject.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** True if {@code pattern} contains a byte that makes it a glob rather than a plain name ({@code * ? [}). */
    public static boolean hasWildcards(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*' || c == '?' || c == '[') {
                return true;
            }
        }
        return false;
    }

    public boolean matches(byte[] subject) {
        return matches(subject, 0, subject.length);
    }

    /** Matches {@code subject[offset, offset + length)}; allocates nothing. */
    public boolean matches(byte[] subject, int offset, int length) {
        if (length == 0) {
            return emptyPattern;
        }
        final byte[] kinds = this.kinds;
        final int tokenCount = kinds.length;
        final int end = offset + length;
        int token = 0;
        int pos = offset;
        int starToken = -1;
        int starResume = 0;
        while (pos < end) {
            if (token < tokenCount && kinds[token] == STAR) {
                if (token == tokenCount - 1) {
                    return true;
                }
                if (operands[token] > MAX_STAR_NESTING) {
                    return false;
                }
                starToken = token;
                starResume = pos;
                token++;
            } else if (token < tokenCount && matchesOne(token, subject[pos])) {
                token++;
                pos++;
            } else if (starToken >= 0) {
                token = starToken + 1;
                starResume++;
                pos = starResume;
            } else {
                return false;
            }
        }
        while (token < tokenCount && kinds[token] == STAR) {
            token++;
        }
        return token == tokenCount;
    }

    private boolean matchesOne(int token, byte b) {
        switch (kinds[token]) {
            case ANY:
                return true;
            case LITERAL:
                return operands[token] == (nocase ? lower(b) : b);
            default:
                int unsigned = b & 0xFF;
                return (classBits[operands[token] * 4 + (unsigned >>> 6)] & (1L << (unsigned & 63))) != 0;
        }
    }

    /** C-locale tolower on a signed byte: only A-Z change. */
    static int lower(int b) {
        return b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
    }

    @Override
    public String toString() {
        return "Glob[tokens=" + kinds.length + ", nocase=" + nocase + "]";
    }

    /** Turns pattern bytes into tokens following Redis's reading of the pattern, quirks included. */
    private static final class Compiler {
        private final byte[] pattern;
        private final boolean nocase;
        private byte[] kinds;
        private int[] operands;
        private long[] classBits = new long[0];
        private int tokens;
        private int classes;
        private int stars;

        Compiler(byte[] pattern, boolean nocase) {
            this.pattern = pattern;
            this.nocase = nocase;
            this.kinds = new byte[pattern.length];
            this.operands = new int[pattern.length];
        }

        Glob compile() {
            int i = 0;
            final int len = pattern.length;
            while (i < len) {
                byte c = pattern[i];
                if (c == '*') {
                    while (i + 1 < len && pattern[i + 1] == '*') {
                        i++;
                    }
                    add(STAR, ++stars);
                    i++;
                } else if (c == '?') {
                    add(ANY, 0);
                    i++;
                } else if (c == '[') {
                    i = compileClass(i + 1);
                } else if (c == '\\' && i + 1 < len) {
                    addLiteral(pattern[i + 1]);
                    i += 2;
                } else {
                    addLiteral(c);
                    i++;
                }
            }
            return new Glob(Arrays.copyOf(kinds, tokens), Arrays.copyOf(operands, tokens),
                    classBits, nocase, len == 0);
        }

        private void addLiteral(byte b) {
            add(LITERAL, nocase ? lower(b) : b);
        }

        private void add(byte kind, int operand) {
            kinds[tokens] = kind;
            operands[tokens] = operand;
            tokens++;
        }

        /**
         * Reads a class starting just after '[' and returns the index after it. Membership of every byte value is
         * decided once here with exactly the predicate Redis applies per subject byte.
         */
        private int compileClass(int start) {
            final int len = pattern.length;
            int i = start;
            boolean negate = i < len && pattern[i] == '^';
            if (negate) {
                i++;
            }
            long[] bits = new long[4];
            while (i < len) {
                byte c = pattern[i];
                if (c == '\\' && len - i >= 2) {
                    setCaseSensitive(bits, pattern[i + 1]);
                    i += 2;
                } else if (c == ']') {
                    i++;
                    break;
                } else if (len - i >= 3 && pattern[i + 1] == '-') {
                    setRange(bits, pattern[i], pattern[i + 2]);
                    i += 3;
                } else {
                    setLiteral(bits, c);
                    i++;
                }
            }
            if (negate) {
                for (int w = 0; w < 4; w++) {
                    bits[w] = ~bits[w];
                }
            }
            classBits = Arrays.copyOf(classBits, (classes + 1) * 4);
            System.arraycopy(bits, 0, classBits, classes * 4, 4);
            add(CLASS, classes++);
            return i;
        }

        private void setCaseSensitive(long[] bits, byte literal) {
            set(bits, literal);
        }

        private void setLiteral(long[] bits, byte literal) {
            for (int v = -128; v < 128; v++) {
                if (nocase ? lower(v) == lower(literal) : v == literal) {
                    set(bits, (byte) v);
                }
            }
        }

        private void setRange(long[] bits, byte from, byte to) {
            int start = Math.min(from, to);
            int end = Math.max(from, to);
            if (nocase) {
                start = lower(start);
                end = lower(end);
            }
            for (int v = -128; v < 128; v++) {
                int c = nocase ? lower(v) : v;
                if (c >= start && c <= end) {
                    set(bits, (byte) v);
                }
            }
        }

        private static void set(long[] bits, byte b) {
            int unsigned = b & 0xFF;
            bits[unsigned >>> 6] |= 1L << (unsigned & 63);
        }
    }
}
