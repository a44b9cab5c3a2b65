package dev.ebb.resp;

import java.util.Arrays;

/**
 * Splits a line into arguments with the quoting rules of Redis's {@code sdssplitargs}: inline
 * requests (what a human types into telnet, or redis-cli --pipe sends) and redis.conf lines alike.
 * <ul>
 *   <li>Arguments are separated by runs of C whitespace (space, tab, CR, LF, VT, FF); an unquoted
 *       argument ends at a space, tab, CR or LF only.</li>
 *   <li>{@code "double quotes"} understand {@code \xHH} (two hex digits), {@code \n \r \t \b \a}, and a
 *       backslash before any other character stands for that character ({@code \\}, {@code \"}).</li>
 *   <li>{@code 'single quotes'} only understand {@code \'}; every other byte is literal.</li>
 *   <li>A quote may open in the middle of an argument ({@code a"b c"} is {@code ab c}), but a closing
 *       quote must be followed by whitespace or the end of the line, otherwise the line is rejected,
 *       as is a quote that never closes.</li>
 * </ul>
 * Where Ebb differs: Redis scans the line as a C string, so a NUL byte hides the rest of the line
 * (in practice Redis never finds the end of such a line and waits until the 64 KB inline limit).
 * Here NUL is an ordinary byte.
 *
 * <p>Cost: one pass over the line, O(length); allocates the result arrays and one scratch array the
 * size of the line. Inline requests are rare (humans and bulk loading), so this is not a hot path.
 * Stateless and thread-safe.
 */
public final class ArgumentSplitter {
    private static final byte[][] NO_ARGUMENTS = new byte[0][];

    private ArgumentSplitter() {
    }

    /**
     * Returns the arguments of {@code line[0, length)}, an empty array for a blank line, or null
     * when the quotes do not balance.
     */
    public static byte[][] split(byte[] line, int length) {
        byte[][] args = NO_ARGUMENTS;
        int argc = 0;
        byte[] token = new byte[length];
        int pos = 0;
        while (true) {
            while (pos < length && isCSpace(line[pos])) {
                pos++;
            }
            if (pos == length) {
                return argc == args.length ? args : Arrays.copyOf(args, argc);
            }
            int tokenLength = 0;
            boolean inDoubleQuotes = false;
            boolean inSingleQuotes = false;
            boolean done = false;
            while (!done) {
                if (inDoubleQuotes) {
                    if (pos == length) {
                        return null;
                    }
                    byte c = line[pos];
                    if (c == '\\' && pos + 3 < length && line[pos + 1] == 'x'
                        && isHexDigit(line[pos + 2]) && isHexDigit(line[pos + 3])) {
                        token[tokenLength++] = (byte) (hexValue(line[pos + 2]) * 16 + hexValue(line[pos + 3]));
                        pos += 4;
                    } else if (c == '\\' && pos + 1 < length) {
                        token[tokenLength++] = unescape(line[pos + 1]);
                        pos += 2;
                    } else if (c == '"') {
                        if (pos + 1 < length && !isCSpace(line[pos + 1])) {
                            return null;
                        }
                        pos++;
                        done = true;
                    } else {
                        token[tokenLength++] = c;
                        pos++;
                    }
                } else if (inSingleQuotes) {
                    if (pos == length) {
                        return null;
                    }
                    byte c = line[pos];
                    if (c == '\\' && pos + 1 < length && line[pos + 1] == '\'') {
                        token[tokenLength++] = '\'';
                        pos += 2;
                    } else if (c == '\'') {
                        if (pos + 1 < length && !isCSpace(line[pos + 1])) {
                            return null;
                        }
                        pos++;
                        done = true;
                    } else {
                        token[tokenLength++] = c;
                        pos++;
                    }
                } else if (pos == length) {
                    done = true;
                } else {
                    byte c = line[pos++];
                    switch (c) {
                        case ' ', '\n', '\r', '\t' -> done = true;
                        case '"' -> inDoubleQuotes = true;
                        case '\'' -> inSingleQuotes = true;
                        default -> token[tokenLength++] = c;
                    }
                }
            }
            if (argc == args.length) {
                args = Arrays.copyOf(args, Math.max(4, argc * 2));
            }
            args[argc++] = Arrays.copyOf(token, tokenLength);
        }
    }

    private static byte unescape(byte c) {
        return switch (c) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 7;
            default -> c;
        };
    }

    /** C's {@code isspace} in the "C" locale. */
    private static boolean isCSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static boolean isHexDigit(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hexValue(byte c) {
        if (c <= '9') {
            return c - '0';
        }
        return (c | 0x20) - 'a' + 10;
    }
}
