package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Commands;
import dev.ebb.server.embedded.EbbExtension;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * redis-cli's interactive prompt, as a person uses it: under a pseudo-terminal made by util-linux
 * {@code script}, with the terminal size set so that linenoise needs no cursor-position answer.
 * redis-cli 7 builds its help and its as-you-type hints from the server's COMMAND DOCS reply when
 * it starts (and falls back to a table compiled into it when the server has none), so these
 * checks exercise Ebb's documentation rows, not only redis-cli.
 *
 * <p>linenoise discards keys typed before it shows a prompt, so every step waits for the next
 * prompt before typing on.
 */
class RedisCliInteractiveTest {
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern ESCAPE_SEQUENCE = Pattern.compile("\u001b\\[[0-9;?]*[A-Za-z]");

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void helpHintsAndCommandsWorkAtThePrompt() {
        RedisCli cli = RedisCli.against(ebb.port());
        String script = RedisCli.requireOnPath("script", "util-linux (Debian: bsdutils)");
        String prompt = "127.0.0.1:" + ebb.port() + "> ";
        Pattern nextPrompt = Pattern.compile("\\n" + Pattern.quote(prompt));
        String shellCommand = "stty cols 250 rows 50; exec " + cli.command().stream()
                .map(RedisCliInteractiveTest::shellQuote).collect(Collectors.joining(" "));
        List<String> command = List.of(script, "-q", "-c", shellCommand, "/dev/null");
        CommandSpec set = Commands.table().lookup("set");

        try (LiveProcess session = LiveProcess.start(RedisCli.builder(command), command)) {
            session.await(0, Pattern.compile(Pattern.quote(prompt)), STEP_TIMEOUT);

            int mark = session.mark();
            session.type("help set\r");
            String help = plain(session.await(mark, Pattern.compile("group:[^\\n]*\\n(?s).*" + nextPrompt),
                    STEP_TIMEOUT));
            String helpShown = "help set printed:\n" + help
                    + "\n(redis-cli shows its built-in help instead of the server's when COMMAND DOCS fails)";
            assertTrue(Pattern.compile("(?m)^\\s*SET key value").matcher(help).find(), helpShown);
            assertTrue(help.contains("summary: " + set.summary()), helpShown);
            assertTrue(help.contains("since: " + set.since()), helpShown);
            assertTrue(help.contains("group: " + set.group().docName()), helpShown);

            mark = session.mark();
            session.type("set k v\r");
            String typed = session.await(mark, Pattern.compile("\\nOK\\r?" + nextPrompt), STEP_TIMEOUT);
            assertTrue(plain(typed).contains(prompt + "set key value"),
                    () -> "no hint 'key value' while typing 'set ':\n" + LiveProcess.visible(typed));

            mark = session.mark();
            session.type("get k\r");
            session.await(mark, Pattern.compile("\\n\"v\"\\r?" + nextPrompt), STEP_TIMEOUT);

            mark = session.mark();
            session.type("incr k\r");
            session.await(mark, Pattern.compile("\\n\\(error\\) ERR value is not an integer or out of range\\r?"
                    + nextPrompt), STEP_TIMEOUT);

            session.type("quit\r");
            assertEquals(0, session.awaitExit(STEP_TIMEOUT), () -> LiveProcess.visible(session.output()));
        }
    }

    /** Terminal output without colour and cursor-movement escape sequences. */
    private static String plain(String terminalOutput) {
        return ESCAPE_SEQUENCE.matcher(terminalOutput).replaceAll("");
    }

    private static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
