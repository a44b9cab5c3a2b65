package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclCategory;
import dev.ebb.server.acl.AclFile;
import dev.ebb.server.acl.CommandAcl;
import dev.ebb.server.acl.User;
import dev.ebb.server.monitor.SlowLog;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The ACL family: SETUSER, GETUSER, DELUSER, LIST, USERS, WHOAMI, CAT, GENPASS, LOG, DRYRUN, SAVE,
 * LOAD and HELP, over the server's {@link Acl}. Replies and error texts are Redis 7.2's. A user
 * deleted, disabled, or no longer allowed the channels its clients listen to has those clients
 * disconnected ({@link Server#aclUserChanged}).
 */
public final class AclCommands {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AclCommands.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private AclCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long admin = ADMIN | NOSCRIPT | LOADING | STALE;
        long plain = NOSCRIPT | LOADING | STALE;
        return List.of(container("acl", -2, 0)
                .doc(CommandGroup.SERVER, "6.0.0", "A container for Access List Control commands.", "")
                .complexity("Depends on subcommand.")
                .sub(spec("cat", -2, plain, 0, 0, 0, AclCommands::cat)
                        .doc(CommandGroup.SERVER, "6.0.0",
                                "Lists the ACL categories, or the commands inside a category.", "[category]")
                        .complexity("O(1) since the categories and commands are a fixed set."))
                .sub(spec("deluser", -3, admin, 0, 0, 0, AclCommands::deluser)
                        .doc(CommandGroup.SERVER, "6.0.0", "Deletes ACL users, and terminates their connections.",
                                "username [username ...]")
                        .complexity("O(1) amortized time considering the typical user."))
                .sub(spec("dryrun", -4, admin, 0, 0, 0, AclCommands::dryrun)
                        .doc(CommandGroup.SERVER, "7.0.0",
                                "Simulates the execution of a command by a user, without executing the command.",
                                "username command [arg [arg ...]]")
                        .complexity("O(1)."))
                .sub(spec("genpass", -2, plain, 0, 0, 0, AclCommands::genpass)
                        .doc(CommandGroup.SERVER, "6.0.0", "Generates a pseudorandom, secure password that can be"
                                + " used to identify ACL users.", "[bits]")
                        .complexity("O(1)"))
                .sub(spec("getuser", 3, admin, 0, 0, 0, AclCommands::getuser)
                        .doc(CommandGroup.SERVER, "6.0.0", "Lists the ACL rules of a user.", "username")
                        .complexity("O(N). Where N is the number of password, command and pattern rules that the"
                                + " user has."))
                .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, AclCommands::help)
                        .doc(CommandGroup.SERVER, "6.0.0", "Returns helpful text about the different subcommands.", "")
                        .complexity("O(1)"))
                .sub(spec("list", 2, admin, 0, 0, 0, AclCommands::list)
                        .doc(CommandGroup.SERVER, "6.0.0", "Dumps the effective rules in ACL file format.", "")
                        .complexity("O(N). Where N is the number of configured users."))
                .sub(spec("load", 2, admin, 0, 0, 0, AclCommands::load)
                        .doc(CommandGroup.SERVER, "6.0.0", "Reloads the rules from the configured ACL file.", "")
                        .complexity("O(N). Where N is the number of configured users."))
                .sub(spec("log", -2, admin, 0, 0, 0, AclCommands::log)
                        .doc(CommandGroup.SERVER, "6.0.0", "Lists recent security events generated due to ACL rules.",
                                "[count | RESET]")
                        .complexity("O(N) with N being the number of entries shown."))
                .sub(spec("save", 2, admin, 0, 0, 0, AclCommands::save)
                        .doc(CommandGroup.SERVER, "6.0.0", "Saves the effective ACL rules in the configured ACL file.",
                                "")
                        .complexity("O(N). Where N is the number of configured users."))
                .sub(spec("setuser", -3, admin, 0, 0, 0, AclCommands::setuser)
                        .doc(CommandGroup.SERVER, "6.0.0", "Creates and modifies an ACL user and its rules.",
                                "username [rule [rule ...]]")
                        .complexity("O(N). Where N is the number of rules provided."))
                .sub(spec("users", 2, admin, 0, 0, 0, AclCommands::users)
                        .doc(CommandGroup.SERVER, "6.0.0", "Lists all ACL users.", "")
                        .complexity("O(N). Where N is the number of configured users."))
                .sub(spec("whoami", 2, plain, 0, 0, 0, AclCommands::whoami)
                        .doc(CommandGroup.SERVER, "6.0.0",
                                "Returns the authenticated username of the current connection.", "")
                        .complexity("O(1)")));
    }

    /** ACL SETUSER name rule …: all rules or none; the arguments are kept out of the slow log. */
    static void setuser(Client c, byte[][] argv) {
        String name = Acl.text(argv[2]);
        List<String> rules = new ArrayList<>(argv.length - 3);
        for (int i = 3; i < argv.length; i++) {
            rules.add(Acl.text(argv[i]));
        }
        for (int i = 3; i < argv.length; i++) {
            SlowLog.redact(argv, i);
        }
        if (name.indexOf(' ') >= 0 || name.indexOf('\0') >= 0) {
            c.reply().error(Errors.ACL_USERNAME_CHARACTERS);
            return;
        }
        User u;
        try {
            u = c.server().acl().setUser(name, rules);
        } catch (Acl.RuleFailure e) {
            c.reply().error(e.reply());
            return;
        }
        c.server().aclUserChanged(u, false);
        c.reply().ok();
    }

    /** ACL GETUSER name: flags, passwords, the root selector's fields, then the other selectors. */
    static void getuser(Client c, byte[][] argv) {
        User u = c.server().acl().user(Acl.text(argv[2]));
        RespWriter w = c.reply();
        if (u == null) {
            w.nullBulk();
            return;
        }
        w.mapHeader(6);
        w.bulk("flags");
        List<String> flags = u.flags();
        w.setHeader(flags.size());
        for (String flag : flags) {
            w.bulk(flag);
        }
        w.bulk("passwords");
        w.arrayHeader(u.passwords().size());
        for (String hash : u.passwords()) {
            w.bulk(hash);
        }
        writeSelector(w, u, 0);
        w.bulk("selectors");
        w.arrayHeader(u.selectorCount() - 1);
        for (int i = 1; i < u.selectorCount(); i++) {
            w.mapHeader(3);
            writeSelector(w, u, i);
        }
    }

    private static void writeSelector(RespWriter w, User u, int i) {
        w.bulk("commands").bulk(Acl.bytes(u.commandRules(i)));
        w.bulk("keys").bulk(Acl.bytes(u.keyPatterns(i)));
        w.bulk("channels").bulk(Acl.bytes(u.channelPatterns(i)));
    }

    /** ACL DELUSER name …: the number deleted; their connections are closed. {@code default} is refused. */
    static void deluser(Client c, byte[][] argv) {
        Server server = c.server();
        int deleted = 0;
        for (int i = 2; i < argv.length; i++) {
            String name = Acl.text(argv[i]);
            if (name.equals(Acl.DEFAULT_USER)) {
                c.reply().error(Errors.ACL_DEFAULT_USER_UNDELETABLE);
                return;
            }
            User u = server.acl().deleteUser(name);
            if (u != null) {
                server.aclUserChanged(u, true);
                deleted++;
            }
        }
        c.reply().integer(deleted);
    }

    static void list(Client c, byte[][] argv) {
        RespWriter w = c.reply();
        w.arrayHeader(c.server().acl().users().size());
        for (User u : c.server().acl().users()) {
            w.bulk(Acl.bytes(Acl.describe(u)));
        }
    }

    static void users(Client c, byte[][] argv) {
        RespWriter w = c.reply();
        w.arrayHeader(c.server().acl().users().size());
        for (User u : c.server().acl().users()) {
            w.bulk(Acl.bytes(u.name()));
        }
    }

    static void whoami(Client c, byte[][] argv) {
        c.reply().bulk(Acl.bytes(c.user().name()));
    }

    /** ACL CAT [category]: the category names, or the commands (and subcommands) in one. */
    static void cat(Client c, byte[][] argv) {
        RespWriter w = c.reply();
        if (argv.length == 2) {
            AclCategory[] all = AclCategory.values();
            w.arrayHeader(all.length);
            for (AclCategory category : all) {
                w.bulk(category.label());
            }
            return;
        }
        if (argv.length > 3) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "ACL"));
            return;
        }
        AclCategory category = AclCategory.byName(Arguments.text(argv[2]));
        if (category == null) {
            c.reply().error(Errors.aclUnknownCategory(argv[2]));
            return;
        }
        List<String> names = new ArrayList<>();
        for (CommandSpec spec : c.server().commands().all()) {
            addInCategory(names, spec, category);
            for (CommandSpec sub : spec.subcommands()) {
                addInCategory(names, sub, category);
            }
        }
        w.arrayHeader(names.size());
        for (String name : names) {
            w.bulk(name);
        }
    }

    private static void addInCategory(List<String> names, CommandSpec spec, AclCategory category) {
        long categories = CommandAcl.categories(spec);
        if (categories != -1 && (categories & category.bit()) != 0) {
            names.add(spec.fullName());
        }
    }

    /** ACL GENPASS [bits]: that many random bits (256 by default) in hex, rounded up to a whole digit. */
    static void genpass(Client c, byte[][] argv) {
        long bits = 256;
        if (argv.length == 3) {
            bits = Arguments.longOrReply(c, argv[2]);
            if (bits == Arguments.INVALID) {
                return;
            }
            if (bits <= 0 || bits > 4096) {
                c.reply().error(Errors.ACL_GENPASS_BITS);
                return;
            }
        } else if (argv.length > 3) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "ACL"));
            return;
        }
        int chars = (int) ((bits + 3) / 4);
        byte[] random = new byte[(chars + 1) / 2];
        RANDOM.nextBytes(random);
        c.reply().bulk(HexFormat.of().formatHex(random).substring(0, chars));
    }

    /** ACL LOG [count | RESET]: the newest entries (10 by default), or empties the log. */
    static void log(Client c, byte[][] argv) {
        long count = 10;
        if (argv.length == 3) {
            if (Arguments.is(argv[2], "reset")) {
                c.server().acl().log().reset();
                c.reply().ok();
                return;
            }
            count = Arguments.longOrReply(c, argv[2]);
            if (count == Arguments.INVALID) {
                return;
            }
            count = Math.max(0, count);
        } else if (argv.length > 3) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "ACL"));
            return;
        }
        c.server().acl().log().write(c.reply(), count, c.server().nowMs());
    }

    /**
     * ACL DRYRUN user command [arg …]: OK when the user may run the command line, else why not, in
     * the words of ACL DRYRUN (naming the user and the key or channel). Nothing runs.
     */
    static void dryrun(Client c, byte[][] argv) {
        Server server = c.server();
        User u = server.acl().user(Acl.text(argv[2]));
        if (u == null) {
            c.reply().error(Errors.aclUserNotFound(argv[2]));
            return;
        }
        byte[][] line = java.util.Arrays.copyOfRange(argv, 3, argv.length);
        CommandSpec spec = server.commands().lookup(line[0]);
        if (spec != null && !spec.subcommands().isEmpty() && line.length > 1) {
            spec = spec.subcommand(line[1]);
        }
        if (spec == null) {
            c.reply().error(Errors.aclCommandNotFound(argv[3]));
            return;
        }
        if (!spec.arityAccepts(line.length)) {
            c.reply().error(Errors.wrongArity(spec.fullName()));
            return;
        }
        int result = server.acl().check(u, spec, line);
        if (result == Acl.OK) {
            c.reply().ok();
        } else {
            c.reply().bulk(Acl.bytes(Acl.message(result, u, spec, line[server.acl().errorPosition()], true)));
        }
    }

    /** ACL SAVE: writes every user to the aclfile. */
    static void save(Client c, byte[][] argv) {
        Path file = aclfile(c);
        if (file == null) {
            return;
        }
        try {
            AclFile.save(c.server().acl(), file);
        } catch (IOException e) {
            LOG.warn("Error saving ACLs to {}: {}", file, e.toString());
            c.reply().error(Errors.ACL_SAVE_FAILED);
            return;
        }
        c.reply().ok();
    }

    /**
     * ACL LOAD: replaces every user with the aclfile's, or changes nothing if the file has an error.
     * As in Redis, connections of every user but {@code default} are closed: their users were
     * replaced.
     */
    static void load(Client c, byte[][] argv) {
        Path file = aclfile(c);
        if (file == null) {
            return;
        }
        Server server = c.server();
        List<User> before = new ArrayList<>(server.acl().users());
        try {
            AclFile.load(server.acl(), file);
        } catch (AclFile.LoadException e) {
            c.reply().error("ERR " + e.getMessage());
            return;
        }
        for (User old : before) {
            if (!old.name().equals(Acl.DEFAULT_USER)) {
                server.aclUserChanged(old, true);
            }
        }
        server.aclUserChanged(server.acl().defaultUser(), false);
        c.reply().ok();
    }

    private static Path aclfile(Client c) {
        String name = c.server().config().aclfile();
        if (name.isEmpty()) {
            c.reply().error(AclFile.NOT_CONFIGURED);
            return null;
        }
        return c.server().config().dir().resolve(name);
    }

    static void help(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "ACL",
                "CAT [<category>]",
                "    List all commands that belong to <category>, or all command categories",
                "    when no category is specified.",
                "DELUSER <username> [<username> ...]",
                "    Delete a list of users.",
                "DRYRUN <username> <command> [<arg> ...]",
                "    Returns whether the user can execute the given command without executing the command.",
                "GETUSER <username>",
                "    Get the user's details.",
                "GENPASS [<bits>]",
                "    Generate a secure 256-bit user password. The optional `bits` argument can",
                "    be used to specify a different size.",
                "LIST",
                "    Show users details in config file format.",
                "LOAD",
                "    Reload users from the ACL file.",
                "LOG [<count> | RESET]",
                "    Show the ACL log entries.",
                "SAVE",
                "    Save the current config to the ACL file.",
                "SETUSER <username> <attribute> [<attribute> ...]",
                "    Create or modify a user with the specified attributes.",
                "USERS",
                "    List all the registered usernames.",
                "WHOAMI",
                "    Return the current connection username.");
    }
}
