package dev.ebb.server.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The lexical rules of redis.conf lines: splitting a line into arguments (Redis's {@code sdssplitargs}) and quoting a
 * value so that splitting gives it back (Redis's {@code sdscatrepr}).
 *
 * <p>Strings here are byte strings: one char per byte (ISO-8859-1), so any byte survives a round trip.
 * Stateless and thread-safe.
 */
final class ConfigSyntax {
    private ConfigSyntax() {
    }

    /**
     * Splits {@code line} into arguments the way redis.conf is read.
     * <ul>
     *   <li>Arguments are separated by spaces, tabs, CR or LF; leading blanks (also vertical tab and form feed) are skipped.</li>
     *   <li>{@code "double quotes"} understand {@code \n \r \t \b \a \\ \"} and {@code \xHH}; any other escaped
     *       character stands for itself.</li>
     *   <li>{@code 'single quotes'} understand only {@code \'}.</li>
     *   <li>A quote may start in the middle of an argument ({@code foo"bar baz"} is {@code foobar baz}), but a closing
     *       quote must be followed by a blank or the end of the line.</li>
     * </ul>
     *
     * @return the arguments, or {@code null} when quotes are unbalanced or a closing quote is followed by a non-blank,
     *     as Redis reports "Unbalanced quotes in configuration line"
     */
    static List<String> splitArgs(String line) {
        List<String> args = new ArrayList<>();
        final int len = line.length();
        int i = 0;
        while (true) {
            while (i < len && isSpace(line.charAt(i))) {
                i++;
            }
            if (i >= len) {
                return args;
            }
            StringBuilder current = new StringBuilder();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                char c = i < len ? line.charAt(i) : '\0';
                boolean atEnd = i >= len;
                if (inDouble) {
                    if (c == '\\' && i + 3 < len && line.charAt(i + 1) == 'x'
                            && isHex(line.charAt(i + 2)) && isHex(line.charAt(i + 3))) {
                        current.append((char) (hexValue(line.charAt(i + 2)) * 16 + hexValue(line.charAt(i + 3))));
                        i += 3;
                    } else if (c == '\\' && i + 1 < len) {
                        i++;
                        current.append(unescape(line.charAt(i)));
                    } else if (c == '"' && !atEnd) {
                        if (i + 1 < len && !isSpace(line.charAt(i + 1))) {
                            return null;
                        }
                        done = true;
                    } else if (atEnd) {
                        return null;
                    } else {
                        current.append(c);
                    }
                } else if (inSingle) {
                    if (c == '\\' && i + 1 < len && line.charAt(i + 1) == '\'') {
                        i++;
                        current.append('\'');
                    } else if (c == '\'' && !atEnd) {
                        if (i + 1 < len && !isSpace(line.charAt(i + 1))) {
                            return null;
                        }
                        done = true;
                    } else if (atEnd) {
                        return null;
                    } else {
                        current.append(c);
                    }
                } else if (atEnd || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\0') {
                    done = true;
                } else if (c == '"') {
                    inDouble = true;
                } else if (c == '\'') {
                    inSingle = true;
                } else {
                    current.append(c);
                }
                if (!atEnd) {
                    i++;
                }
            }
            args.add(current.toString());
        }
    }

    /**
     * Quotes {@code value} in double quotes, escaping {@code \ "} and control bytes, and writing every byte outside
     * printable ASCII as {@code \xHH}. {@link #splitArgs} reads the result back as exactly one argument equal to
     * {@code value}.
     */
    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\':
                    out.append("\\\\");
                    break;
                case '"':
                    out.append("\\\"");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case 7:
                    out.append("\\a");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                default:
                    if (c >= 0x20 && c <= 0x7e) {
                        out.append(c);
                    } else {
                        out.append(String.format("\\x%02x", c & 0xFF));
                    }
            }
        }
        return out.append('"').toString();
    }

    /** The blank set of C's {@code isspace} in the C locale. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hexValue(char c) {
        return Character.digit(c, 16);
    }

    private static char unescape(char c) {
        switch (c) {
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'b':
                return '\b';
            case 'a':
                return 7;
            default:
                return c;
        }
    }
}
