package dev.ebb.server.command;

import dev.ebb.server.Client;

/**
 * Runs one command on the command loop thread. {@code argv[0]} is the command name as the
 * client sent it. User errors are replies written to {@code c.reply()}, never exceptions.
 */
@FunctionalInterface
public interface CommandHandler {
    void execute(Client c, byte[][] argv);
}
