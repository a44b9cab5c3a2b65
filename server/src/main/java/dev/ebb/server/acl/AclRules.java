package dev.ebb.server.acl;

import java.util.ArrayList;
import java.util.List;

/** Parsing helpers for rule lists: ACL SETUSER's arguments, {@code user} lines, selector bodies. */
final class AclRules {
    private AclRules() {
    }

    /** The rules of a selector body {@code (~k* +get)}: split at spaces. */
    static List<String> splitArgs(String body) {
        List<String> rules = new ArrayList<>();
        for (String rule : body.trim().split("\\s+")) {
            if (!rule.isEmpty()) {
                rules.add(rule);
            }
        }
        return rules;
    }

    /**
     * Joins the arguments of a selector written over several arguments ({@code "(~k*" "+get)"}) into
     * one rule, as Redis's ACLMergeSelectorArguments.
     *
     * @throws AclRuleException with Redis's "Unmatched parenthesis" error text (the whole reply)
     */
    static List<String> mergeSelectors(List<String> args) throws AclRuleException {
        List<String> merged = new ArrayList<>(args.size());
        StringBuilder selector = null;
        String start = null;
        for (String arg : args) {
            if (selector != null) {
                selector.append(' ').append(arg);
                if (arg.endsWith(")")) {
                    merged.add(selector.toString());
                    selector = null;
                }
            } else if (arg.startsWith("(") && !arg.endsWith(")")) {
                selector = new StringBuilder(arg);
                start = arg;
            } else {
                merged.add(arg);
            }
        }
        if (selector != null) {
            throw new AclRuleException("ERR Unmatched parenthesis in acl selector starting at '" + start + "'.");
        }
        return merged;
    }
}
