package dev.ebb.server.acl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code aclfile}: one {@code user <name> <rules>} line per user, as ACL SAVE writes it and ACL
 * LOAD (and start-up) reads it. Reading is all or nothing: any error leaves the users as they were,
 * and the errors are reported together in Redis's words. Blank lines are skipped; anything else
 * that is not a user line (comments included, as in Redis) is an error.
 */
public final class AclFile {
    /** Redis's refusal of users both in the config file and in an aclfile. */
    public static final String BOTH_CONFIGURED = "Configuring Redis with users defined in redis.conf and at the same"
            + " setting an ACL file path is invalid. This setup is very likely to lead to configuration errors and"
            + " security holes, please define either an ACL file or declare users directly in your redis.conf, but"
            + " not both.";
    /** ACL LOAD and ACL SAVE without an aclfile. */
    public static final String NOT_CONFIGURED = "ERR This Redis instance is not configured to use an ACL file. You"
            + " may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you"
            + " have a Redis configuration file set) in order to store users in the Redis configuration.";

    private AclFile() {
    }

    /** ACL loading failed; the message lists every error, as Redis's does. */
    public static final class LoadException extends Exception {
        public LoadException(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads {@code path} and replaces {@code acl}'s users with its users, or changes nothing. */
    public static void load(Acl acl, Path path) throws LoadException {
        String text;
        try {
            text = new String(Files.readAllBytes(path), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new LoadException("Error loading ACLs, opening file '" + path + "': " + describe(e));
        }
        acl.replaceUsers(parse(acl, text, path.toString()));
    }

    /** The users of an aclfile's {@code text}; {@code name} is the file as errors name it. */
    static Map<String, User> parse(Acl acl, String text, String name) throws LoadException {
        Map<String, User> users = new LinkedHashMap<>();
        StringBuilder errors = new StringBuilder();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            List<String> args = Arrays.stream(line.split(" ")).filter(a -> !a.isEmpty()).toList();
            if (!args.get(0).equals("user") || args.size() < 2) {
                errors.append(name).append(':').append(lineNumber)
                        .append(" should start with user keyword followed by the username. ");
                continue;
            }
            String userName = args.get(1);
            if (users.containsKey(userName)) {
                errors.append("WARNING: Duplicate user '").append(userName).append("' found on line ")
                        .append(lineNumber).append(". ");
                continue;
            }
            User u = acl.newUser(userName);
            users.put(userName, u);
            List<String> rules;
            try {
                rules = AclRules.mergeSelectors(args.subList(2, args.size()));
            } catch (AclRuleException e) {
                errors.append(name).append(':').append(lineNumber).append(": Unmatched parenthesis in selector definition.");
                continue;
            }
            boolean syntaxError = false;
            for (String rule : rules) {
                try {
                    u.apply(rule);
                } catch (AclRuleException e) {
                    if (e.getMessage().equals(AclRuleException.UNKNOWN)) {
                        errors.append(name).append(':').append(lineNumber).append(": Error in applying operation '")
                                .append(rule).append("': ").append(e.getMessage()).append(". ");
                    } else if (!syntaxError) {
                        errors.append(name).append(':').append(lineNumber).append(": ").append(e.getMessage())
                                .append(". ");
                        syntaxError = true;
                    }
                }
            }
        }
        if (errors.length() > 0) {
            errors.append("WARNING: ACL errors detected, no change to the previously active ACL rules was performed");
            throw new LoadException(errors.toString());
        }
        return users;
    }

    /** ACL SAVE: every user's ACL LIST line, written to a temporary file renamed over {@code path}. */
    public static void save(Acl acl, Path path) throws IOException {
        StringBuilder out = new StringBuilder();
        for (User u : acl.users()) {
            out.append(Acl.describe(u)).append('\n');
        }
        Path absolute = path.toAbsolutePath();
        Path temp = Files.createTempFile(absolute.getParent(), absolute.getFileName() + ".", ".tmp");
        try {
            Files.write(temp, out.toString().getBytes(StandardCharsets.ISO_8859_1));
            Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
