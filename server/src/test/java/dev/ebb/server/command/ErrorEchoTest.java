package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors that echo a client's bytes send them back unchanged, whatever their encoding, and stop at
 * a NUL, as redis-server's {@code %s} formatting does. Replies are read as Latin-1, one char per byte.
 */
class ErrorEchoTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void unknownCommandShouldEchoNonAsciiBytesUnchanged() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR unknown command 'fo\u00c3\u00a9o', with args beginning with: 'x\u00e2\u0082\u00ac' \r\n",
                    s.call("fo\u00e9o", "x\u20ac"));
        }
    }

    @Test
    void unknownCommandShouldStopEchoingAtNul() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR unknown command 'fo', with args beginning with: 'a' \r\n", s.call("fo\u0000o", "a\u0000b"));
        }
    }

    @Test
    void unknownSubcommandShouldEchoNonAsciiBytesUnchanged() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR unknown subcommand '\u00c3\u00a9'. Try CONFIG HELP.\r\n", s.call("config", "\u00e9"));
        }
    }
}
