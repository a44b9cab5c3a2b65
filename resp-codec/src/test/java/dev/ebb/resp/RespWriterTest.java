package dev.ebb.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exact reply bytes in RESP2 and RESP3. The RESP3 type bytes and the RESP2 fallbacks match what a
 * real redis-server 7.0.15 sends for DEBUG PROTOCOL (string, integer, double, bignum, null, array,
 * set, map, push, verbatim, true, false) under HELLO 2 and HELLO 3.
 */
class RespWriterTest {
    private final RespWriter writer = new RespWriter(PooledByteBufAllocator.DEFAULT);

    @AfterEach
    void releasePending() {
        writer.release();
    }

    @Test
    void encodesSharedSimpleReplies() {
        assertReply("+OK\r\n", RespWriter::ok);
        assertReply("+PONG\r\n", RespWriter::pong);
        assertReply("+QUEUED\r\n", RespWriter::queued);
        assertReply("*0\r\n", RespWriter::emptyArray);
    }

    @Test
    void encodesSimpleStringsAndErrorsWithCrLfTurnedIntoSpaces() {
        assertReply("+hello world\r\n", w -> w.simple("hello world"));
        assertReply("-ERR syntax error\r\n", w -> w.error("ERR syntax error"));
        assertReply("-ERR bad  thing here\r\n", w -> w.error("ERR bad\r\nthing\rhere"));
        assertReply("+a b\r\n", w -> w.simple("a\nb"));
        assertReply("-ERR caf\u00c3\u00a9\r\n", w -> w.error("ERR caf\u00e9"));
    }

    @Test
    void escapedBytesShouldBeWrittenAsThemselvesAndOtherTextAsUtf8() {
        String text = "ERR '" + RespWriter.escapedByte((byte) 0xE9) + RespWriter.escapedByte((byte) 0xFF) + "' \u00e9\r";

        assertReply("-ERR '\u00e9\u00ff' \u00c3\u00a9 \r\n", w -> w.error(text));
        assertEquals('a', RespWriter.escapedByte((byte) 'a'));
    }

    @Test
    void shouldCountErrorsAndShowEachToTheObserver() {
        List<String> seen = new ArrayList<>();
        writer.error("ERR before");
        writer.observeErrors((message, repeated) -> seen.add(message + (repeated ? " (repeated)" : "")));
        writer.ok().error("WRONGTYPE Operation against a key holding the wrong kind of value").repeatedError("ERR x");
        writer.observeErrors(null);
        writer.error("ERR after");

        assertEquals(List.of("WRONGTYPE Operation against a key holding the wrong kind of value", "ERR x (repeated)"),
                seen);
        assertEquals(4, writer.errorReplies());
        assertEquals("-ERR before\r\n+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
                + "-ERR x\r\n-ERR after\r\n", decodeAndRelease(writer.take()));
    }

    @Test
    void encodesIntegersSharedAndComputed() {
        assertReply(":0\r\n", w -> w.integer(0));
        assertReply(":1\r\n", w -> w.integer(1));
        assertReply(":-1\r\n", w -> w.integer(-1));
        assertReply(":1023\r\n", w -> w.integer(1023));
        assertReply(":1024\r\n", w -> w.integer(1024));
        assertReply(":-2\r\n", w -> w.integer(-2));
        assertReply(":12345\r\n", w -> w.integer(12345));
        assertReply(":9223372036854775807\r\n", w -> w.integer(Long.MAX_VALUE));
        assertReply(":-9223372036854775808\r\n", w -> w.integer(Long.MIN_VALUE));
    }

    @Test
    void encodesBulkStrings() {
        assertReply("$11\r\nHello World\r\n", w -> w.bulk(ascii("Hello World")));
        assertReply("$0\r\n\r\n", w -> w.bulk(new byte[0]));
        assertReply("$3\r\nllo\r\n", w -> w.bulk(ascii("Hello"), 2, 3));
        assertReply("$4\r\n\r\n\u0000\u00ff\r\n", w -> w.bulk(new byte[] {'\r', '\n', 0, (byte) 0xff}));
        assertReply("$5\r\ncaf\u00c3\u00a9\r\n", w -> w.bulk("caf\u00e9"));
        assertReply("$20\r\n-9223372036854775808\r\n", w -> w.bulk(Long.MIN_VALUE));
        assertReply("$1\r\n7\r\n", w -> w.bulk(7));
        assertReply("$40\r\n" + "x".repeat(40) + "\r\n", w -> w.bulk("x".repeat(40)));
    }

    @Test
    void rejectsABulkSliceOutsideTheArray() {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> writer.bulk(new byte[4], 3, 2));

        assertTrue(e.getMessage().contains("off=3 len=2 length=4"), e.getMessage());
        assertFalse(writer.hasPending());
    }

    @Test
    void encodesNullsPerProtocol() {
        assertReply("$-1\r\n", w -> w.bulk((byte[]) null));
        assertReply("$-1\r\n", w -> w.bulk((String) null));
        assertReply("$-1\r\n", RespWriter::nullBulk);
        assertReply("*-1\r\n", RespWriter::nullArray);
        writer.protocol(3);
        assertReply("_\r\n", RespWriter::nullBulk);
        assertReply("_\r\n", RespWriter::nullArray);
        assertReply("_\r\n", w -> w.bulk((byte[]) null));
    }

    @Test
    void encodesAggregateHeadersInResp2() {
        assertReply("*3\r\n", w -> w.arrayHeader(3));
        assertReply("*31\r\n", w -> w.arrayHeader(31));
        assertReply("*32\r\n", w -> w.arrayHeader(32));
        assertReply("*1000000\r\n", w -> w.arrayHeader(1_000_000));
        assertReply("*6\r\n", w -> w.mapHeader(3));
        assertReply("*3\r\n", w -> w.setHeader(3));
        assertReply("*2\r\n", w -> w.pushHeader(2));
    }

    @Test
    void encodesAggregateHeadersInResp3() {
        writer.protocol(3);

        assertReply("*3\r\n", w -> w.arrayHeader(3));
        assertReply("%3\r\n", w -> w.mapHeader(3));
        assertReply("~3\r\n", w -> w.setHeader(3));
        assertReply(">2\r\n", w -> w.pushHeader(2));
        assertReply("%40\r\n", w -> w.mapHeader(40));
    }

    @Test
    void rejectsNegativeAggregateSizes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> writer.arrayHeader(-1));

        assertTrue(e.getMessage().contains("n=-1"));
        assertThrows(IllegalArgumentException.class, () -> writer.mapHeader(Integer.MAX_VALUE));
    }

    @Test
    void encodesBooleansPerProtocol() {
        assertReply(":1\r\n", w -> w.bool(true));
        assertReply(":0\r\n", w -> w.bool(false));
        writer.protocol(3);
        assertReply("#t\r\n", w -> w.bool(true));
        assertReply("#f\r\n", w -> w.bool(false));
    }

    @Test
    void encodesDoublesPerProtocol() {
        assertReply("$5\r\n3.141\r\n", w -> w.doubleValue(3.141));
        assertReply("$3\r\n0.1\r\n", w -> w.doubleValue(0.1));
        assertReply("$3\r\ninf\r\n", w -> w.doubleValue(Double.POSITIVE_INFINITY));
        assertReply("$5\r\n1e+20\r\n", w -> w.doubleValue(1e20));
        writer.protocol(3);
        assertReply(",3.141\r\n", w -> w.doubleValue(3.141));
        assertReply(",-inf\r\n", w -> w.doubleValue(Double.NEGATIVE_INFINITY));
        assertReply(",nan\r\n", w -> w.doubleValue(Double.NaN));
        assertReply(",1.5e-7\r\n", w -> w.doubleValue(1.5e-7));
    }

    @Test
    void encodesVerbatimStringsPerProtocol() {
        String text = "This is a verbatim\nstring";
        assertReply("$25\r\nThis is a verbatim\nstring\r\n", w -> w.verbatim(text));
        writer.protocol(3);
        assertReply("=29\r\ntxt:This is a verbatim\nstring\r\n", w -> w.verbatim(text));
        assertReply("=9\r\ntxt:caf\u00c3\u00a9\r\n", w -> w.verbatim("caf\u00e9"));
    }

    @Test
    void encodesBigNumbersPerProtocol() {
        String digits = "1234567999999999999999999999999999999";
        assertReply("$37\r\n" + digits + "\r\n", w -> w.bigNumber(digits));
        writer.protocol(3);
        assertReply("(" + digits + "\r\n", w -> w.bigNumber(digits));
    }

    @Test
    void encodesProtocolIndependentRepliesIdenticallyInResp3() {
        writer.protocol(3);

        assertReply("+OK\r\n", RespWriter::ok);
        assertReply("+hi\r\n", w -> w.simple("hi"));
        assertReply("-ERR x\r\n", w -> w.error("ERR x"));
        assertReply(":-7\r\n", w -> w.integer(-7));
        assertReply("$2\r\nab\r\n", w -> w.bulk("ab"));
        assertReply("$3\r\n100\r\n", w -> w.bulk(100));
        assertReply("*0\r\n", RespWriter::emptyArray);
    }

    @Test
    void appendsRawBytesAsTheyAre() {
        assertReply("*2\r\n$1\r\na\r\n:5\r\n", w -> w.raw(ascii("*2\r\n$1\r\na\r\n:5\r\n")));
    }

    @Test
    void accumulatesRepliesUntilTakenAndStartsAfresh() {
        writer.ok().integer(42).bulk("v").arrayHeader(2).bulk(ascii("a")).nullBulk();
        assertTrue(writer.hasPending());
        assertEquals(33, writer.pendingBytes());

        ByteBuf first = writer.take();

        assertFalse(writer.hasPending());
        assertEquals(0, writer.pendingBytes());
        assertNull(writer.take());
        assertEquals("+OK\r\n:42\r\n$1\r\nv\r\n*2\r\n$1\r\na\r\n$-1\r\n", decodeAndRelease(first));
        writer.pong();
        assertEquals("+PONG\r\n", decodeAndRelease(writer.take()));
    }

    @Test
    void largeRepliesShouldBeChainedInBlocksWithoutReencodingWhatCameBefore() {
        byte[] big = new byte[1 << 20];
        java.util.Arrays.fill(big, (byte) 'b');
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            writer.integer(100_000 + i);
            expected.append(':').append(100_000 + i).append("\r\n");
        }

        writer.ok().bulk(big).ok();

        ByteBuf taken = writer.take();
        assertTrue(taken instanceof io.netty.buffer.CompositeByteBuf, "several blocks come as one composite");
        assertTrue(((io.netty.buffer.CompositeByteBuf) taken).numComponents() >= 3);
        String text = decodeAndRelease(taken);
        assertEquals(expected + "+OK\r\n$1048576\r\n" + "b".repeat(big.length) + "\r\n+OK\r\n", text);
    }

    @Test
    void bulkRefShouldReferenceLargeValuesAndCopySmallOnes() {
        byte[] large = new byte[RespWriter.REFERENCE_MIN];
        java.util.Arrays.fill(large, (byte) 'a');
        byte[] small = ascii("small");

        writer.bulkRef(large).bulkRef(small);
        large[0] = 'Z';
        small[0] = 'Z';

        String reply = decodeAndRelease(writer.take());
        assertEquals("$" + large.length + "\r\nZ" + "a".repeat(large.length - 1) + "\r\n$5\r\nsmall\r\n", reply);
    }

    @Test
    void pendingBytesShouldCountReferencedValues() {
        byte[] value = new byte[100_000];

        writer.bulkRef(value).bulkRef(value).ok();

        assertEquals(2 * ("$100000\r\n".length() + 100_000 + 2) + "+OK\r\n".length(), writer.pendingBytes());
        assertTrue(writer.sealedBlocks() >= 2);
    }

    @Test
    void nextShouldHandOverPendingOutputInOrderInPiecesOfAtMostMaxBytes() {
        byte[] value = new byte[300_000];
        new java.util.SplittableRandom(7).nextBytes(value);
        writer.simple("first").bulkRef(value).integer(123_456).bulk(value, 0, 50_000).simple("last");
        long pending = writer.pendingBytes();
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();

        ByteBuf piece;
        while ((piece = writer.next(65_536)) != null) {
            assertTrue(piece.readableBytes() <= 65_536, "piece of " + piece.readableBytes());
            byte[] bytes = new byte[piece.readableBytes()];
            piece.readBytes(bytes);
            piece.release();
            all.writeBytes(bytes);
            assertEquals(pending - all.size(), writer.pendingBytes());
        }

        assertFalse(writer.hasPending());
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.writeBytes(ascii("+first\r\n$300000\r\n"));
        expected.writeBytes(value);
        expected.writeBytes(ascii("\r\n:123456\r\n$50000\r\n"));
        expected.writeBytes(java.util.Arrays.copyOf(value, 50_000));
        expected.writeBytes(ascii("\r\n+last\r\n"));
        assertArrayEquals(expected.toByteArray(), all.toByteArray());
    }

    @Test
    void discardFromShouldCutBackToTheMarkAcrossBlocks() {
        writer.ok();
        long mark = writer.pendingBytes();
        writer.arrayHeader(3).bulkRef(new byte[50_000]).bulk(new byte[20_000]).integer(7);

        writer.discardFrom(mark);

        assertEquals(mark, writer.pendingBytes());
        writer.pong();
        assertEquals("+OK\r\n+PONG\r\n", decodeAndRelease(writer.take()));
    }

    @Test
    void discardFromShouldCutWithinTheCurrentBlockAndIgnoreAMarkAlreadyPassed() {
        writer.ok().integer(5000);
        writer.discardFrom(5);
        assertEquals("+OK\r\n", decodeAndRelease(writer.take()));

        writer.ok();
        writer.discardFrom(100);
        assertEquals("+OK\r\n", decodeAndRelease(writer.take()));
    }

    @Test
    void releaseShouldFreeEveryPendingBlock() {
        writer.bulk(new byte[40_000]).ok().bulkRef(new byte[10_000]).ok();
        ByteBuf first = writer.next(1000);

        writer.release();

        assertFalse(writer.hasPending());
        assertEquals(0, writer.pendingBytes());
        assertNull(writer.take());
        first.release();
    }

    @Test
    void releaseFreesPendingBytes() {
        writer.bulk("pending");
        ByteBuf pending = writer.take();
        writer.raw(ascii("x"));
        pending.release();

        writer.release();

        assertFalse(writer.hasPending());
        assertNull(writer.take());
    }

    @Test
    void releasesTheBufferItHandsOverOnlyToTheCaller() {
        writer.ok();
        ByteBuf taken = writer.take();

        writer.release();

        assertEquals(1, taken.refCnt());
        taken.release();
    }

    @Test
    void switchesProtocolAndRejectsUnknownVersions() {
        assertEquals(2, writer.protocol());
        writer.protocol(3);
        assertEquals(3, writer.protocol());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> writer.protocol(4));

        assertTrue(e.getMessage().contains("version=4"));
        assertEquals(3, writer.protocol());
    }

    @Test
    void returnsItselfForChaining() {
        assertSame(writer, writer.ok());
        assertSame(writer, writer.bulk(1L));
    }

    private void assertReply(String expected, Consumer<RespWriter> reply) {
        reply.accept(writer);
        assertEquals(expected, decodeAndRelease(writer.take()));
    }

    private static String decodeAndRelease(ByteBuf buf) {
        try {
            return buf.toString(StandardCharsets.ISO_8859_1);
        } finally {
            buf.release();
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
