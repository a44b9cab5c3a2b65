package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password]
 * [AUTH2 username password] [KEYS key [key ...]]: moves keys to another Ebb or Redis server with
 * RESTORE (RESTORE-ASKING in cluster mode), as Redis's migrateCommand.
 *
 * <p>One pipelined request: AUTH when asked, SELECT, then one RESTORE key ttl payload [REPLACE] per
 * key still present (the TTL relative, at least 1 ms); then one reply line per command. Keys the
 * target accepted are deleted here unless COPY (a "del" event each). Errors: "+NOKEY" when no key is
 * present, "IOERR error or timeout connecting to the client" / "... reading to target instance" /
 * "... writing to target instance" for socket failures, "Target instance replied with error: …"
 * with the first error the target sent.
 *
 * <p><b>Blocking, as in Redis.</b> The socket work is synchronous on the command loop, bounded by
 * the timeout (milliseconds; 0 or less means 1000) for the connection and for each reply, exactly
 * as Redis blocks its event loop for a MIGRATE. Connections are kept between calls as Redis keeps
 * them ({@link MigrateSockets}): SELECT is sent only when the connection last selected another
 * database, and a cached connection that fails before any key was restored (the target closed it)
 * is dropped and the call retried once on a new one, unless the failure was a timeout.
 */
final class MigrateCommand {
    private static final int MIN_ARITY = 6;
    private static final long DEFAULT_TIMEOUT_MS = 1000;

    private MigrateCommand() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(spec("migrate", -6, WRITE | MOVABLE_KEYS, 3, 3, 1, MigrateCommand::migrate)
                .keys(MigrateCommand::keys)
                .doc(CommandGroup.GENERIC, "2.6.0", "Atomically transfers a key from one Redis instance to another.",
                        "host port <key | \"\"> destination-db timeout [COPY] [REPLACE] [AUTH password |"
                                + " AUTH2 username password] [KEYS key [key ...]]")
                .complexity("This command actually executes a DUMP+DEL in the source instance, and a RESTORE in"
                        + " the target instance. See the pages of these commands for time complexity. Also an O(N)"
                        + " data transfer between the two instances is performed."));
    }

    /** Redis's migrateGetKeys: argv[3], or everything after KEYS when argv[3] is empty. */
    static int[] keys(byte[][] argv) {
        for (int i = MIN_ARITY; i < argv.length; i++) {
            if (Arguments.is(argv[i], "keys")) {
                if (argv[3].length > 0) {
                    return new int[0];
                }
                int[] keys = new int[argv.length - i - 1];
                for (int k = 0; k < keys.length; k++) {
                    keys[k] = i + 1 + k;
                }
                return keys;
            }
            if (Arguments.is(argv[i], "auth")) {
                i += 1;
            } else if (Arguments.is(argv[i], "auth2")) {
                i += 2;
            }
        }
        return new int[] {3};
    }

    static void migrate(Client c, byte[][] argv) {
        boolean copy = false;
        boolean replace = false;
        byte[] username = null;
        byte[] password = null;
        int firstKey = 3;
        int numKeys = 1;
        for (int j = MIN_ARITY; j < argv.length; j++) {
            int more = argv.length - 1 - j;
            if (Arguments.is(argv[j], "copy")) {
                copy = true;
            } else if (Arguments.is(argv[j], "replace")) {
                replace = true;
            } else if (Arguments.is(argv[j], "auth") && more >= 1) {
                password = argv[++j];
            } else if (Arguments.is(argv[j], "auth2") && more >= 2) {
                username = argv[++j];
                password = argv[++j];
            } else if (Arguments.is(argv[j], "keys")) {
                if (argv[3].length != 0) {
                    c.reply().error(Errors.MIGRATE_KEYS_NEEDS_EMPTY_KEY);
                    return;
                }
                firstKey = j + 1;
                numKeys = argv.length - j - 1;
                break;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        long timeout = Arguments.longOrReply(c, argv[5]);
        if (timeout == Arguments.INVALID) {
            return;
        }
        long dbid = Arguments.longOrReply(c, argv[4]);
        if (dbid == Arguments.INVALID) {
            return;
        }
        if (timeout <= 0) {
            timeout = DEFAULT_TIMEOUT_MS;
        }
        Database db = c.db();
        long now = c.server().nowMs();
        List<byte[]> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int j = 0; j < numKeys; j++) {
            byte[] key = argv[firstKey + j];
            Object value = db.lookupRead(key, now);
            c.server().stats().lookup(value != null);
            if (value != null) {
                keys.add(key);
                values.add(value);
            }
        }
        if (keys.isEmpty()) {
            c.reply().simple("NOKEY");
            return;
        }
        byte[] auth = null;
        if (password != null) {
            Request authRequest = new Request();
            authRequest.command(username != null ? new byte[][] {ascii("AUTH"), username, password}
                    : new byte[][] {ascii("AUTH"), password});
            auth = authRequest.bytes();
        }
        Request request = new Request();
        byte[] restore = ascii(c.server().clusterEnabled() ? "RESTORE-ASKING" : "RESTORE");
        List<byte[]> sent = new ArrayList<>();
        for (int j = 0; j < keys.size(); j++) {
            byte[] key = keys.get(j);
            long expireAt = db.getExpire(key);
            long ttl = 0;
            if (expireAt != Database.NO_EXPIRE) {
                ttl = Math.max(1, expireAt - now);
            }
            byte[] payload = DumpCommands.payload(c, values.get(j));
            byte[] ttlText = ascii(Long.toString(ttl));
            if (replace) {
                request.command(restore, key, ttlText, payload, ascii("REPLACE"));
            } else {
                request.command(restore, key, ttlText, payload);
            }
            sent.add(key);
        }
        exchange(c, argv, auth, dbid, request, sent, copy, (int) Math.min(timeout, Integer.MAX_VALUE));
    }

    /**
     * Sends AUTH (when given), SELECT (when the connection has another database selected) and the
     * RESTOREs, reads the replies, deletes what the target took unless COPY, and replies.
     */
    private static void exchange(Client c, byte[][] argv, byte[] auth, long dbid, Request restores,
            List<byte[]> keys, boolean copy, int timeoutMs) {
        String host = new String(argv[1], StandardCharsets.UTF_8);
        int port;
        try {
            port = Integer.parseInt(new String(argv[2], StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            port = -1;
        }
        MigrateSockets sockets = c.server().migrateSockets();
        boolean mayRetry = true;
        while (true) {
            MigrateSockets.Target target;
            try {
                if (port < 0 || port > 65535) {
                    throw new IOException("bad port");
                }
                target = sockets.get(host, port, timeoutMs, c.server().nowMs());
            } catch (IOException | IllegalArgumentException e) {
                c.reply().error(Errors.MIGRATE_CONNECT);
                return;
            }
            boolean select = target.selectedDb != dbid;
            try {
                if (auth != null) {
                    target.out.write(auth);
                }
                if (select) {
                    Request selectRequest = new Request();
                    selectRequest.command(ascii("SELECT"), ascii(Long.toString(dbid)));
                    target.out.write(selectRequest.bytes());
                }
                target.out.write(restores.bytes());
                target.out.flush();
            } catch (IOException e) {
                sockets.discard(target);
                if (mayRetry && !(e instanceof SocketTimeoutException)) {
                    mayRetry = false;
                    continue;
                }
                c.reply().error(Errors.MIGRATE_WRITING);
                return;
            }
            String authReply;
            String selectReply;
            try {
                authReply = auth != null ? readLine(target.in) : "";
                selectReply = select ? readLine(target.in) : "+OK";
            } catch (IOException e) {
                sockets.discard(target);
                if (mayRetry && !(e instanceof SocketTimeoutException)) {
                    mayRetry = false;
                    continue;
                }
                c.reply().error(Errors.MIGRATE_READING);
                return;
            }
            target.selectedDb = selectReply.startsWith("-") ? -1 : dbid;
            boolean retry = finish(c, keys, copy, authReply, selectReply, sockets, target, mayRetry);
            if (!retry) {
                return;
            }
            mayRetry = false;
        }
    }

    /**
     * Reads a RESTORE reply per key, deletes what the target took unless COPY, and replies; or, when the
     * connection failed (not by timeout) before the first reply and {@code mayRetry}, replies nothing and
     * returns true for the caller to retry on a new connection, as Redis does.
     */
    private static boolean finish(Client c, List<byte[]> keys, boolean copy, String authReply, String selectReply,
            MigrateSockets sockets, MigrateSockets.Target target, boolean mayRetry) {
        String targetError = null;
        boolean socketError = false;
        Database db = c.db();
        boolean first = true;
        for (byte[] key : keys) {
            String reply;
            try {
                reply = readLine(target.in);
            } catch (IOException e) {
                if (first && mayRetry && !(e instanceof SocketTimeoutException)) {
                    sockets.discard(target);
                    return true;
                }
                socketError = true;
                break;
            }
            first = false;
            if (authReply.startsWith("-") || selectReply.startsWith("-") || reply.startsWith("-")) {
                if (targetError == null) {
                    String err = authReply.startsWith("-") ? authReply : selectReply.startsWith("-") ? selectReply : reply;
                    targetError = "ERR Target instance replied with error: " + err.substring(1);
                }
            } else if (!copy) {
                db.delete(key);
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
            }
        }
        if (socketError) {
            sockets.discard(target);
        }
        if (targetError != null) {
            c.reply().error(targetError);
        } else if (socketError) {
            c.reply().error(Errors.MIGRATE_READING);
        } else {
            c.reply().ok();
        }
        return false;
    }

    /** One reply line without its CRLF; EOFException when the target closed the connection. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("target closed the connection");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, len, StandardCharsets.UTF_8);
            }
            line.write(b);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The pipelined commands, RESP-encoded. */
    private static final class Request {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void command(byte[]... args) {
            write("*" + args.length + "\r\n");
            for (byte[] a : args) {
                write("$" + a.length + "\r\n");
                out.writeBytes(a);
                write("\r\n");
            }
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private void write(String s) {
            out.writeBytes(ascii(s));
        }
    }
}
