package dev.ebb.server.config;

import java.util.List;

/**
 * One {@code user <name> [rule ...]} line of the config. The config layer only records it: the
 * server's ACL applies it (and refuses it with the line's location).
 */
public record ConfigUser(String name, List<String> rules, ConfigLocation location) {
    public ConfigUser {
        rules = List.copyOf(rules);
    }
}
