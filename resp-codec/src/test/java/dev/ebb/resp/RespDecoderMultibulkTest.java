package dev.ebb.resp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.ebb.resp.DecoderHarness.bytes;
import static dev.ebb.resp.DecoderHarness.command;
import static dev.ebb.resp.DecoderHarness.decodeEverySplit;
import static dev.ebb.resp.DecoderHarness.multibulk;
import static dev.ebb.resp.DecoderHarness.replyError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Multibulk requests: well-formed input at every split, and every malformed case with the exact
 * reply of a real redis-server 7.0.15 (checked by sending the same bytes to it).
 */
class RespDecoderMultibulkTest {

    @Test
    void decodesOneCommand() {
        List<String> emitted = decodeEverySplit(bytes("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n"), true);

        assertEquals(List.of(command("SET", "key", "value")), emitted);
    }

    @Test
    void decodesPipelinedCommandsInOrderAndIgnoresEmptyAndNegativeCounts() {
        String input = multibulk("SET", "a", "1") + "*0\r\n" + multibulk("GET", "a") + "*-1\r\n"
            + "*-9223372036854775808\r\n" + multibulk("PING") + multibulk("DEL", "a", "b", "c");

        List<String> emitted = decodeEverySplit(bytes(input), true);

        assertEquals(List.of(command("SET", "a", "1"), command("GET", "a"), command("PING"),
            command("DEL", "a", "b", "c")), emitted);
    }

    @Test
    void decodesHeadersOfOneToFourDigitsAndCountsOfTwo() {
        String[] args = new String[12];
        args[0] = "RPUSH";
        for (int i = 1; i < args.length; i++) {
            args[i] = "v".repeat(new int[] {0, 1, 9, 10, 12, 99, 100, 123, 999, 1000, 1234}[i - 1]);
        }

        List<String> emitted = decodeEverySplit(bytes(multibulk(args) + multibulk("PING")), true);

        assertEquals(List.of(command(args), command("PING")), emitted);
    }

    @Test
    void keepsArgumentsBinarySafe() {
        StringBuilder value = new StringBuilder();
        for (int b = 0; b < 256; b++) {
            value.append((char) b);
        }
        value.append("\r\n*1\r\n$4\r\n");

        List<String> emitted = decodeEverySplit(bytes(multibulk("SET", "k", value.toString())), true);

        assertEquals(List.of(command("SET", "k", value.toString())), emitted);
    }

    @Test
    void decodesEmptyArguments() {
        List<String> emitted = decodeEverySplit(bytes("*3\r\n$0\r\n\r\n$1\r\nx\r\n$0\r\n\r\n"), true);

        assertEquals(List.of(command("", "x", "")), emitted);
    }

    @Test
    void decodesCommandsWithMoreArgumentsThanTheInitialArgvCapacity() {
        int count = RespDecoder.INITIAL_ARGV_CAPACITY * 2 + 3;
        String[] args = new String[count];
        for (int i = 0; i < count; i++) {
            args[i] = Integer.toString(i);
        }
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes(multibulk(args)));

        assertEquals(List.of(command(args)), harness.emitted());
        assertTrue(harness.decoder.betweenCommands());
        harness.finish();
    }

    @Test
    void skipsTheTwoBytesAfterAnArgumentWithoutCheckingThemAsRedisDoes() {
        List<String> emitted = decodeEverySplit(bytes("*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n"), true);

        assertEquals(List.of(command("PING"), command("PING")), emitted);
    }

    @Test
    void skipsTheByteAfterAHeaderCarriageReturnWithoutCheckingItAsRedisDoes() {
        List<String> emitted = decodeEverySplit(bytes("*1\rX$4\rXPING\r\n"), true);

        assertEquals(List.of(command("PING")), emitted);
    }

    @Test
    void waitsForTheByteAfterTheCarriageReturnBeforeActingOnAHeader() {
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*1\r"));
        harness.feed(bytes("\n$x\r"));

        assertEquals(List.of(), harness.emitted());
        assertFalse(harness.decoder.discarding());
        harness.feed(bytes("\n"));
        assertEquals(List.of(replyError("ERR Protocol error: invalid bulk length")), harness.emitted());
        harness.finish();
    }

    @Test
    void acceptsTheLargestMultibulkCountRedisAccepts() {
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*2147483647\r\n$4\r\nPING\r\n"));

        assertEquals(List.of(), harness.emitted());
        assertFalse(harness.decoder.discarding());
        harness.finish();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*x\r\n", "*\r\n", "*+1\r\n", "*01\r\n", "*1 \r\n", "* 1\r\n", "*-0\r\n",
        "*2147483648\r\n", "*99999999999999999999\r\n", "*1\n$4\r\nPING\r\n"})
    void rejectsInvalidMultibulkCounts(String input) {
        List<String> emitted = decodeEverySplit(bytes(input + multibulk("PING")), false);

        assertEquals(List.of(replyError("ERR Protocol error: invalid multibulk length")), emitted);
    }

    @ParameterizedTest
    @ValueSource(strings = {"$x", "$", "$-1", "$-0", "$+4", "$01", "$4 ", "$536870913", "$9223372036854775808",
        "$4\nPING"})
    void rejectsInvalidBulkLengths(String header) {
        List<String> emitted = decodeEverySplit(bytes("*1\r\n" + header + "\r\n"), false);

        assertEquals(List.of(replyError("ERR Protocol error: invalid bulk length")), emitted);
    }

    @Test
    void acceptsABulkLengthEqualToProtoMaxBulkLen() {
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*1\r\n$536870912\r\nabc"));

        assertEquals(List.of(), harness.emitted());
        assertFalse(harness.decoder.discarding());
        harness.finish();
    }

    @Test
    void appliesAChangedProtoMaxBulkLenToTheNextHeader() {
        RespLimits limits = new RespLimits();
        DecoderHarness harness = new DecoderHarness(limits);
        harness.feed(bytes(multibulk("SET", "k", "0123456789")));

        limits.protoMaxBulkLen(9);
        harness.feed(bytes(multibulk("SET", "k", "0123456789")));

        assertEquals(List.of(command("SET", "k", "0123456789"),
            replyError("ERR Protocol error: invalid bulk length")), harness.emitted());
        harness.finish();
    }

    @Test
    void rejectsAnArgumentHeaderWithoutDollarNamingTheByte() {
        List<String> emitted = decodeEverySplit(bytes("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n"), false);

        assertEquals(List.of(replyError("ERR Protocol error: expected '$', got 'f'")), emitted);
    }

    @Test
    void reportsACarriageReturnInPlaceOfDollarAsASpaceAsRedisDoes() {
        List<String> emitted = decodeEverySplit(bytes("*1\r\n\r\n"), false);

        assertEquals(List.of(replyError("ERR Protocol error: expected '$', got ' '")), emitted);
    }

    @Test
    void reportsANonAsciiByteInPlaceOfDollarAsThatByte() {
        List<String> emitted = decodeEverySplit(bytes("*1\r\n\u00ffabc\r\n"), false);

        assertEquals(List.of(replyError("ERR Protocol error: expected '$', got '\u00ff'")), emitted);
    }

    @Test
    void emitsCommandsBeforeAnErrorAndNothingAfterIt() {
        String input = multibulk("PING") + "*1\r\nx\r\n" + multibulk("PING");

        List<String> emitted = decodeEverySplit(bytes(input), false);

        assertEquals(List.of(command("PING"), replyError("ERR Protocol error: expected '$', got 'x'")), emitted);
    }

    @Test
    void discardsEverythingAfterAnError() {
        DecoderHarness harness = new DecoderHarness();
        harness.feed(bytes("*x\r\n"));

        harness.feed(bytes(multibulk("PING") + "PING\r\n"));

        assertEquals(List.of(replyError("ERR Protocol error: invalid multibulk length")), harness.emitted());
        assertTrue(harness.decoder.discarding());
        assertEquals(0, harness.decoder.cumulatedBytes());
        harness.finish();
    }

    @Test
    void rejectsAMultibulkCountLineLongerThan64KilobytesWithoutCarriageReturn() {
        String digits = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH, "1"));

        List<String> emitted = decodeInChunks(bytes("*" + digits), 1000);

        assertEquals(List.of(replyError("ERR Protocol error: too big mbulk count string")), emitted);
    }

    @Test
    void acceptsACarriageReturnAsTheLastOfTheFirst64KilobytesPlusOne() {
        String digits = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH - 1, "1"));

        List<String> emitted = decodeInChunks(bytes("*" + digits + "\r\n"), 1000);

        assertEquals(List.of(replyError("ERR Protocol error: invalid multibulk length")), emitted);
    }

    @Test
    void rejectsABulkLengthLineLongerThan64KilobytesWithoutCarriageReturn() {
        String filler = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH + 1, "x"));

        List<String> emitted = decodeInChunks(bytes("*1\r\n" + filler), 1000);

        assertEquals(List.of(replyError("ERR Protocol error: too big bulk count string")), emitted);
    }

    @Test
    void waitsWhileAnUnterminatedHeaderLineIsWithin64Kilobytes() {
        String filler = String.join("", Collections.nCopies(RespDecoder.MAX_LINE_LENGTH, "x"));
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*1\r\n" + filler));

        assertEquals(List.of(), harness.emitted());
        assertFalse(harness.decoder.discarding());
        harness.finish();
    }

    /** Decodes whole, in chunks of {@code chunk} bytes, and split around the 64 KB boundary; all must agree. */
    static List<String> decodeInChunks(byte[] input, int chunk) {
        DecoderHarness whole = new DecoderHarness();
        List<String> expected = new ArrayList<>(whole.feed(input));
        whole.finish();
        DecoderHarness chunked = new DecoderHarness();
        for (int from = 0; from < input.length; from += chunk) {
            chunked.feed(input, from, Math.min(input.length, from + chunk));
        }
        assertEquals(expected, chunked.emitted(), "chunks of " + chunk);
        chunked.finish();
        for (int split = RespDecoder.MAX_LINE_LENGTH - 2; split <= RespDecoder.MAX_LINE_LENGTH + 2; split++) {
            if (split > 0 && split < input.length) {
                DecoderHarness harness = new DecoderHarness();
                harness.feed(input, 0, split);
                harness.feed(input, split, input.length);
                assertEquals(expected, harness.emitted(), "split at " + split);
                harness.finish();
            }
        }
        return expected;
    }
}
