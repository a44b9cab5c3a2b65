package dev.ebb.resp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.ebb.resp.DecoderHarness.bytes;
import static dev.ebb.resp.DecoderHarness.command;
import static dev.ebb.resp.DecoderHarness.decodeEverySplit;
import static dev.ebb.resp.DecoderHarness.multibulk;
import static dev.ebb.resp.DecoderHarness.replyError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits on connections that still have to authenticate (Redis 7's 10 arguments of 16 KB). Error
 * texts and the order of the checks were compared with redis-server 7.2.4 started with requirepass.
 */
class RespDecoderUnauthenticatedTest {
    private static final String UNAUTHENTICATED_MULTIBULK = "ERR Protocol error: unauthenticated multibulk length";
    private static final String UNAUTHENTICATED_BULK = "ERR Protocol error: unauthenticated bulk length";

    @Test
    void refusesElevenArgumentsAtTheCountLine() {
        List<String> emitted = decodeEverySplit(RespDecoderUnauthenticatedTest::unauthenticated,
            bytes("*11\r\n$1\r\na\r\n"), false);

        assertEquals(List.of(replyError(UNAUTHENTICATED_MULTIBULK)), emitted);
    }

    @Test
    void acceptsTenArguments() {
        String[] args = new String[10];
        Arrays.fill(args, "a");

        List<String> emitted = decodeEverySplit(RespDecoderUnauthenticatedTest::unauthenticated,
            bytes(multibulk(args)), true);

        assertEquals(List.of(command(args)), emitted);
    }

    @Test
    void refusesABulkOf16KilobytesPlusOneAtItsHeaderWithoutAllocatingIt() {
        DecoderHarness harness = unauthenticated();

        harness.feed(bytes("*2\r\n$3\r\nSET\r\n$16385\r\n"));

        assertEquals(List.of(replyError(UNAUTHENTICATED_BULK)), harness.emitted());
        assertEquals(0, harness.decoder.retainedArgumentBytes());
        assertTrue(harness.decoder.discarding());
        harness.finish();
    }

    @Test
    void refusesAHugeDeclaredBulkAsUnauthenticatedNotAsTooBig() {
        DecoderHarness harness = unauthenticated();

        harness.feed(bytes("*2\r\n$3\r\nGET\r\n$314572800\r\n"));

        assertEquals(List.of(replyError(UNAUTHENTICATED_BULK)), harness.emitted());
        assertEquals(0, harness.decoder.retainedArgumentBytes());
        harness.finish();
    }

    @Test
    void acceptsABulkOf16Kilobytes() {
        String value = "v".repeat(16 * 1024);
        DecoderHarness harness = unauthenticated();

        harness.feed(bytes(multibulk("SET", "k", value)));

        assertEquals(List.of(command("SET", "k", value)), harness.emitted());
        harness.finish();
    }

    @Test
    void reportsInvalidLengthsBeforeTheAuthenticationLimits() {
        assertEquals(List.of(replyError("ERR Protocol error: invalid multibulk length")),
            decodeEverySplit(RespDecoderUnauthenticatedTest::unauthenticated, bytes("*1x\r\n"), false));
        assertEquals(List.of(replyError("ERR Protocol error: invalid bulk length")),
            decodeEverySplit(RespDecoderUnauthenticatedTest::unauthenticated, bytes("*1\r\n$-3\r\n"), false));
        assertEquals(List.of(replyError("ERR Protocol error: invalid bulk length")),
            decodeEverySplit(RespDecoderUnauthenticatedTest::unauthenticated, bytes("*1\r\n$536870913\r\n"), false));
    }

    @Test
    void leavesInlineRequestsUnlimited() {
        String value = "v".repeat(20 * 1024);
        DecoderHarness harness = unauthenticated();

        harness.feed(bytes("SET k " + value + " a b c d e f g h i\r\n"));

        assertEquals(List.of(command("SET", "k", value, "a", "b", "c", "d", "e", "f", "g", "h", "i")),
            harness.emitted());
        harness.finish();
    }

    @Test
    void judgesEachRequestByTheStateTheRequestBeforeItLeft() {
        // A handler that authenticates on AUTH as the command loop does when it runs on the
        // channel's thread: the request after it, in the same read, is no longer limited.
        RespDecoder decoder = new RespDecoder(new RespLimits());
        decoder.authRequired(true);
        List<String> seen = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                byte[][] argv = (byte[][]) msg;
                seen.add(command(argv));
                if (new String(argv[0]).equals("AUTH")) {
                    decoder.authRequired(false);
                }
            }
        });
        String[] eleven = new String[11];
        Arrays.fill(eleven, "a");

        channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(
            bytes(multibulk("PING") + multibulk("AUTH", "pw") + multibulk(eleven) + multibulk("ECHO", "x".repeat(20000)))));

        assertEquals(List.of(command("PING"), command("AUTH", "pw"), command(eleven), command("ECHO", "x".repeat(20000))),
            seen);
        channel.finishAndReleaseAll();
    }

    @Test
    void waitsForALoopOnAnotherThreadToRunEachUnauthenticatedCommand() {
        RespLimits limits = new RespLimits();
        DecoderHarness harness = new DecoderHarness(new RespDecoder(limits, true), limits);
        harness.decoder.authRequired(true);
        String[] eleven = new String[11];
        Arrays.fill(eleven, "a");

        harness.feed(bytes(multibulk("AUTH", "pw") + multibulk(eleven) + multibulk("PING")));
        List<String> beforeTheLoopRan = List.copyOf(harness.emitted());
        harness.decoder.authRequired(false);
        harness.decoder.commandsRan();
        harness.channel.runPendingTasks();

        assertEquals(List.of(command("AUTH", "pw")), beforeTheLoopRan);
        assertEquals(List.of(command("AUTH", "pw"), command(eleven), command("PING")), harness.drainAndGet());
        harness.finish();
    }

    @Test
    void keepsWhatArrivesWhileWaitingForTheLoopOnlyUpToTheQueryBufferLimit() {
        RespLimits limits = new RespLimits();
        limits.clientQueryBufferLimit(1024);
        DecoderHarness harness = new DecoderHarness(new RespDecoder(limits, true), limits);
        harness.decoder.authRequired(true);

        harness.feed(bytes(multibulk("AUTH", "pw") + multibulk("PING").repeat(100)));

        assertEquals(List.of(command("AUTH", "pw"),
            DecoderHarness.error("closing client that reached max query buffer length: buffered=1400"
                + " client-query-buffer-limit=1024", false)), harness.emitted());
        assertTrue(harness.decoder.discarding());
        harness.finish();
    }

    @Test
    void limitsAgainAfterTheConnectionIsUnauthenticated() {
        DecoderHarness harness = new DecoderHarness();
        harness.feed(bytes(multibulk("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k")));

        harness.decoder.authRequired(true);
        harness.feed(bytes("*11\r\n"));

        assertEquals(List.of(command("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"),
            replyError(UNAUTHENTICATED_MULTIBULK)), harness.emitted());
        harness.finish();
    }

    private static DecoderHarness unauthenticated() {
        DecoderHarness harness = new DecoderHarness();
        harness.decoder.authRequired(true);
        return harness;
    }
}
