package dev.ebb.server.config;

/**
 * One {@code rename-command <from> <to>} line. The config layer only records it: the server applies it to the
 * command table at start-up and must reject it (with {@link ConfigException#at}) if {@code from} is not a command
 * ("No such command in rename-command") or {@code to} already is one ("Target command name already exists").
 *
 * @param from     the command's current name, as written (commands are case-insensitive)
 * @param to       the new name; empty means the command is removed
 * @param location where the line was read, for the error message
 */
public record RenamedCommand(String from, String to, ConfigLocation location) {
    /** True if the command is disabled rather than renamed ({@code rename-command FLUSHALL ""}). */
    public boolean disables() {
        return to.isEmpty();
    }
}
