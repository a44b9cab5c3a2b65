package dev.ebb.resp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Collections;
import java.util.List;

import static dev.ebb.resp.DecoderHarness.bytes;
import static dev.ebb.resp.DecoderHarness.command;
import static dev.ebb.resp.DecoderHarness.decodeEverySplit;
import static dev.ebb.resp.DecoderHarness.multibulk;
import static dev.ebb.resp.DecoderHarness.replyError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Inline requests. Expected arguments were checked against a real redis-server 7.0.15 by sending
 * {@code ECHO <argument>} (or the whole line) and reading back what it echoed.
 */
class RespDecoderInlineTest {

    @Test
    void splitsALineEndingInCrLf() {
        assertEquals(List.of(command("SET", "key", "value")), decodeEverySplit(bytes("SET key value\r\n"), true));
    }

    @Test
    void acceptsALineEndingInABareLineFeed() {
        assertEquals(List.of(command("PING")), decodeEverySplit(bytes("PING\n"), true));
    }

    @Test
    void stripsOnlyOneCarriageReturnAndTreatsAnotherAsASeparator() {
        assertEquals(List.of(command("PING")), decodeEverySplit(bytes("PING\r\r\n"), true));
        assertEquals(List.of(command("ECHO", "x", "A")), decodeEverySplit(bytes("ECHO x\rA\r\n"), true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\r\n", "\n", "   \r\n", " \t \n", "\u000b\u000c\r\n"})
    void ignoresBlankLines(String line) {
        assertEquals(List.of(command("PING")), decodeEverySplit(bytes(line + "PING\r\n"), true));
    }

    @Test
    void collapsesRunsOfSpacesAndTabs() {
        assertEquals(List.of(command("ECHO", "x")), decodeEverySplit(bytes("  ECHO \t x  \r\n"), true));
    }

    @Test
    void endsUnquotedArgumentsOnlyAtSpaceTabCrOrLfNotAtVerticalTabOrFormFeed() {
        assertEquals(List.of(command("ECHO", "a\u000bb")), decodeEverySplit(bytes("ECHO a\u000bb\r\n"), true));
        assertEquals(List.of(command("ECHO\u000ba")), decodeEverySplit(bytes("ECHO\u000ba\r\n"), true));
    }

    @Test
    void unescapesInsideDoubleQuotes() {
        List<String> emitted = decodeEverySplit(bytes("ECHO \"a\\x41\\x4g\\n\\r\\t\\b\\a\\\\\\\"\\q\"\r\n"), true);

        assertEquals(List.of(command("ECHO", "aAx4g\n\r\t\b\u0007\\\"q")), emitted);
    }

    @Test
    void readsHexEscapesInEitherCase() {
        assertEquals(List.of(command("ECHO", "\u00ff\u00ab")), decodeEverySplit(bytes("ECHO \"\\xff\\xAb\"\r\n"), true));
    }

    @Test
    void keepsBackslashesLiteralInsideSingleQuotesExceptBeforeAQuote() {
        assertEquals(List.of(command("ECHO", "a'b")), decodeEverySplit(bytes("ECHO 'a\\'b'\r\n"), true));
        assertEquals(List.of(command("ECHO", "a\\nb")), decodeEverySplit(bytes("ECHO 'a\\nb'\r\n"), true));
        assertEquals(List.of(command("ECHO", "a\\\\b")), decodeEverySplit(bytes("ECHO 'a\\\\b'\r\n"), true));
    }

    @Test
    void keepsRawCarriageReturnsInsideQuotes() {
        assertEquals(List.of(command("ECHO", "x\rA")), decodeEverySplit(bytes("ECHO \"x\rA\"\r\n"), true));
    }

    @Test
    void opensAQuoteInTheMiddleOfAnArgument() {
        assertEquals(List.of(command("ECHO", "ab c")), decodeEverySplit(bytes("ECHO a\"b c\"\r\n"), true));
    }

    @Test
    void yieldsEmptyArgumentsForEmptyQuotes() {
        assertEquals(List.of(command("ECHO", "", "")), decodeEverySplit(bytes("ECHO \"\" ''\r\n"), true));
    }

    @Test
    void acceptsAnyWhitespaceAfterAClosingQuote() {
        assertEquals(List.of(command("ECHO", "a", "b")), decodeEverySplit(bytes("ECHO \"a\"\tb\r\n"), true));
        assertEquals(List.of(command("ECHO", "a", "b")), decodeEverySplit(bytes("ECHO \"a\"\u000bb\r\n"), true));
        assertEquals(List.of(command("ECHO", "a")), decodeEverySplit(bytes("ECHO \"a\"\u000c\r\n"), true));
    }

    @Test
    void keepsNonAsciiBytesAsTheyAre() {
        assertEquals(List.of(command("ECHO", "\u00c3\u00a9")), decodeEverySplit(bytes("ECHO \u00c3\u00a9\r\n"), true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ECHO \"abc\r\n", "ECHO \"a\\\"\r\n", "ECHO 'abc\r\n", "ECHO \"a\"b\r\n", "ECHO 'a'b\r\n",
        "ECHO a\"b\"c\r\n", "ECHO \"a\"'b'\r\n", "ECHO \"abc\\\r\n"})
    void rejectsUnbalancedQuotes(String line) {
        List<String> emitted = decodeEverySplit(bytes(line + "PING\r\n"), false);

        assertEquals(List.of(replyError("ERR Protocol error: unbalanced quotes in request")), emitted);
    }

    @Test
    void decodesPipelinedMixesOfInlineAndMultibulkInOrder() {
        String input = multibulk("PING") + "PING\r\n\r\nPING\n" + multibulk("PING") + "SET a \"b c\"\n"
            + multibulk("GET", "a");

        List<String> emitted = decodeEverySplit(bytes(input), true);

        assertEquals(List.of(command("PING"), command("PING"), command("PING"), command("PING"),
            command("SET", "a", "b c"), command("GET", "a")), emitted);
    }

    @Test
    void acceptsAnInlineLineOf64KilobytesBeforeItsNewline() {
        String value = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH - 5, "x"));

        List<String> emitted = RespDecoderMultibulkTest.decodeInChunks(bytes("ECHO " + value + "\n"), 1000);

        assertEquals(List.of(command("ECHO", value)), emitted);
    }

    @Test
    void rejectsAnInlineLineLongerThan64KilobytesWithoutNewline() {
        String line = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH + 1, "x"));

        List<String> emitted = RespDecoderMultibulkTest.decodeInChunks(bytes(line), 1000);

        assertEquals(List.of(replyError("ERR Protocol error: too big inline request")), emitted);
    }

    @Test
    void waitsForTheNewlineOfAnInlineLineWithin64Kilobytes() {
        String line = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH, "x"));
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes(line));

        assertEquals(List.of(), harness.emitted());
        assertFalse(harness.decoder.discarding());
        harness.finish();
    }

    @Test
    void acceptsAnInlineLineOf70KilobytesThatArrivesInOneRead() {
        String value = "x".repeat(70 * 1024);
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("ECHO " + value + "\r\n"));

        assertEquals(List.of(command("ECHO", value)), harness.emitted());
        harness.finish();
    }

    @Test
    void refusesAnInlineLineOnceMoreThan64KilobytesOfItArrivedWithoutNewline() {
        byte[] line = bytes("ECHO " + "x".repeat(70 * 1024) + "\r\n");
        DecoderHarness harness = new DecoderHarness();

        harness.feed(line, 0, RespDecoder.MAX_LINE_LENGTH + 1);
        harness.feed(line, RespDecoder.MAX_LINE_LENGTH + 1, line.length);

        assertEquals(List.of(replyError("ERR Protocol error: too big inline request")), harness.emitted());
        harness.finish();
    }

    @Test
    void acceptsALineWhoseNewlineEndsItsFirst160KilobytesWhenItArrivesAtOnce() {
        String value = "x".repeat(160 * 1024 - "ECHO \r\n".length());
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("ECHO " + value + "\r\n"));

        assertEquals(List.of(command("ECHO", value)), harness.emitted());
        harness.finish();
    }

    @Test
    void refusesALineWhoseNewlineIsPastItsFirst160KilobytesEvenWhenItArrivesAtOnce() {
        String value = "x".repeat(160 * 1024 - "ECHO \r\n".length() + 1);
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("ECHO " + value + "\r\n"));

        assertEquals(List.of(replyError("ERR Protocol error: too big inline request")), harness.emitted());
        harness.finish();
    }

    @Test
    void judgesHeaderLinesByTheSameBufferedInputRule() {
        String digits = "1".repeat(70 * 1024);
        DecoderHarness whole = new DecoderHarness();
        DecoderHarness split = new DecoderHarness();

        whole.feed(bytes("*1\r\n$" + digits + "\r\n"));
        byte[] input = bytes("*1\r\n$" + digits + "\r\n");
        split.feed(input, 0, 4 + RespDecoder.MAX_LINE_LENGTH + 1);
        split.feed(input, 4 + RespDecoder.MAX_LINE_LENGTH + 1, input.length);

        assertEquals(List.of(replyError("ERR Protocol error: invalid bulk length")), whole.emitted());
        assertEquals(List.of(replyError("ERR Protocol error: too big bulk count string")), split.emitted());
        whole.finish();
        split.finish();
    }

    @Test
    void judgesALineThatArrivesAtOnceTheSameWhateverNettysReadSizes() {
        String value = "x".repeat(70 * 1024);
        byte[] line = bytes("ECHO " + value + "\r\n");

        for (int readSize : new int[] {2048, 16 * 1024, 32 * 1024, 60 * 1024, 64 * 1024}) {
            DecoderHarness harness = new DecoderHarness();

            harness.feedInReads(line, readSize);

            assertEquals(List.of(command("ECHO", value)), harness.emitted(), "reads of " + readSize);
            harness.finish();
        }
    }
}
