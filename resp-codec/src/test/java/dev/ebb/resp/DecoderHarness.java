package dev.ebb.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feeds bytes to a {@link RespDecoder} in an {@link EmbeddedChannel} and describes what it emitted.
 * Every buffer fed is checked to be released once the channel is finished (no leaks), on top of the
 * paranoid leak detection the build turns on.
 */
final class DecoderHarness {
    private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

    final RespLimits limits;
    final RespDecoder decoder;
    final EmbeddedChannel channel;
    private final List<ByteBuf> fed = new ArrayList<>();
    private final List<String> emitted = new ArrayList<>();
    private final List<Object> messages = new ArrayList<>();

    DecoderHarness(RespLimits limits) {
        this(new RespDecoder(limits), limits);
    }

    DecoderHarness(RespDecoder decoder, RespLimits limits) {
        this.limits = limits;
        this.decoder = decoder;
        this.channel = new EmbeddedChannel(decoder);
    }

    DecoderHarness() {
        this(new RespLimits());
    }

    /** Feeds {@code bytes[from, to)} as one read and returns everything emitted so far. */
    List<String> feed(byte[] bytes, int from, int to) {
        ByteBuf buf = Unpooled.copiedBuffer(bytes, from, to - from);
        fed.add(buf);
        channel.writeInbound(buf);
        drain();
        return emitted;
    }

    List<String> feed(byte[] bytes) {
        return feed(bytes, 0, bytes.length);
    }

    /**
     * Feeds {@code bytes} as reads of {@code readSize} bytes that Netty delivers in one go, before
     * the socket is read dry (one channelReadComplete), and returns everything emitted so far.
     */
    List<String> feedInReads(byte[] bytes, int readSize) {
        List<ByteBuf> reads = new ArrayList<>();
        for (int from = 0; from < bytes.length; from += readSize) {
            reads.add(Unpooled.copiedBuffer(bytes, from, Math.min(readSize, bytes.length - from)));
        }
        fed.addAll(reads);
        channel.writeInbound(reads.toArray());
        drain();
        return emitted;
    }

    List<String> emitted() {
        return emitted;
    }

    /** Collects what the decoder emitted outside a feed (after tasks ran) and returns everything so far. */
    List<String> drainAndGet() {
        drain();
        return emitted;
    }

    /** The messages themselves, in order. */
    List<Object> messages() {
        return messages;
    }

    /** Closes the channel and asserts every buffer fed was released. */
    List<String> finish() {
        channel.finishAndReleaseAll();
        drain();
        for (ByteBuf buf : fed) {
            assertEquals(0, buf.refCnt(), "an input buffer was not released");
        }
        return emitted;
    }

    private void drain() {
        Object message;
        while ((message = channel.readInbound()) != null) {
            messages.add(message);
            emitted.add(describe(message));
        }
    }

    /**
     * Decodes {@code input} as one read, split in two at every offset, and one byte at a time;
     * asserts all give the same result and, when {@code complete}, that nothing is left buffered.
     */
    static List<String> decodeEverySplit(byte[] input, boolean complete) {
        return decodeEverySplit(DecoderHarness::new, input, complete);
    }

    /** {@link #decodeEverySplit(byte[], boolean)} with decoders set up by {@code factory}. */
    static List<String> decodeEverySplit(Supplier<DecoderHarness> factory, byte[] input, boolean complete) {
        DecoderHarness whole = factory.get();
        List<String> expected = new ArrayList<>(whole.feed(input));
        assertCompletion(whole, complete, "whole input");
        whole.finish();
        for (int split = 1; split < input.length; split++) {
            DecoderHarness harness = factory.get();
            harness.feed(input, 0, split);
            harness.feed(input, split, input.length);
            assertEquals(expected, harness.emitted(), "split at " + split);
            assertCompletion(harness, complete, "split at " + split);
            harness.finish();
        }
        DecoderHarness bytewise = factory.get();
        for (int i = 0; i < input.length; i++) {
            bytewise.feed(input, i, i + 1);
        }
        assertEquals(expected, bytewise.emitted(), "one byte at a time");
        assertCompletion(bytewise, complete, "one byte at a time");
        bytewise.finish();
        return expected;
    }

    private static void assertCompletion(DecoderHarness harness, boolean complete, String how) {
        if (complete) {
            assertTrue(harness.decoder.betweenCommands(), "input left over after decoding (" + how + ")");
        }
    }

    /** Readable form of an emitted message: {@code [SET, k, v]} or {@code error(ERR ..., reply)}. */
    static String describe(Object message) {
        if (message instanceof byte[][] argv) {
            return command(argv);
        }
        if (message instanceof RespProtocolError error) {
            return error(error.message(), error.reply());
        }
        throw new AssertionError("unexpected message type " + message.getClass());
    }

    static String command(byte[]... argv) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < argv.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(escape(argv[i]));
        }
        return sb.append(']').toString();
    }

    static String command(String... args) {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return command(argv);
    }

    static String error(String message, boolean reply) {
        return "error(" + message + ", " + reply + ")";
    }

    static String replyError(String message) {
        return error(message, true);
    }

    /** The bytes of {@code s}, one byte per char (chars must be below 256). */
    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A multibulk request for {@code args}. */
    static String multibulk(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString();
    }

    private static String escape(byte[] arg) {
        StringBuilder sb = new StringBuilder(arg.length);
        for (byte b : arg) {
            int c = b & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\\') {
                sb.append((char) c);
            } else {
                sb.append("\\x").append(HEX_DIGITS[c >> 4]).append(HEX_DIGITS[c & 0xF]);
            }
        }
        return sb.toString();
    }
}
