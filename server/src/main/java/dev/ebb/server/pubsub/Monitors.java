package dev.ebb.server.pubsub;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.command.Arguments;
import java.util.ArrayList;
import java.util.List;

/**
 * MONITOR: the clients that receive a line for every command the server runs, in Redis's format
 * {@code +1700000000.123456 [0 127.0.0.1:50000] "set" "k" "v"}. Fed after each command (commands
 * flagged admin or skip-monitor are not shown, as in Redis). The timestamp is the command's time
 * ({@link Server#nowMs()}), so its last three digits are zero: Ebb's loop clock has millisecond
 * resolution. Arguments are quoted and escaped as Redis's sdscatrepr does; AUTH's and HELLO AUTH's
 * credentials are shown as {@code "(redacted)"}.
 *
 * <p>Cost per command while anyone monitors: one line built once and copied to every monitor.
 * Command loop thread only.
 */
public final class Monitors {
    private final List<Client> clients = new ArrayList<>();

    public boolean isEmpty() {
        return clients.isEmpty();
    }

    /** Adds {@code c}; returns false if it already monitors (Redis then ignores MONITOR silently). */
    public boolean add(Client c) {
        if (c.hasFlag(Client.FLAG_MONITOR)) {
            return false;
        }
        c.setFlag(Client.FLAG_MONITOR, true);
        clients.add(c);
        return true;
    }

    public void remove(Client c) {
        if (c.hasFlag(Client.FLAG_MONITOR)) {
            c.setFlag(Client.FLAG_MONITOR, false);
            clients.remove(c);
        }
    }

    /** Sends the line for {@code argv}, run by {@code from}, to every monitor. */
    public void feed(Server server, Client from, byte[][] argv) {
        long nowMs = server.nowMs();
        StringBuilder line = new StringBuilder(64);
        line.append(nowMs / 1000).append('.');
        String micros = Long.toString(nowMs % 1000 * 1000);
        for (int i = micros.length(); i < 6; i++) {
            line.append('0');
        }
        line.append(micros).append(" [").append(from.db().id()).append(' ').append(from.addr()).append(']');
        int redactFrom = redactFrom(argv);
        for (int i = 0; i < argv.length; i++) {
            line.append(' ');
            if (i >= redactFrom && i < redactFrom + redactCount(argv)) {
                line.append("\"(redacted)\"");
            } else {
                quote(line, argv[i]);
            }
        }
        String text = line.toString();
        for (int i = 0; i < clients.size(); i++) {
            Client monitor = clients.get(i);
            if (!monitor.closing()) {
                monitor.reply().simple(text);
                server.wroteTo(monitor);
            }
        }
    }

    /** The first argument Redis hides from monitors: AUTH's credentials, HELLO's AUTH pair; else none. */
    private static int redactFrom(byte[][] argv) {
        if (Arguments.is(argv[0], "auth")) {
            return 1;
        }
        if (Arguments.is(argv[0], "hello")) {
            for (int i = 2; i < argv.length; i++) {
                if (Arguments.is(argv[i], "auth")) {
                    return i + 1;
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    private static int redactCount(byte[][] argv) {
        return Arguments.is(argv[0], "auth") ? argv.length : 2;
    }

    /** Redis's sdscatrepr: double quotes, backslash escapes, other non-printable bytes as \xHH. */
    static void quote(StringBuilder out, byte[] arg) {
        out.append('"');
        for (byte b : arg) {
            int ch = b & 0xff;
            switch (ch) {
                case '\\':
                case '"':
                    out.append('\\').append((char) ch);
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
                    if (ch >= 0x20 && ch < 0x7f) {
                        out.append((char) ch);
                    } else {
                        out.append("\\x").append(Character.forDigit(ch >> 4, 16)).append(Character.forDigit(ch & 15, 16));
                    }
            }
        }
        out.append('"');
    }
}
