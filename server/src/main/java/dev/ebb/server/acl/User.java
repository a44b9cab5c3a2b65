package dev.ebb.server.acl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An ACL user: its name, whether it is enabled, its passwords (SHA-256 hashes in lowercase hex, never
 * the passwords themselves) or {@code nopass}, and its selectors (the root one first). Rules are
 * applied with {@link #apply}; a user is changed as a copy ({@link #copy}) that replaces the original
 * only when every rule applied, so ACL SETUSER is all or nothing. Loop thread only.
 */
public final class User {
    private final String name;
    private final CommandIndex commands;
    private final boolean allChannelsByDefault;
    private boolean enabled;
    private boolean nopass;
    private boolean skipSanitizePayload;
    private boolean sanitizePayload = true;
    private final Set<String> passwords = new LinkedHashSet<>();
    private final List<Selector> selectors = new ArrayList<>();
    /** Root selector allows everything and no password is needed: the dispatch check is one flag test. */
    private boolean unrestricted;

    User(String name, CommandIndex commands, boolean allChannelsByDefault) {
        this.name = name;
        this.commands = commands;
        this.allChannelsByDefault = allChannelsByDefault;
        selectors.add(new Selector(commands, allChannelsByDefault));
        refresh();
    }

    User copy() {
        User u = new User(name, commands, allChannelsByDefault);
        u.enabled = enabled;
        u.nopass = nopass;
        u.skipSanitizePayload = skipSanitizePayload;
        u.sanitizePayload = sanitizePayload;
        u.passwords.addAll(passwords);
        u.selectors.clear();
        for (Selector s : selectors) {
            u.selectors.add(s.copy());
        }
        u.refresh();
        return u;
    }

    /** Takes every rule of {@code from} (a changed copy of this user), so connections see the change. */
    void assign(User from) {
        enabled = from.enabled;
        nopass = from.nopass;
        skipSanitizePayload = from.skipSanitizePayload;
        sanitizePayload = from.sanitizePayload;
        passwords.clear();
        passwords.addAll(from.passwords);
        selectors.clear();
        selectors.addAll(from.selectors);
        refresh();
    }

    public String name() {
        return name;
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean nopass() {
        return nopass;
    }

    /** True when the root selector allows every command, key and channel: ACL checks are skipped. */
    public boolean unrestricted() {
        return unrestricted;
    }

    /** The SHA-256 hashes of its passwords, in lowercase hex, in the order they were added. */
    public Set<String> passwords() {
        return java.util.Collections.unmodifiableSet(passwords);
    }

    /** The root selector (0) and the {@code (...)} selectors after it. */
    public int selectorCount() {
        return selectors.size();
    }

    /** GETUSER's {@code commands} field of selector {@code i}. */
    public String commandRules(int i) {
        return selectors.get(i).describeCommands();
    }

    /** GETUSER's {@code keys} field of selector {@code i}. */
    public String keyPatterns(int i) {
        return selectors.get(i).describeKeys();
    }

    /** GETUSER's {@code channels} field of selector {@code i}. */
    public String channelPatterns(int i) {
        return selectors.get(i).describeChannels();
    }

    List<Selector> selectors() {
        return selectors;
    }

    Selector root() {
        return selectors.get(0);
    }

    /**
     * Applies one rule of Redis's ACL rule language: user rules (on/off, passwords, reset,
     * selectors) here, selector rules to the root selector.
     */
    void apply(String op) throws AclRuleException {
        String lower = op.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "on" -> enabled = true;
            case "off" -> enabled = false;
            case "skip-sanitize-payload" -> {
                skipSanitizePayload = true;
                sanitizePayload = false;
            }
            case "sanitize-payload" -> {
                skipSanitizePayload = false;
                sanitizePayload = true;
            }
            case "nopass" -> {
                nopass = true;
                passwords.clear();
            }
            case "resetpass" -> {
                nopass = false;
                passwords.clear();
            }
            case "clearselectors" -> selectors.subList(1, selectors.size()).clear();
            case "reset" -> {
                apply("resetpass");
                apply("resetkeys");
                apply("resetchannels");
                if (allChannelsByDefault) {
                    apply("allchannels");
                }
                apply("off");
                apply("sanitize-payload");
                apply("clearselectors");
                apply("-@all");
            }
            default -> applyOther(op);
        }
        refresh();
    }

    private void applyOther(String op) throws AclRuleException {
        char first = op.isEmpty() ? 0 : op.charAt(0);
        if (first == '>') {
            passwords.add(sha256Hex(op.substring(1)));
            nopass = false;
        } else if (first == '#') {
            passwords.add(checkedHash(op.substring(1)));
            nopass = false;
        } else if (first == '<') {
            if (!passwords.remove(sha256Hex(op.substring(1)))) {
                throw new AclRuleException(AclRuleException.NO_SUCH_PASSWORD);
            }
        } else if (first == '!') {
            if (!passwords.remove(checkedHash(op.substring(1)))) {
                throw new AclRuleException(AclRuleException.NO_SUCH_PASSWORD);
            }
        } else if (first == '(' && op.endsWith(")")) {
            Selector selector = new Selector(commands, allChannelsByDefault);
            for (String rule : AclRules.splitArgs(op.substring(1, op.length() - 1))) {
                selector.apply(rule);
            }
            selectors.add(selector);
        } else {
            root().apply(op);
        }
    }

    private static String checkedHash(String hash) throws AclRuleException {
        if (hash.length() != 64) {
            throw new AclRuleException(AclRuleException.BAD_HASH);
        }
        for (int i = 0; i < hash.length(); i++) {
            char ch = hash.charAt(i);
            if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
                throw new AclRuleException(AclRuleException.BAD_HASH);
            }
        }
        return hash;
    }

    /** The SHA-256 of a password (its bytes as given) in lowercase hex, as Redis stores it. */
    public static String sha256Hex(String password) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(password.getBytes(StandardCharsets.ISO_8859_1)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether {@code password} opens this user: enabled and nopass, or one of its hashes matches. */
    boolean accepts(byte[] password) {
        if (!enabled) {
            return false;
        }
        if (nopass) {
            return true;
        }
        byte[] hash = sha256Hex(new String(password, StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String stored : passwords) {
            // Compare every hash in constant time, as Redis's time_independent_strcmp.
            match |= MessageDigest.isEqual(stored.getBytes(StandardCharsets.US_ASCII), hash);
        }
        return match;
    }

    private void refresh() {
        unrestricted = selectors.get(0).unrestricted();
    }

    /** The flags as ACL LIST and GETUSER list them, in Redis's order. */
    public List<String> flags() {
        List<String> flags = new ArrayList<>(4);
        flags.add(enabled ? "on" : "off");
        if (nopass) {
            flags.add("nopass");
        }
        if (skipSanitizePayload) {
            flags.add("skip-sanitize-payload");
        }
        if (sanitizePayload) {
            flags.add("sanitize-payload");
        }
        return flags;
    }

    /** The user as an ACL LIST line without the {@code user name} prefix (also the aclfile form). */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (String flag : flags()) {
            sb.append(flag).append(' ');
        }
        for (String hash : passwords) {
            sb.append('#').append(hash).append(' ');
        }
        sb.append(root().describe());
        for (int i = 1; i < selectors.size(); i++) {
            sb.append(" (").append(selectors.get(i).describe()).append(')');
        }
        return sb.toString();
    }
}
