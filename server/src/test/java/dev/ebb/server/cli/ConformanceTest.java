package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.cli.ConformanceScript.Exchange;
import dev.ebb.server.command.Commands;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Feeds every conformance script (src/test/resources/conformance/NAME.txt) through the real
 * redis-cli to the in-process server and compares what redis-cli prints with the transcript
 * recorded from a real redis-server 7 (NAME.expected), reply by reply and line by line.
 *
 * <p>Each script starts from an empty keyspace (the extension flushes every database before each
 * invocation). A script whose {@code #! requires} line names a command Ebb does not have yet is
 * skipped, saying which. On a mismatch the failure lists every command whose reply differs, with
 * its script line, the expected and the actual lines; the whole actual transcript is written to
 * target/conformance/NAME.actual for {@code diff}. To re-record after editing a script:
 * {@code server/src/test/conformance-record.sh NAME}.
 */
class ConformanceTest {
    private static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(60);
    /** Past this many differing replies the report stops listing them (they are all in NAME.actual). */
    private static final int MAX_LISTED = 40;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    static Stream<String> scripts() throws IOException {
        try (Stream<Path> files = Files.list(scriptDir())) {
            List<String> names = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".txt"))
                    .map(n -> n.substring(0, n.length() - ".txt".length()))
                    .sorted()
                    .toList();
            if (names.isEmpty()) {
                throw new IllegalStateException("no conformance scripts in " + scriptDir());
            }
            return names.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void repliesMatchTheRecordedRedisTranscript(String name) throws IOException {
        RedisCli cli = RedisCli.against(ebb.port());
        ConformanceScript script = ConformanceScript.load(scriptDir(), name);
        List<Exchange> expected = script.expected();
        List<String> missing = script.requires().stream().filter(c -> Commands.table().lookup(c) == null).toList();
        assumeTrue(missing.isEmpty(), () -> name + ".txt needs " + missing + ", which Ebb does not have yet");
        Path feed = Files.createTempFile("conformance-" + name, ".txt");

        RedisCli.Result result;
        try {
            Files.writeString(feed, script.feed(), StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(List.of("--no-raw"));
            args.addAll(script.options());
            result = cli.runWithInput(feed, SCRIPT_TIMEOUT, args.toArray(String[]::new));
        } finally {
            Files.deleteIfExists(feed);
        }
        List<Exchange> actual = script.parseOutput(result.stdout());

        Path actualFile = writeActual(name, actual);
        String report = mismatches(script, expected, actual);
        if (!report.isEmpty()) {
            Path recorded = Path.of("src", "test", "resources", "conformance", name + ".expected");
            fail(report + "\nThe whole transcript: diff " + recorded.toAbsolutePath() + " "
                    + actualFile.toAbsolutePath()
                    + (result.stderr().isEmpty() ? "" : "\nredis-cli stderr:\n" + RedisCli.tail(result.stderr())));
        }
        assertEquals("", result.stderr(), () -> "redis-cli wrote to stderr: " + result.describe());
        assertEquals(0, result.exitCode(), result::describe);
    }

    /** Every command whose reply differs, or "" when all match. */
    private static String mismatches(ConformanceScript script, List<Exchange> expected, List<Exchange> actual) {
        StringBuilder sb = new StringBuilder();
        int differing = 0;
        int n = Math.max(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            Exchange want = i < expected.size() ? expected.get(i) : null;
            Exchange got = i < actual.size() ? actual.get(i) : null;
            if (want != null && got != null && want.command().equals(got.command())
                    && want.reply().equals(got.reply())) {
                continue;
            }
            differing++;
            if (differing > MAX_LISTED) {
                continue;
            }
            Exchange shown = want != null ? want : got;
            sb.append("  line ").append(shown.command().line()).append(": ").append(shown.command().text())
                    .append('\n');
            if (got != null && want != null && !want.command().equals(got.command())) {
                sb.append("    (redis-cli's output is out of step: this reply belongs to line ")
                        .append(got.command().line()).append(": ").append(got.command().text()).append(")\n");
            }
            appendReply(sb, "expected", want == null ? null : want.reply());
            appendReply(sb, "actual  ", got == null ? null : got.reply());
        }
        if (differing == 0) {
            return "";
        }
        if (differing > MAX_LISTED) {
            sb.append("  ... and ").append(differing - MAX_LISTED).append(" more\n");
        }
        return script.name() + ".txt: " + differing + " of " + expected.size()
                + " commands differ from the recorded Redis replies:\n" + sb;
    }

    private static void appendReply(StringBuilder sb, String label, List<String> reply) {
        if (reply == null) {
            sb.append("    ").append(label).append(": (nothing: redis-cli stopped before this command)\n");
            return;
        }
        if (reply.isEmpty()) {
            sb.append("    ").append(label).append(": (no output)\n");
            return;
        }
        String indent = " ".repeat(label.length() + 6);
        for (int i = 0; i < reply.size(); i++) {
            sb.append(i == 0 ? "    " + label + ": " : indent).append(reply.get(i)).append('\n');
        }
    }

    private static Path writeActual(String name, List<Exchange> actual) throws IOException {
        Path dir = Path.of("target", "conformance");
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".actual");
        Files.writeString(file, ConformanceScript.render(actual), StandardCharsets.UTF_8);
        return file;
    }

    private static Path scriptDir() {
        URL url = ConformanceTest.class.getResource("/conformance");
        if (url == null) {
            throw new IllegalStateException("src/test/resources/conformance is not on the test classpath");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad resource URL " + url, e);
        }
    }
}
