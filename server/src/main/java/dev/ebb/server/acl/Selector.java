package dev.ebb.server.acl;

import dev.ebb.server.command.CommandSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One set of permissions of a user, as Redis 7.2 keeps it: the commands it may run (a bit set over
 * {@link CommandSpec#ordinal()}, plus the first arguments allowed for a command that is otherwise
 * denied), its key patterns and its channel patterns. A user has a root selector and any number of
 * {@code (...)} selectors; a command is allowed when one of them allows it.
 *
 * <p>Besides the bits, the selector keeps the command rules as given, with a later rule for the same
 * command or category replacing the earlier one, so ACL LIST can write them back in an order that
 * rebuilds exactly the same bits (Redis's {@code command_rules}). Loop thread only.
 */
final class Selector {
    private final CommandIndex commands;
    private long[] allowed;
    /** Set by {@code +@all}/{@code allcommands}: commands added later are allowed too (ACL LIST's {@code +@all}). */
    private boolean futureCommands;
    /** Every command is allowed: the fast path of {@link #checkCommand}. Cleared by any denial. */
    private boolean allCommands;
    private boolean allKeys;
    private boolean allChannels;
    private final List<KeyPattern> keys = new ArrayList<>();
    private final List<String> channels = new ArrayList<>();
    private final List<String> commandRules = new ArrayList<>();
    private Map<Integer, Set<String>> firstArgs;

    Selector(CommandIndex commands, boolean allChannelsByDefault) {
        this.commands = commands;
        this.allowed = new long[commands.words()];
        this.allChannels = allChannelsByDefault;
    }

    Selector copy() {
        Selector s = new Selector(commands, allChannels);
        s.allowed = allowed.clone();
        s.futureCommands = futureCommands;
        s.allCommands = allCommands;
        s.allKeys = allKeys;
        s.keys.addAll(keys);
        s.channels.addAll(channels);
        s.commandRules.addAll(commandRules);
        if (firstArgs != null) {
            s.firstArgs = new HashMap<>();
            firstArgs.forEach((id, args) -> s.firstArgs.put(id, new LinkedHashSet<>(args)));
        }
        return s;
    }

    boolean unrestricted() {
        return allCommands && allKeys && allChannels;
    }

    boolean allKeys() {
        return allKeys;
    }

    boolean allChannels() {
        return allChannels;
    }

    List<KeyPattern> keys() {
        return keys;
    }

    List<String> channels() {
        return channels;
    }

    /** Applies one selector rule (anything but the user's own rules: passwords, on/off …). */
    void apply(String op) throws AclRuleException {
        String lower = op.toLowerCase(Locale.ROOT);
        if (lower.equals("allkeys") || op.equals("~*")) {
            allKeys = true;
            keys.clear();
        } else if (lower.equals("resetkeys")) {
            allKeys = false;
            keys.clear();
        } else if (lower.equals("allchannels") || op.equals("&*")) {
            allChannels = true;
            channels.clear();
        } else if (lower.equals("resetchannels")) {
            allChannels = false;
            channels.clear();
        } else if (lower.equals("allcommands") || lower.equals("+@all")) {
            setAll(true);
        } else if (lower.equals("nocommands") || lower.equals("-@all")) {
            setAll(false);
        } else if (op.startsWith("~") || op.startsWith("%")) {
            addKeyPattern(op);
        } else if (op.startsWith("&")) {
            if (allChannels) {
                throw new AclRuleException(AclRuleException.CHANNEL_AFTER_ALL);
            }
            String channel = op.substring(1);
            if (!channels.contains(channel)) {
                channels.add(channel);
            }
        } else if (op.startsWith("+@") || op.startsWith("-@")) {
            AclCategory category = AclCategory.byName(op.substring(2));
            if (category == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            boolean allow = op.charAt(0) == '+';
            for (CommandSpec spec : commands.all()) {
                if ((CommandAcl.categories(spec) & category.bit()) != 0) {
                    change(spec, allow);
                }
            }
            updateRules(op.substring(1), allow);
        } else if (op.startsWith("+")) {
            allowCommand(op.substring(1));
        } else if (op.startsWith("-")) {
            CommandSpec spec = commands.lookup(op.substring(1));
            if (spec == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            change(spec, false);
            updateRules(spec.fullName(), false);
        } else {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
    }

    private void setAll(boolean allow) {
        Arrays.fill(allowed, allow ? -1L : 0L);
        futureCommands = allow;
        allCommands = allow;
        commandRules.clear();
        firstArgs = null;
    }

    /**
     * {@code %R~p}, {@code %W~p}, {@code %RW~p} or {@code ~p}. Deliberately unlike Redis 7.2.4, a
     * {@code %} rule without a permission letter or without the {@code ~} is a syntax error: Redis
     * accepts {@code %R} and {@code %~x} and then crashes describing the user.
     */
    private void addKeyPattern(String op) throws AclRuleException {
        if (allKeys) {
            throw new AclRuleException(AclRuleException.KEY_AFTER_ALL);
        }
        int perms = 0;
        int offset = 1;
        if (op.charAt(0) == '%') {
            boolean tilde = false;
            for (; offset < op.length(); offset++) {
                char ch = Character.toUpperCase(op.charAt(offset));
                if (ch == 'R' && (perms & CommandAcl.READ) == 0) {
                    perms |= CommandAcl.READ;
                } else if (ch == 'W' && (perms & CommandAcl.WRITE) == 0) {
                    perms |= CommandAcl.WRITE;
                } else if (ch == '~') {
                    offset++;
                    tilde = true;
                    break;
                } else {
                    throw new AclRuleException(AclRuleException.SYNTAX);
                }
            }
            if (perms == 0 || !tilde) {
                throw new AclRuleException(AclRuleException.SYNTAX);
            }
        } else {
            perms = CommandAcl.READ | CommandAcl.WRITE;
        }
        String pattern = op.substring(offset);
        if (pattern.equals("*") && perms == (CommandAcl.READ | CommandAcl.WRITE)) {
            allKeys = true;
            keys.clear();
            return;
        }
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).pattern().equals(pattern)) {
                keys.set(i, keys.get(i).withPermissions(perms));
                return;
            }
        }
        keys.add(KeyPattern.of(pattern, perms));
    }

    /** {@code +command}, {@code +container|subcommand} or the deprecated {@code +command|first-arg}. */
    private void allowCommand(String name) throws AclRuleException {
        int bar = name.lastIndexOf('|');
        if (bar < 0) {
            CommandSpec spec = commands.lookup(name);
            if (spec == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            change(spec, true);
            updateRules(spec.fullName(), true);
            return;
        }
        CommandSpec spec = commands.lookup(name.substring(0, bar));
        if (spec == null) {
            throw new AclRuleException(AclRuleException.UNKNOWN);
        }
        if (spec.fullName().indexOf('|') >= 0) {
            throw new AclRuleException(AclRuleException.SUBCOMMAND_FIRST_ARG);
        }
        String arg = name.substring(bar + 1);
        if (arg.isEmpty()) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        if (!spec.subcommands().isEmpty()) {
            CommandSpec sub = commands.lookup(name);
            if (sub == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            change(sub, true);
        } else {
            if (firstArgs == null) {
                firstArgs = new HashMap<>();
            }
            firstArgs.computeIfAbsent(spec.ordinal(), id -> new LinkedHashSet<>()).add(arg.toLowerCase(Locale.ROOT));
        }
        updateRules(name, true);
    }

    /** Redis's ACLChangeSelectorPerm: the command and all its subcommands, first-args forgotten. */
    private void change(CommandSpec spec, boolean allow) {
        setBit(spec.ordinal(), allow);
        if (firstArgs != null) {
            firstArgs.remove(spec.ordinal());
        }
        for (CommandSpec sub : spec.subcommands()) {
            setBit(sub.ordinal(), allow);
        }
    }

    private void setBit(int id, boolean allow) {
        if (allow) {
            allowed[id >>> 6] |= 1L << id;
        } else {
            allowed[id >>> 6] &= ~(1L << id);
            allCommands = false;
        }
    }

    /**
     * Records {@code +rule}/{@code -rule} at the end of the rules, dropping earlier rules it replaces:
     * the same rule, and for a command every first-arg rule of it.
     */
    private void updateRules(String rule, boolean allow) {
        String lower = rule.toLowerCase(Locale.ROOT);
        commandRules.removeIf(existing -> {
            String body = existing.substring(1);
            return body.equals(lower) || (lower.indexOf('|') < 0 && body.startsWith(lower + "|"));
        });
        commandRules.add((allow ? "+" : "-") + lower);
    }

    /** The command rules as ACL LIST writes them: {@code +@all} or {@code -@all}, then the rules kept. */
    String describeCommands() {
        StringBuilder sb = new StringBuilder(futureCommands ? "+@all" : "-@all");
        for (String rule : commandRules) {
            sb.append(' ').append(rule);
        }
        return sb.toString();
    }

    /** The key patterns as GETUSER's {@code keys} field: {@code ~*}, or the patterns, or "". */
    String describeKeys() {
        if (allKeys) {
            return "~*";
        }
        StringBuilder sb = new StringBuilder();
        for (KeyPattern k : keys) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(k.describe());
        }
        return sb.toString();
    }

    /** The channel patterns as GETUSER's {@code channels} field: {@code &*}, the patterns, or "". */
    String describeChannels() {
        if (allChannels) {
            return "&*";
        }
        StringBuilder sb = new StringBuilder();
        for (String ch : channels) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append('&').append(ch);
        }
        return sb.toString();
    }

    /** The whole selector as ACL LIST writes it: keys, channels, commands. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        if (allKeys) {
            sb.append("~* ");
        } else {
            for (KeyPattern k : keys) {
                sb.append(k.describe()).append(' ');
            }
        }
        if (allChannels) {
            sb.append("&* ");
        } else {
            sb.append("resetchannels ");
            for (String ch : channels) {
                sb.append('&').append(ch).append(' ');
            }
        }
        return sb.append(describeCommands()).toString();
    }

    // ---------------------------------------------------------------- checks

    /** Whether the command (with its first argument, for first-arg rules) is allowed. */
    boolean checkCommand(CommandSpec spec, byte[][] argv) {
        if (allCommands) {
            return true;
        }
        int id = spec.ordinal();
        if (id < allowed.length << 6 && (allowed[id >>> 6] & (1L << id)) != 0) {
            return true;
        }
        if (firstArgs == null || argv.length < 2) {
            return false;
        }
        Set<String> args = firstArgs.get(id);
        return args != null && args.contains(new String(argv[1], StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
    }

    /** Whether a key may be accessed with {@code permission} (Redis's ACLSelectorCheckKey). */
    boolean checkKey(byte[] key, int permission) {
        if (allKeys) {
            return true;
        }
        for (KeyPattern pattern : keys) {
            if ((pattern.permissions() & permission) == permission && pattern.glob().matches(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a channel may be used: a channel name must match one of the patterns; a pattern (PSUBSCRIBE)
     * must equal one of them literally, as in Redis.
     */
    boolean checkChannel(byte[] channel, boolean isPattern) {
        if (allChannels) {
            return true;
        }
        return channelAllowed(channels, channel, isPattern);
    }

    static boolean channelAllowed(List<String> patterns, byte[] channel, boolean isPattern) {
        for (String p : patterns) {
            byte[] pattern = p.getBytes(StandardCharsets.ISO_8859_1);
            if (isPattern ? Arrays.equals(pattern, channel) : dev.ebb.server.util.Glob.matches(pattern, channel, false)) {
                return true;
            }
        }
        return false;
    }
}
