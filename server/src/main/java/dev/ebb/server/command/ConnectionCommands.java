package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_AUTH;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclLog;
import dev.ebb.server.acl.User;
import dev.ebb.server.monitor.SlowLog;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Connection commands: PING, ECHO, QUIT, SELECT, HELLO, AUTH, RESET.
 *
 * <p>Authentication follows Redis 7's ACL: a connection starts as the {@code default} user
 * (authenticated when that user needs no password) and AUTH or HELLO AUTH switch it to any enabled
 * user whose password matches (SHA-256 hashes compared in constant time; see {@link dev.ebb.server.acl.Acl}).
 * {@code requirepass} is the default user's password. The single-argument AUTH is refused as a
 * likely configuration mistake while the default user has no password. A failed attempt is
 * recorded in ACL LOG.
 */
public final class ConnectionCommands {
    static final String DEFAULT_USER = Acl.DEFAULT_USER;

    private ConnectionCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long handshake = NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY;
        return List.of(
                spec("ping", -1, FAST, 0, 0, 0, ConnectionCommands::ping)
                        .doc(CommandGroup.CONNECTION, "1.0.0", "Returns the server's liveliness response.", "[message]")
                        .complexity("O(1)"),
                spec("echo", 2, LOADING | STALE | FAST, 0, 0, 0, ConnectionCommands::echo)
                        .doc(CommandGroup.CONNECTION, "1.0.0", "Returns the given string.", "message")
                        .complexity("O(1)"),
                spec("quit", -1, handshake, 0, 0, 0, ConnectionCommands::quit)
                        .doc(CommandGroup.CONNECTION, "1.0.0", "Closes the connection.", "")
                        .complexity("O(1)"),
                spec("select", 2, LOADING | STALE | FAST, 0, 0, 0, ConnectionCommands::select)
                        .doc(CommandGroup.CONNECTION, "1.0.0", "Changes the selected database.", "index")
                        .complexity("O(1)"),
                spec("hello", -1, handshake, 0, 0, 0, ConnectionCommands::hello)
                        .doc(CommandGroup.CONNECTION, "6.0.0", "Handshakes with the Redis server.",
                                "[protover [AUTH username password] [SETNAME clientname]]")
                        .complexity("O(1)"),
                spec("auth", -2, handshake, 0, 0, 0, ConnectionCommands::auth)
                        .doc(CommandGroup.CONNECTION, "1.0.0", "Authenticates the connection.", "[username] password")
                        .complexity("O(N) where N is the number of passwords defined for the user"),
                spec("reset", 1, handshake, 0, 0, 0, ConnectionCommands::reset)
                        .doc(CommandGroup.CONNECTION, "6.2.0", "Resets the connection.", "")
                        .complexity("O(1)"));
    }

    static void ping(Client c, byte[][] argv) {
        if (argv.length > 2) {
            c.reply().error(Errors.wrongArity("ping"));
        } else if (c.protocol() == 2 && c.subscriptions().active()) {
            // RESP2 subscribed mode: a two-element array, as a message would be.
            c.reply().arrayHeader(2).bulk("pong").bulk(argv.length == 2 ? argv[1] : EMPTY);
        } else if (argv.length == 2) {
            c.reply().bulk(argv[1]);
        } else {
            c.reply().pong();
        }
    }

    private static final byte[] EMPTY = new byte[0];

    static void echo(Client c, byte[][] argv) {
        c.reply().bulk(argv[1]);
    }

    static void quit(Client c, byte[][] argv) {
        c.reply().ok();
        c.closeAfterReply();
    }

    static void select(Client c, byte[][] argv) {
        long index = Arguments.longOrReply(c, argv[1]);
        if (index == Arguments.INVALID) {
            return;
        }
        if (index != 0 && c.server().clusterEnabled()) {
            c.reply().error(Errors.SELECT_IN_CLUSTER);
            return;
        }
        if (index < 0 || index >= c.server().databases()) {
            c.reply().error(Errors.DB_INDEX_OUT_OF_RANGE);
            return;
        }
        c.select(c.server().db((int) index));
        c.reply().ok();
    }

    /**
     * HELLO [protover [AUTH username password] [SETNAME clientname]]: switches the protocol and
     * replies the server's handshake map. Options are all checked before anything changes; the name
     * is set only once the connection is authenticated, as in Redis 7.2.
     */
    static void hello(Client c, byte[][] argv) {
        int protocol = c.protocol();
        int next = 1;
        if (argv.length >= 2) {
            long version;
            try {
                version = Arguments.parseLong(argv[1]);
            } catch (NumberFormatException e) {
                c.reply().error(Errors.PROTOCOL_NOT_INTEGER);
                return;
            }
            if (version < 2 || version > 3) {
                c.reply().error(Errors.PROTOCOL_VERSION);
                return;
            }
            protocol = (int) version;
            next = 2;
        }
        byte[] user = null;
        byte[] password = null;
        byte[] name = null;
        for (int j = next; j < argv.length; j++) {
            int more = argv.length - 1 - j;
            if (Arguments.is(argv[j], "auth") && more >= 2) {
                user = argv[j + 1];
                password = argv[j + 2];
                j += 2;
            } else if (Arguments.is(argv[j], "setname") && more >= 1) {
                name = argv[j + 1];
                if (!ClientCommands.validName(name)) {
                    c.reply().error(Errors.CLIENT_NAME_CHARACTERS);
                    return;
                }
                j++;
            } else {
                c.reply().error(Errors.helloSyntax(argv[j]));
                return;
            }
        }
        redactHelloAuth(argv, next);
        if (user != null && !authenticate(c, argv[0], user, password)) {
            replyAuthFailed(c);
            return;
        }
        if (!c.authenticated()) {
            c.reply().error(Errors.HELLO_NOAUTH);
            return;
        }
        if (name != null) {
            c.name(name.length == 0 ? null : name);
        }
        c.protocol(protocol);
        RespWriter w = c.reply();
        w.mapHeader(7);
        w.bulk("server");
        w.bulk("redis");
        w.bulk("version");
        w.bulk(Server.REDIS_VERSION);
        w.bulk("proto");
        w.integer(protocol);
        w.bulk("id");
        w.integer(c.id());
        w.bulk("mode");
        w.bulk(c.server().clusterEnabled() ? "cluster" : "standalone");
        w.bulk("role");
        w.bulk("master");
        w.bulk("modules");
        w.emptyArray();
    }

    /** Redacts the user name and password of HELLO's AUTH option for the slow log, as Redis does. */
    private static void redactHelloAuth(byte[][] argv, int firstOption) {
        for (int j = firstOption; j + 2 < argv.length; j++) {
            if (Arguments.is(argv[j], "auth")) {
                SlowLog.redact(argv, j + 1);
                SlowLog.redact(argv, j + 2);
                j += 2;
            } else if (Arguments.is(argv[j], "setname")) {
                j++;
            }
        }
    }

    /** AUTH [username] password. */
    static void auth(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        byte[] user = argv.length == 3 ? argv[1] : DEFAULT_USER.getBytes(StandardCharsets.US_ASCII);
        byte[] password = argv[argv.length - 1];
        for (int i = 1; i < argv.length; i++) {
            SlowLog.redact(argv, i);
        }
        if (argv.length == 2 && c.server().acl().defaultUser().nopass()) {
            c.reply().error(Errors.AUTH_WITHOUT_PASSWORD);
            return;
        }
        if (authenticate(c, argv[0], user, password)) {
            c.reply().ok();
        } else {
            replyAuthFailed(c);
        }
    }

    /**
     * Answers a failed AUTH (or HELLO AUTH) with WRONGPASS, but only when no reply is waiting to be
     * written and none was written since the socket's latest read began, as Redis 7.2's
     * {@code addAuthErrReply} does (there a read's replies are all written after it; with
     * {@code io-threads} above 1 an unauthenticated connection's commands run one per batch, each
     * reply written before the next runs). So of wrong passwords pipelined in one read only the
     * first is answered, and a client that has not authenticated cannot make the
     * server buffer a 64-byte error per 25-byte guess. Every attempt is still checked (an
     * attempt that succeeds answers {@code +OK}), and the connection stays open: Redis 7.2.4 does
     * not close it either (measured: 20,000 guesses in one write are all checked in about 50 ms
     * and draw one WRONGPASS per read). Deliberately unlike Redis 7.2.4, an AUTH that EXEC runs is
     * always answered: there the EXEC array's header is waiting, and Redis leaves the reply out of
     * an array that has counted it (MULTI, AUTH wrong, PING, EXEC gets {@code *2} and one reply).
     */
    private static void replyAuthFailed(Client c) {
        if (c.inMulti() || (c.outputBytes() == 0 && !c.repliedSinceRead())) {
            c.reply().error(Errors.WRONGPASS);
        }
    }

    /**
     * Checks a user and password and, on success, makes the connection authenticated as that user.
     * A failed attempt leaves the connection's state as it was and is recorded in ACL LOG (reason
     * {@code auth}, object the command name as sent).
     */
    static boolean authenticate(Client c, byte[] command, byte[] user, byte[] password) {
        Server server = c.server();
        User u = server.acl().authenticate(Acl.text(user), password);
        if (u == null) {
            server.acl().log().add(Acl.DENIED_AUTH, c.inMulti() ? AclLog.Context.MULTI : AclLog.Context.TOPLEVEL,
                    Acl.text(command), Acl.text(user), ClientCommands.describe(c, server.nowMs()), server.nowMs(),
                    server.config().acllogMaxLen());
            return false;
        }
        c.user(u);
        c.authenticated(true);
        return true;
    }

    /**
     * RESET: the connection as it was when it connected: database 0, RESP2, no name, no
     * NO-EVICT/NO-TOUCH/READONLY/ASKING, no transaction and no WATCHed keys, and unauthenticated again when a
     * password is required. Subscriptions, MONITOR and CLIENT TRACKING end too.
     */
    static void reset(Client c, byte[][] argv) {
        c.discardTransaction();
        c.select(c.server().db(0));
        c.protocol(2);
        c.name(null);
        c.setFlag(Client.FLAG_NO_EVICT, false);
        c.setFlag(Client.FLAG_NO_TOUCH, false);
        c.setFlag(Client.FLAG_READONLY, false);
        c.setFlag(Client.FLAG_ASKING, false);
        User defaultUser = c.server().acl().defaultUser();
        c.user(defaultUser);
        c.authenticated(defaultUser.nopass() && defaultUser.enabled());
        c.server().pubsub().forget(c);
        c.server().monitors().remove(c);
        c.server().tracking().disable(c);
        c.reply().simple("RESET");
    }
}
