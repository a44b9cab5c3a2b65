package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespDecoder;
import dev.ebb.server.Client;
import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT: ID, SETNAME, GETNAME, SETINFO, LIST, INFO, KILL, REPLY, UNBLOCK, NO-EVICT (honoured by
 * {@code maxmemory-clients}), NO-TOUCH,
 * HELP; TRACKING, CACHING, TRACKINGINFO, GETREDIR, PAUSE and UNPAUSE are
 * {@link ClientTrackingCommands}'.
 *
 * <p>CLIENT LIST / INFO lines carry Redis 7.2's fields in Redis's order. Fields Ebb cannot know
 * truthfully are reported as zero, and each is named here: {@code rbs} and {@code rbp} describe
 * Redis's own read buffer (Ebb reads into Netty's pooled buffers). {@code qbuf} is what the
 * client's decoder holds of an unfinished command as of its last read, {@code qbuf-free} the room
 * left in that buffer (0 once the decoder has released it, as Redis's idle clients show after
 * its cron frees their buffers). For the client running CLIENT LIST/INFO, Redis's query buffer
 * still holds the command being run, so {@code qbuf} adds that command's size as the multibulk
 * request it was (an inline request is counted as its multibulk form; commands pipelined behind
 * it are already decoded in Ebb and not counted). {@code fd} is the socket's
 * descriptor with the epoll transport, -1 with NIO. {@code argv-mem} is the size of the command being run for the client running it, 0 for the
 * others; {@code obl} is the bytes in the reply block being filled, {@code oll} the number of
 * other reply blocks not yet written (held by the loop or by the channel), {@code omem} every byte
 * of replies the socket has not taken yet (large values sent by reference included), and
 * {@code tot-mem} is {@code omem} plus {@code argv-mem}. Subscribed clients are of type pubsub,
 * others normal.
 */
public final class ClientCommands {
    private static final String KILL_FILTER = "[ID client-id] | [TYPE <NORMAL | MASTER | SLAVE | REPLICA | PUBSUB>]"
            + " | [USER username] | [ADDR ip:port] | [LADDR ip:port] | [SKIPME <YES | NO>] | [MAXAGE maxage]";
    private static final String KILL_SYNTAX = "<ip:port | <" + KILL_FILTER + "> [" + KILL_FILTER + " ...]>";

    private ClientCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long flags = NOSCRIPT | LOADING | STALE;
        long admin = ADMIN | NOSCRIPT | LOADING | STALE;
        CommandSpec.Builder client = CommandSpec.container("client", -2, 0)
                        .doc(CommandGroup.CONNECTION, "2.4.0", "A container for client connection commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("id", 2, flags, 0, 0, 0, ClientCommands::id)
                                .doc(CommandGroup.CONNECTION, "5.0.0",
                                        "Returns the unique client ID of the connection.", "")
                                .complexity("O(1)"))
                        .sub(spec("setname", 3, flags, 0, 0, 0, ClientCommands::setname)
                                .doc(CommandGroup.CONNECTION, "2.6.9", "Sets the connection name.", "connection-name")
                                .complexity("O(1)"))
                        .sub(spec("getname", 2, flags, 0, 0, 0, ClientCommands::getname)
                                .doc(CommandGroup.CONNECTION, "2.6.9", "Returns the name of the connection.", "")
                                .complexity("O(1)"))
                        .sub(spec("setinfo", 4, flags, 0, 0, 0, ClientCommands::setinfo)
                                .doc(CommandGroup.CONNECTION, "7.2.0",
                                        "Sets information specific to the client or connection.",
                                        "<LIB-NAME libname | LIB-VER libver>")
                                .complexity("O(1)"))
                        .sub(spec("list", -2, admin, 0, 0, 0, ClientCommands::list)
                                .doc(CommandGroup.CONNECTION, "2.4.0", "Lists open connections.",
                                        "[TYPE <NORMAL | MASTER | REPLICA | PUBSUB>] [ID client-id [client-id ...]]")
                                .complexity("O(N) where N is the number of client connections"))
                        .sub(spec("info", 2, flags, 0, 0, 0, ClientCommands::info)
                                .doc(CommandGroup.CONNECTION, "6.2.0", "Returns information about the connection.", "")
                                .complexity("O(1)"))
                        .sub(spec("kill", -3, admin, 0, 0, 0, ClientCommands::kill)
                                .doc(CommandGroup.CONNECTION, "2.4.0", "Terminates open connections.", KILL_SYNTAX)
                                .complexity("O(N) where N is the number of client connections"))
                        .sub(spec("reply", 3, flags, 0, 0, 0, ClientCommands::reply)
                                .doc(CommandGroup.CONNECTION, "3.2.0",
                                        "Instructs the server whether to reply to commands.", "<ON | OFF | SKIP>")
                                .complexity("O(1)"))
                        .sub(spec("unblock", -3, admin, 0, 0, 0, ClientCommands::unblock)
                                .doc(CommandGroup.CONNECTION, "5.0.0",
                                        "Unblocks a client blocked by a blocking command from a different connection.",
                                        "client-id [TIMEOUT | ERROR]")
                                .complexity("O(log N) where N is the number of client connections"))
                        .sub(spec("no-evict", 3, admin, 0, 0, 0, ClientCommands::noEvict)
                                .doc(CommandGroup.CONNECTION, "7.0.0",
                                        "Sets the client eviction mode of the connection.", "<ON | OFF>")
                                .complexity("O(1)"))
                        .sub(spec("no-touch", 3, flags, 0, 0, 0, ClientCommands::noTouch)
                                .doc(CommandGroup.CONNECTION, "7.2.0",
                                        "Controls whether commands sent by the client affect the LRU/LFU of accessed"
                                                + " keys.",
                                        "<ON | OFF>")
                                .complexity("O(1)"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ClientCommands::help)
                                .doc(CommandGroup.CONNECTION, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)"));
        for (CommandSpec.Builder sub : ClientTrackingCommands.specs()) {
            client.sub(sub);
        }
        return List.of(client);
    }

    static void id(Client c, byte[][] argv) {
        c.reply().integer(c.id());
    }

    static void setname(Client c, byte[][] argv) {
        byte[] name = argv[2];
        if (!validName(name)) {
            c.reply().error(Errors.CLIENT_NAME_CHARACTERS);
            return;
        }
        c.name(name.length == 0 ? null : name);
        c.reply().ok();
    }

    static void getname(Client c, byte[][] argv) {
        byte[] name = c.name();
        if (name == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(name);
        }
    }

    /** CLIENT SETINFO LIB-NAME|LIB-VER value; an empty value clears the attribute. */
    static void setinfo(Client c, byte[][] argv) {
        byte[] attribute = argv[2];
        boolean libName = Arguments.is(attribute, "lib-name");
        if (!libName && !Arguments.is(attribute, "lib-ver")) {
            c.reply().error(Errors.unrecognizedOption(attribute));
            return;
        }
        byte[] value = argv[3];
        if (!validName(value)) {
            c.reply().error(Errors.clientAttributeCharacters(attribute));
            return;
        }
        String text = Arguments.text(value);
        if (libName) {
            c.libName(text);
        } else {
            c.libVersion(text);
        }
        c.reply().ok();
    }

    /** CLIENT LIST [TYPE type] [ID id …]: one line per client, as verbatim text in RESP3. */
    static void list(Client c, byte[][] argv) {
        StringBuilder out = new StringBuilder();
        long now = c.server().nowMs();
        if (argv.length == 4 && Arguments.is(argv[2], "type")) {
            ClientType type = ClientType.byName(argv[3]);
            if (type == null) {
                c.reply().error(Errors.unknownClientType(argv[3]));
                return;
            }
            for (Client client : c.server().clients()) {
                if (ClientType.of(client) == type) {
                    appendInfo(out, client, c, argv, now);
                }
            }
        } else if (argv.length > 3 && Arguments.is(argv[2], "id")) {
            List<Client> picked = new ArrayList<>(argv.length - 3);
            for (int i = 3; i < argv.length; i++) {
                long id = Arguments.longOrReply(c, argv[i], Errors.INVALID_CLIENT_ID);
                if (id == Arguments.INVALID) {
                    return;
                }
                Client client = c.server().client(id);
                if (client != null) {
                    picked.add(client);
                }
            }
            for (Client client : picked) {
                appendInfo(out, client, c, argv, now);
            }
        } else if (argv.length != 2) {
            c.reply().error(Errors.SYNTAX);
            return;
        } else {
            for (Client client : c.server().clients()) {
                appendInfo(out, client, c, argv, now);
            }
        }
        c.reply().verbatim(out.toString());
    }

    static void info(Client c, byte[][] argv) {
        StringBuilder out = new StringBuilder(320);
        appendInfo(out, c, c, argv, c.server().nowMs());
        c.reply().verbatim(out.toString());
    }

    /**
     * CLIENT KILL ip:port (the old form: +OK or an error, may kill the caller) or CLIENT KILL
     * filter value … (the new form: the number killed; the caller is spared unless SKIPME no). A
     * client killing itself is closed once its reply is written; the others are closed at once,
     * their pending replies dropped.
     */
    static void kill(Client c, byte[][] argv) {
        String addr = null;
        String laddr = null;
        long id = 0;
        ClientType type = null;
        long maxAgeSeconds = 0;
        boolean skipMe = true;
        dev.ebb.server.acl.User user = null;
        if (argv.length == 3) {
            addr = Arguments.text(argv[2]);
            skipMe = false;
        } else {
            for (int i = 2; i < argv.length; i += 2) {
                byte[] option = argv[i];
                if (i + 1 >= argv.length) {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
                byte[] value = argv[i + 1];
                if (Arguments.is(option, "id")) {
                    id = Arguments.longOrReply(c, value, Errors.CLIENT_ID_NOT_POSITIVE);
                    if (id == Arguments.INVALID) {
                        return;
                    }
                    if (id < 1) {
                        c.reply().error(Errors.CLIENT_ID_NOT_POSITIVE);
                        return;
                    }
                } else if (Arguments.is(option, "type")) {
                    type = ClientType.byName(value);
                    if (type == null) {
                        c.reply().error(Errors.unknownClientType(value));
                        return;
                    }
                } else if (Arguments.is(option, "addr")) {
                    addr = Arguments.text(value);
                } else if (Arguments.is(option, "laddr")) {
                    laddr = Arguments.text(value);
                } else if (Arguments.is(option, "user")) {
                    user = c.server().acl().user(dev.ebb.server.acl.Acl.text(value));
                    if (user == null) {
                        c.reply().error(Errors.noSuchUser(value));
                        return;
                    }
                } else if (Arguments.is(option, "skipme")) {
                    if (Arguments.is(value, "yes")) {
                        skipMe = true;
                    } else if (Arguments.is(value, "no")) {
                        skipMe = false;
                    } else {
                        c.reply().error(Errors.SYNTAX);
                        return;
                    }
                } else if (Arguments.is(option, "maxage")) {
                    maxAgeSeconds = Arguments.longOrReply(c, value);
                    if (maxAgeSeconds == Arguments.INVALID) {
                        return;
                    }
                } else {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
            }
        }
        long now = c.server().nowMs();
        List<Client> victims = new ArrayList<>();
        boolean killSelf = false;
        for (Client client : c.server().clients()) {
            if ((addr != null && !client.addr().equals(addr))
                    || (laddr != null && !client.laddr().equals(laddr))
                    || (type != null && type != ClientType.of(client))
                    || (id != 0 && client.id() != id)
                    || (user != null && client.user() != user)
                    || (maxAgeSeconds != 0 && (now - client.createdMs()) / 1000 < maxAgeSeconds)
                    || (client == c && skipMe)) {
                continue;
            }
            if (client == c) {
                killSelf = true;
            } else {
                victims.add(client);
            }
        }
        for (Client victim : victims) {
            victim.kill();
        }
        int killed = victims.size() + (killSelf ? 1 : 0);
        if (argv.length == 3) {
            if (killed == 0) {
                c.reply().error(Errors.NO_SUCH_CLIENT);
            } else {
                c.reply().ok();
            }
        } else {
            c.reply().integer(killed);
        }
        if (killSelf) {
            c.closeAfterReply();
        }
    }

    /**
     * CLIENT REPLY ON|OFF|SKIP. OFF and SKIP reply nothing (their own reply is the first dropped);
     * the command loop drops the replies while {@link Client#FLAG_REPLY_OFF} or
     * {@link Client#FLAG_REPLY_SKIP} is set, pub/sub pushes excepted. SKIP under OFF does nothing.
     */
    static void reply(Client c, byte[][] argv) {
        byte[] mode = argv[2];
        if (Arguments.is(mode, "on")) {
            c.setFlag(Client.FLAG_REPLY_OFF | Client.FLAG_REPLY_SKIP, false);
            c.reply().ok();
        } else if (Arguments.is(mode, "off")) {
            c.setFlag(Client.FLAG_REPLY_OFF, true);
        } else if (Arguments.is(mode, "skip")) {
            if (!c.hasFlag(Client.FLAG_REPLY_OFF)) {
                c.setFlag(Client.FLAG_REPLY_SKIP_NEXT, true);
            }
        } else {
            c.reply().error(Errors.SYNTAX);
        }
    }

    /**
     * CLIENT UNBLOCK id [TIMEOUT|ERROR]: 1 if client {@code id} was blocked on keys (BLPOP and
     * friends) and is now answered, with its timeout reply or the UNBLOCKED error; else 0. As in
     * Redis the reason is checked before the id, and a fifth argument is an unknown subcommand.
     */
    static void unblock(Client c, byte[][] argv) {
        if (argv.length > 4) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "CLIENT"));
            return;
        }
        String error = null;
        if (argv.length == 4) {
            if (Arguments.is(argv[3], "error")) {
                error = Errors.UNBLOCKED;
            } else if (!Arguments.is(argv[3], "timeout")) {
                c.reply().error(Errors.CLIENT_UNBLOCK_REASON);
                return;
            }
        }
        long id = Arguments.longOrReply(c, argv[2]);
        if (id == Arguments.INVALID) {
            return;
        }
        Client target = c.server().client(id);
        c.reply().integer(target != null && c.server().blockingKeys().unblock(target, error) ? 1 : 0);
    }

    static void noEvict(Client c, byte[][] argv) {
        setFlagOrReply(c, argv[2], Client.FLAG_NO_EVICT);
    }

    /**
     * CLIENT NO-TOUCH ON|OFF. The flag is kept and shown ({@code T}); commands that touch keys'
     * access time are expected to honour it through {@link Client#hasFlag}.
     */
    static void noTouch(Client c, byte[][] argv) {
        setFlagOrReply(c, argv[2], Client.FLAG_NO_TOUCH);
    }

    private static void setFlagOrReply(Client c, byte[] onOff, int flag) {
        if (Arguments.is(onOff, "on")) {
            c.setFlag(flag, true);
        } else if (Arguments.is(onOff, "off")) {
            c.setFlag(flag, false);
        } else {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        c.reply().ok();
    }

    /** Redis 7.2's CLIENT HELP lines. */
    static void help(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "CLIENT",
                "CACHING (YES|NO)",
                "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
                "GETREDIR",
                "    Return the client ID we are redirecting to when tracking is enabled.",
                "GETNAME",
                "    Return the name of the current connection.",
                "ID",
                "    Return the ID of the current connection.",
                "INFO",
                "    Return information about the current client connection.",
                "KILL <ip:port>",
                "    Kill connection made from <ip:port>.",
                "KILL <option> <value> [<option> <value> [...]]",
                "    Kill connections. Options are:",
                "    * ADDR (<ip:port>|<unixsocket>:0)",
                "      Kill connections made from the specified address",
                "    * LADDR (<ip:port>|<unixsocket>:0)",
                "      Kill connections made to specified local address",
                "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                "      Kill connections by type.",
                "    * USER <username>",
                "      Kill connections authenticated by <username>.",
                "    * SKIPME (YES|NO)",
                "      Skip killing current connection (default: yes).",
                "    * ID <client-id>",
                "      Kill connections by client id.",
                "    * MAXAGE <maxage>",
                "      Kill connections older than the specified age.",
                "LIST [options ...]",
                "    Return information about client connections. Options:",
                "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                "      Return clients of specified type.",
                "UNPAUSE",
                "    Stop the current client pause, resuming traffic.",
                "PAUSE <timeout> [WRITE|ALL]",
                "    Suspend all, or just write, clients for <timeout> milliseconds.",
                "REPLY (ON|OFF|SKIP)",
                "    Control the replies sent to the current connection.",
                "SETNAME <name>",
                "    Assign the name <name> to the current connection.",
                "SETINFO <option> <value>",
                "    Set client meta attr. Options are:",
                "    * LIB-NAME: the client lib name.",
                "    * LIB-VER: the client lib version.",
                "UNBLOCK <clientid> [TIMEOUT|ERROR]",
                "    Unblock the specified blocked client.",
                "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
                "         [OPTIN] [OPTOUT] [NOLOOP]",
                "    Control server assisted client side caching.",
                "TRACKINGINFO",
                "    Report tracking status for the current connection.",
                "NO-EVICT (ON|OFF)",
                "    Protect current client connection from eviction.",
                "NO-TOUCH (ON|OFF)",
                "    Will not touch LRU/LFU stats when this mode is on.");
    }

    /**
     * True when a client name (or SETINFO value) holds only printable ASCII other than space
     * ({@code '!'} to {@code '~'}), as Redis requires. Empty is valid: it clears the name.
     */
    static boolean validName(byte[] name) {
        for (byte b : name) {
            if (b < '!' || b > '~') {
                return false;
            }
        }
        return true;
    }

    /**
     * Appends {@code client}'s CLIENT LIST line and its newline. {@code caller} and {@code argv}
     * are the client running the command and its arguments (for {@code argv-mem}).
     */
    static void appendInfo(StringBuilder out, Client client, Client caller, byte[][] argv, long nowMs) {
        long argvMem = 0;
        long running = 0;
        if (client == caller) {
            running = ("*" + argv.length + "\r\n").length();
            for (byte[] arg : argv) {
                argvMem += arg.length;
                running += 1 + Long.toString(arg.length).length() + 2 + arg.length + 2;
            }
        }
        long omem = client.outputBytes();
        RespDecoder decoder = client.decoder();
        byte[] name = client.name();
        out.append("id=").append(client.id())
                .append(" addr=").append(client.addr())
                .append(" laddr=").append(client.laddr())
                .append(" fd=").append(client.fd())
                .append(" name=").append(name == null ? "" : Arguments.text(name))
                .append(" age=").append(Math.max(0, (nowMs - client.createdMs()) / 1000))
                .append(" idle=").append(Math.max(0, (nowMs - client.lastInteractionMs()) / 1000))
                .append(" flags=").append(flags(client))
                .append(" db=").append(client.db().id())
                .append(" sub=").append(client.subscriptions().channelCount())
                .append(" psub=").append(client.subscriptions().patternCount())
                .append(" ssub=").append(client.subscriptions().shardChannelCount())
                .append(" multi=").append(client.inMulti() ? client.transaction().size() : -1)
                .append(" qbuf=").append(running + (decoder == null ? 0 : decoder.queryBufferBytes()))
                .append(" qbuf-free=").append(decoder == null ? 0 : decoder.queryBufferFree())
                .append(" argv-mem=").append(argvMem)
                .append(" multi-mem=0 rbs=0 rbp=0")
                .append(" obl=").append(client.reply().currentBlockBytes())
                .append(" oll=").append(client.outputBlocks())
                .append(" omem=").append(omem)
                .append(" tot-mem=").append(omem + argvMem)
                .append(" events=").append(omem > 0 ? "rw" : "r")
                .append(" cmd=").append(client.lastCommand() == null ? "NULL" : client.lastCommand().fullName())
                .append(" user=").append(client.user().name())
                .append(" redir=").append(ClientTrackingCommands.redirect(client))
                .append(" resp=").append(client.protocol())
                .append(" lib-name=").append(client.libName())
                .append(" lib-ver=").append(client.libVersion())
                .append('\n');
    }

    /** One CLIENT LIST line without its newline, for log messages (output-buffer-limit closings). */
    public static String describe(Client client, long nowMs) {
        StringBuilder out = new StringBuilder(256);
        appendInfo(out, client, null, null, nowMs);
        out.setLength(out.length() - 1);
        return out.toString();
    }

    /** CLIENT LIST's flag letters, Redis's order; {@code N} for none. */
    private static String flags(Client client) {
        StringBuilder sb = new StringBuilder(4);
        if (client.replicaLink() != null && client.replicaLink().isReplica()) {
            sb.append('S');
        }
        if (client.hasFlag(Client.FLAG_MASTER)) {
            sb.append('M');
        }
        if (client.hasFlag(Client.FLAG_MONITOR)) {
            sb.append('O');
        }
        if (client.subscriptions().active()) {
            sb.append('P');
        }
        if (client.inMulti()) {
            sb.append('x');
        }
        if (client.hasFlag(Client.FLAG_TRACKING)) {
            sb.append('t');
        }
        if (client.hasFlag(Client.FLAG_TRACKING_BROKEN_REDIR)) {
            sb.append('R');
        }
        if (client.hasFlag(Client.FLAG_TRACKING_BCAST)) {
            sb.append('B');
        }
        if (client.watchTouched()) {
            sb.append('d');
        }
        if (client.hasFlag(Client.FLAG_CLOSE_AFTER_REPLY)) {
            sb.append('c');
        }
        if (client.hasFlag(Client.FLAG_READONLY)) {
            sb.append('r');
        }
        if (client.hasFlag(Client.FLAG_NO_EVICT)) {
            sb.append('e');
        }
        if (client.hasFlag(Client.FLAG_NO_TOUCH)) {
            sb.append('T');
        }
        return sb.length() == 0 ? "N" : sb.toString();
    }

    /** The client types CLIENT LIST / KILL TYPE accept. */
    enum ClientType {
        NORMAL, MASTER, REPLICA, PUBSUB;

        /** A replica link is REPLICA, a subscribed client PUBSUB, any other (MONITOR included) NORMAL, as Redis classifies them. */
        static ClientType of(Client client) {
            if (client.replicaLink() != null && client.replicaLink().isReplica()) {
                return REPLICA;
            }
            if (client.hasFlag(Client.FLAG_MASTER)) {
                return MASTER;
            }
            return client.subscriptions().active() ? PUBSUB : NORMAL;
        }

        /** The type named by {@code arg} ({@code slave} is {@code replica}), or null. */
        static ClientType byName(byte[] arg) {
            if (Arguments.is(arg, "normal")) {
                return NORMAL;
            } else if (Arguments.is(arg, "master")) {
                return MASTER;
            } else if (Arguments.is(arg, "replica") || Arguments.is(arg, "slave")) {
                return REPLICA;
            } else if (Arguments.is(arg, "pubsub")) {
                return PUBSUB;
            }
            return null;
        }
    }
}
