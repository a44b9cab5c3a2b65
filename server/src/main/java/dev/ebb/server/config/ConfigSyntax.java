package dev.ebb.server.config;

import dev.ebb.resp.ArgumentSplitter;
import java.nio.charset.StandardCharsets;
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
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        byte[][] split = ArgumentSplitter.split(bytes, bytes.length);
        if (split == null) {
            return null;
        }
        List<String> args = new ArrayList<>(split.length);
        for (byte[] arg : split) {
            args.add(new String(arg, StandardCharsets.ISO_8859_1));
        }
        return args;
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
}
