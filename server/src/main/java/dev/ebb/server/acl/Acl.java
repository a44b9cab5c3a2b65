package dev.ebb.server.acl;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandKeys;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.CommandTable;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's ACL users and the permission check that runs at dispatch for every command, for the
 * commands EXEC runs and for those a script calls.
 *
 * <p>Cost: a client whose user's root selector allows every command, key and channel (the
 * {@code default} user unless configured otherwise) is never checked: dispatch tests
 * {@link User#unrestricted()}, one flag. Otherwise the command is looked up in each selector's bit
 * set (one word and one mask, by {@link CommandSpec#ordinal()}); keys are found only when a selector
 * restricts keys (once per command, shared by the selectors) and tried against its compiled glob
 * patterns in order; channels likewise for PUBLISH and the SUBSCRIBE family. A command is allowed
 * when one selector allows all of it. When none does, the denial reported is Redis's: the most
 * specific reason (command, then key, then channel) and, among equal reasons, the latest argument.
 *
 * <p>Users are kept sorted by name, as ACL USERS and ACL LIST list them. Loop thread only.
 */
public final class Acl {
    public static final int OK = 0;
    public static final int DENIED_CMD = 1;
    public static final int DENIED_KEY = 2;
    public static final int DENIED_AUTH = 3;
    public static final int DENIED_CHANNEL = 4;
    public static final String DEFAULT_USER = "default";

    private final CommandIndex commands;
    private final Map<String, User> users = new TreeMap<>();
    private final AclLog log = new AclLog();
    private boolean allChannelsByDefault;
    /** The argv index of the key or channel the last failed {@link #check} refused (Redis's errpos). */
    private int errorPosition;

    public Acl(CommandTable table, boolean allChannelsByDefault) {
        this.commands = new CommandIndex(table);
        this.allChannelsByDefault = allChannelsByDefault;
        users.put(DEFAULT_USER, newDefaultUser());
    }

    private User newDefaultUser() {
        User u = new User(DEFAULT_USER, commands, allChannelsByDefault);
        try {
            for (String rule : List.of("+@all", "~*", "&*", "on", "nopass")) {
                u.apply(rule);
            }
        } catch (AclRuleException e) {
            throw new IllegalStateException(e);
        }
        return u;
    }

    /** {@code acl-pubsub-default}: whether new users and {@code reset} start with {@code allchannels}. */
    public void allChannelsByDefault(boolean allChannels) {
        this.allChannelsByDefault = allChannels;
    }

    public boolean allChannelsByDefault() {
        return allChannelsByDefault;
    }

    public AclLog log() {
        return log;
    }

    public User defaultUser() {
        return users.get(DEFAULT_USER);
    }

    /** The user named {@code name}, or null. */
    public User user(String name) {
        return users.get(name);
    }

    /** Every user, sorted by name. */
    public Collection<User> users() {
        return Collections.unmodifiableCollection(users.values());
    }

    /**
     * Creates or changes a user by applying {@code rules} in order to a copy of it (a new user starts
     * off, without passwords, commands, keys or channels), which replaces the user only if every rule
     * applied.
     *
     * @return the user as it now is (an existing user keeps its identity: its connections see the change)
     * @throws RuleFailure naming the rule that failed
     */
    public User setUser(String name, List<String> rules) throws RuleFailure {
        User existing = users.get(name);
        User u = existing == null ? new User(name, commands, allChannelsByDefault) : existing.copy();
        List<String> merged;
        try {
            merged = AclRules.mergeSelectors(rules);
        } catch (AclRuleException e) {
            throw new RuleFailure(null, e.getMessage());
        }
        for (String rule : merged) {
            try {
                u.apply(rule);
            } catch (AclRuleException e) {
                throw new RuleFailure(rule, e.getMessage());
            }
        }
        if (existing == null) {
            users.put(name, u);
            return u;
        }
        existing.assign(u);
        return existing;
    }

    /** A rule that could not be applied: {@code rule} null when the whole list was malformed. */
    public static final class RuleFailure extends Exception {
        private final String rule;

        RuleFailure(String rule, String reason) {
            super(reason, null, false, false);
            this.rule = rule;
        }

        /** The error reply, as ACL SETUSER sends it. */
        public String reply() {
            return rule == null ? getMessage() : "ERR Error in ACL SETUSER modifier '" + rule + "': " + getMessage();
        }

        /** The reason alone, for config file errors. */
        public String reason() {
            return rule == null ? getMessage() : "Error in user declaration '" + rule + "': " + getMessage();
        }
    }

    /** Removes a user other than {@code default}; returns it, or null if there was none. */
    public User deleteUser(String name) {
        if (name.equals(DEFAULT_USER)) {
            throw new IllegalArgumentException("the default user cannot be removed");
        }
        return users.remove(name);
    }

    /** Replaces every user with {@code loaded} (ACL LOAD); a {@code default} user is kept if absent. */
    public void replaceUsers(Map<String, User> loaded) {
        User defaultUser = defaultUser();
        defaultUser.assign(loaded.getOrDefault(DEFAULT_USER, newDefaultUser()));
        users.clear();
        users.putAll(loaded);
        users.put(DEFAULT_USER, defaultUser);
    }

    /** A fresh user, unregistered, for loading a file that must be applied all at once. */
    public User newUser(String name) {
        return new User(name, commands, allChannelsByDefault);
    }

    /** Applies rules to an unregistered user (loading); see {@link #setUser} for failures. */
    public static void applyAll(User u, List<String> rules) throws RuleFailure {
        List<String> merged;
        try {
            merged = AclRules.mergeSelectors(rules);
        } catch (AclRuleException e) {
            throw new RuleFailure(null, e.getMessage());
        }
        for (String rule : merged) {
            try {
                u.apply(rule);
            } catch (AclRuleException e) {
                throw new RuleFailure(rule, e.getMessage());
            }
        }
    }

    /**
     * {@code requirepass} set to {@code password}: the default user's only password, or nopass when
     * empty, as Redis applies it.
     */
    public void requirepass(String password) {
        User u = defaultUser().copy();
        try {
            u.apply("resetpass");
            u.apply(password.isEmpty() ? "nopass" : ">" + password);
        } catch (AclRuleException e) {
            throw new IllegalStateException(e);
        }
        defaultUser().assign(u);
    }

    /** The user {@code name} if it exists, is enabled and {@code password} opens it; else null. */
    public User authenticate(String name, byte[] password) {
        User u = users.get(name);
        return u != null && u.accepts(password) ? u : null;
    }

    /**
     * Whether {@code u} may run {@code argv} (already resolved to {@code spec}): {@link #OK} or the
     * denial; after a key or channel denial {@link #errorPosition()} is its argv index.
     */
    public int check(User u, CommandSpec spec, byte[][] argv) {
        if (u.unrestricted()) {
            return OK;
        }
        int relevant = DENIED_CMD;
        int lastIndex = 0;
        int[] keys = null;
        for (Selector s : u.selectors()) {
            errorPosition = 0;
            int result;
            if (!spec.has(CommandFlags.NO_AUTH) && !s.checkCommand(spec, argv)) {
                result = DENIED_CMD;
            } else {
                if (!s.allKeys() && keys == null) {
                    keys = CommandKeys.positions(spec, argv);
                }
                result = s.allKeys() ? OK : checkKeys(s, spec, argv, keys);
                if (result == OK && !s.allChannels()) {
                    result = checkChannels(s, spec, argv);
                }
            }
            if (result == OK) {
                return OK;
            }
            if (result > relevant || (result == relevant && errorPosition > lastIndex)) {
                relevant = result;
                lastIndex = errorPosition;
            }
        }
        errorPosition = lastIndex;
        return relevant;
    }

    public int errorPosition() {
        return errorPosition;
    }

    private int checkKeys(Selector s, CommandSpec spec, byte[][] argv, int[] keys) {
        for (int n = 0; n < keys.length; n++) {
            String movableFlags = spec.movableKeyFlags(n);
            int permission = movableFlags != null && spec.movableKeys(argv) != null
                    ? CommandAcl.permissionOf(movableFlags) : CommandAcl.keyPermission(spec, argv, n);
            if (!s.checkKey(argv[keys[n]], permission)) {
                errorPosition = keys[n];
                return DENIED_KEY;
            }
        }
        return OK;
    }

    /** PUBLISH/SPUBLISH's channel, (S)SUBSCRIBE's channels and PSUBSCRIBE's patterns. */
    private int checkChannels(Selector s, CommandSpec spec, byte[][] argv) {
        String name = spec.fullName();
        boolean pattern = name.equals("psubscribe");
        int from = 1;
        int to;
        if (name.equals("publish") || name.equals("spublish")) {
            to = 1;
        } else if (pattern || name.equals("subscribe") || name.equals("ssubscribe")) {
            to = argv.length - 1;
        } else {
            return OK;
        }
        for (int i = from; i <= to; i++) {
            if (!s.checkChannel(argv[i], pattern)) {
                errorPosition = i;
                return DENIED_CHANNEL;
            }
        }
        return OK;
    }

    /**
     * Whether {@code u} may still hear on the channels and patterns given (for clients subscribed
     * before a change of the user): every channel and pattern must pass some selector.
     */
    public boolean maySubscribe(User u, Collection<byte[]> channels, Collection<byte[]> patterns) {
        if (u.unrestricted()) {
            return true;
        }
        for (byte[] channel : channels) {
            if (!anySelector(u, channel, false)) {
                return false;
            }
        }
        for (byte[] pattern : patterns) {
            if (!anySelector(u, pattern, true)) {
                return false;
            }
        }
        return true;
    }

    private static boolean anySelector(User u, byte[] channel, boolean pattern) {
        for (Selector s : u.selectors()) {
            if (s.checkChannel(channel, pattern)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The NOPERM message for a denial (without the {@code -NOPERM } prefix), as Redis's
     * getAclErrorMessage: {@code verbose} (ACL DRYRUN) names the user and the key or channel.
     */
    public static String message(int result, User u, CommandSpec spec, byte[] object, boolean verbose) {
        return switch (result) {
            case DENIED_CMD -> "User " + u.name() + " has no permissions to run the '" + spec.fullName() + "' command";
            case DENIED_KEY -> verbose ? "User " + u.name() + " has no permissions to access the '" + text(object)
                    + "' key" : "No permissions to access a key";
            case DENIED_CHANNEL -> verbose ? "User " + u.name() + " has no permissions to access the '"
                    + text(object) + "' channel" : "No permissions to access a channel";
            default -> throw new IllegalArgumentException("not a denial: result=" + result);
        };
    }

    /** Bytes as the one-char-per-byte strings ACL keeps names and patterns in. */
    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The ACL LIST line of {@code u}: {@code user name flags passwords selectors}. */
    public static String describe(User u) {
        return "user " + u.name() + " " + u.describe();
    }
}
