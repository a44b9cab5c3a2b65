package dev.ebb.resp;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.ebb.resp.DecoderHarness.bytes;
import static dev.ebb.resp.DecoderHarness.command;
import static dev.ebb.resp.DecoderHarness.error;
import static dev.ebb.resp.DecoderHarness.multibulk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory the decoder holds for large and hostile requests, and client-query-buffer-limit. */
class RespDecoderLimitsTest {
    private static final int READ_SIZE = 64 * 1024;

    @Test
    void holdsAtMostOneMegabyteForAHugeDeclaredBulkThatDoesNotArrive() {
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$536870912\r\n" + "x".repeat(100)));

        assertTrue(harness.decoder.retainedArgumentBytes() <= RespDecoder.EAGER_BULK_ALLOCATION + 4,
            "retained " + harness.decoder.retainedArgumentBytes());
        assertEquals(0, harness.decoder.cumulatedBytes());
        assertEquals(List.of(), harness.emitted());
        harness.finish();
    }

    @Test
    void growsAHugeBulkWithWhatArrivesAndEndsWithAnExactSizeArgument() {
        int declared = 6 * 1024 * 1024;
        byte[] value = randomBytes(declared, 7);
        byte[] header = bytes("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + declared + "\r\n");
        DecoderHarness harness = new DecoderHarness();
        harness.feed(header);
        long arrived = 0;

        for (int from = 0; from < declared; from += READ_SIZE) {
            harness.feed(value, from, Math.min(declared, from + READ_SIZE));
            arrived += Math.min(READ_SIZE, declared - from);
            long retained = harness.decoder.retainedArgumentBytes() - "SETk".length();
            assertTrue(retained >= arrived, "retained " + retained + " < arrived " + arrived);
            assertTrue(retained <= Math.max(RespDecoder.EAGER_BULK_ALLOCATION, 4 * arrived) + 2,
                "retained " + retained + " for arrived " + arrived);
            assertEquals(0, harness.decoder.cumulatedBytes(), "argument bytes must not wait in the cumulation");
        }
        harness.feed(bytes("\r\n"));

        byte[][] argv = singleCommand(harness);
        assertEquals(declared, argv[2].length);
        assertArrayEquals(value, argv[2]);
        harness.finish();
    }

    @Test
    void allocatesALargeBulkOfAtMostOneMegabyteOnceAtItsHeaderAndFillsItAcrossReads() {
        int declared = 300 * 1024;
        byte[] value = randomBytes(declared, 11);
        DecoderHarness harness = new DecoderHarness();

        harness.feed(bytes("*2\r\n$3\r\nSET\r\n$" + declared + "\r\n"));
        assertEquals(3 + declared, harness.decoder.retainedArgumentBytes(), "exact array allocated at the header");
        for (int from = 0; from < declared; from += 1000) {
            harness.feed(value, from, Math.min(declared, from + 1000));
            assertEquals(3 + declared, harness.decoder.retainedArgumentBytes(), "no regrowth");
            assertEquals(0, harness.decoder.cumulatedBytes());
        }
        harness.feed(bytes("\r\n"));

        assertArrayEquals(value, singleCommand(harness)[1]);
        harness.finish();
    }

    @Test
    void decodesALargeBulkIdenticallyWhateverTheReadBoundaries() {
        byte[] value = randomBytes(RespDecoder.EAGER_BULK_ALLOCATION / 32, 3);
        byte[] input = concat(bytes("*2\r\n$4\r\nECHO\r\n$" + value.length + "\r\n"), value, bytes("\r\n" + multibulk("PING")));
        Random random = new Random(5);

        for (int round = 0; round < 12; round++) {
            DecoderHarness harness = new DecoderHarness();
            int from = 0;
            while (from < input.length) {
                int to = Math.min(input.length, from + 1 + random.nextInt(round < 4 ? 10 : 20_000));
                harness.feed(input, from, to);
                from = to;
            }
            assertEquals(2, harness.messages().size(), "round " + round);
            assertArrayEquals(value, ((byte[][]) harness.messages().get(0))[1], "round " + round);
            assertEquals(command("PING"), harness.emitted().get(1));
            assertTrue(harness.decoder.betweenCommands());
            harness.finish();
        }
    }

    @Test
    void closesSilentlyWhenAnInlineLineExceedsTheQueryBufferLimit() {
        RespLimits limits = new RespLimits();
        limits.clientQueryBufferLimit(1000);
        DecoderHarness harness = new DecoderHarness(limits);

        harness.feed(bytes("x".repeat(600)));
        assertEquals(List.of(), harness.emitted());
        harness.feed(bytes("x".repeat(600)));

        assertEquals(1, harness.emitted().size());
        assertTrue(harness.emitted().get(0).endsWith(", false)"), harness.emitted().get(0));
        assertTrue(harness.decoder.discarding());
        assertEquals(0, harness.decoder.cumulatedBytes());
        harness.finish();
    }

    @Test
    void closesSilentlyBeforeCopyingBulkBytesPastTheQueryBufferLimit() {
        RespLimits limits = new RespLimits();
        limits.clientQueryBufferLimit(1000);
        DecoderHarness harness = new DecoderHarness(limits);
        harness.feed(bytes("*2\r\n$3\r\nSET\r\n$5000\r\n"));
        assertTrue(harness.decoder.retainedArgumentBytes() <= 1000,
            "allocation capped by the limit: " + harness.decoder.retainedArgumentBytes());

        harness.feed(bytes("y".repeat(900)));
        assertEquals(List.of(), harness.emitted());
        harness.feed(bytes("y".repeat(200)));

        assertEquals(List.of(error("closing client that reached max query buffer length: buffered=1120"
            + " client-query-buffer-limit=1000", false)), harness.emitted());
        assertEquals(0, harness.decoder.retainedArgumentBytes());
        harness.finish();
    }

    @Test
    void countsEveryWireByteOfTheUnfinishedCommandSoEmptyArgumentsCannotEvadeTheLimit() {
        RespLimits limits = new RespLimits();
        limits.clientQueryBufferLimit(1000);
        DecoderHarness harness = new DecoderHarness(limits);

        harness.feed(bytes("*1000000\r\n" + "$0\r\n\r\n".repeat(300)));

        assertEquals(1, harness.emitted().size());
        assertTrue(harness.emitted().get(0).endsWith(", false)"));
        harness.finish();
    }

    @Test
    void letsCompleteCommandsLargerThanAReadThroughWhenUnderTheLimit() {
        RespLimits limits = new RespLimits();
        limits.clientQueryBufferLimit(10_000);
        DecoderHarness harness = new DecoderHarness(limits);
        String value = "v".repeat(9_000);

        harness.feed(bytes(multibulk("SET", "k", value) + multibulk("SET", "k", value)));

        assertEquals(List.of(command("SET", "k", value), command("SET", "k", value)), harness.emitted());
        harness.finish();
    }

    @Test
    void appliesAChangedQueryBufferLimitToTheNextRead() {
        RespLimits limits = new RespLimits();
        DecoderHarness harness = new DecoderHarness(limits);
        harness.feed(bytes("*2\r\n$3\r\nSET\r\n$100000\r\n" + "z".repeat(5000)));

        limits.clientQueryBufferLimit(8000);
        harness.feed(bytes("z".repeat(5000)));

        assertEquals(1, harness.emitted().size());
        assertTrue(harness.emitted().get(0).endsWith(", false)"));
        harness.finish();
    }

    @Test
    void rejectsNonPositiveLimits() {
        RespLimits limits = new RespLimits();

        IllegalArgumentException bulk = assertThrows(IllegalArgumentException.class,
            () -> limits.protoMaxBulkLen(0));
        IllegalArgumentException query = assertThrows(IllegalArgumentException.class,
            () -> limits.clientQueryBufferLimit(-5));

        assertTrue(bulk.getMessage().contains("protoMaxBulkLen=0"));
        assertTrue(query.getMessage().contains("clientQueryBufferLimit=-5"));
        assertEquals(RespLimits.DEFAULT_PROTO_MAX_BULK_LEN, limits.protoMaxBulkLen());
        assertEquals(RespLimits.DEFAULT_CLIENT_QUERY_BUFFER_LIMIT, limits.clientQueryBufferLimit());
    }

    @Test
    void doesNotEmitAnythingForAPartialCommandWhenTheConnectionCloses() {
        DecoderHarness harness = new DecoderHarness();
        harness.feed(bytes("*2\r\n$3\r\nGET\r\n$3\r\nke"));

        List<String> emitted = harness.finish();

        assertEquals(List.of(), emitted);
        assertFalse(harness.decoder.discarding());
    }

    private static byte[][] singleCommand(DecoderHarness harness) {
        assertEquals(1, harness.messages().size(), "one command expected: " + harness.emitted());
        return assertInstanceOf(byte[][].class, harness.messages().get(0));
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
