package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripting engine's way into the command table: the connection-less client that
 * {@code redis.call} runs commands as, and the call itself. Lives in this package because both need
 * the loop's package-private parts of {@link Client} and {@link Server}. Loop thread only.
 */
public final class ScriptDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptDispatch.class);

    private ScriptDispatch() {
    }

    /**
     * A client with no connection (Redis's "lua client"): its replies go to an unpooled heap buffer
     * that the script engine reads back after each call. Not registered, so CLIENT LIST and INFO do
     * not see it.
     */
    public static Client newScriptClient(Server server) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(UnpooledByteBufAllocator.DEFAULT);
        Client c = new Client(0, channel, server, "lua", "", server.nowMs());
        c.authenticated(true);
        c.denyBlocking(true);
        c.markScript();
        return c;
    }

    /**
     * The hash slot of a command line's keys as the cluster's CROSSSLOT rule sees them:
     * {@link dev.ebb.server.cluster.HashSlots#NO_KEYS}, {@link dev.ebb.server.cluster.HashSlots#CROSS_SLOT}
     * or the slot. For a script's {@code redis.call} in cluster mode.
     */
    public static int keySlot(CommandSpec spec, byte[][] argv) {
        return CrossSlotCheck.slot(spec, argv);
    }

    /**
     * The cluster's answer for a script's command whose keys are all in {@code slot}: null if this
     * node serves it, otherwise the redirection or CLUSTERDOWN error a client would get (the
     * script's caller's ASKING counts, as in Redis).
     */
    public static String clusterRoute(Server server, CommandSpec spec, byte[][] argv, int slot) {
        Client caller = server.caller();
        Client asker = caller != null ? caller : server.currentClient();
        return ClusterRouting.route(server, asker, spec, argv, slot, false);
    }

    /**
     * Runs {@code spec} for the script client {@code c}, as {@link Server#call} does after its
     * checks (the caller has looked up the spec and checked arity and script rules), counts it in
     * INFO commandstats (its errors are its own, not the script's), and feeds it to MONITOR as Redis
     * does, from {@code [db lua]}. The command time stays the script's: it is
     * not read again.
     */
    public static void call(Client c, CommandSpec spec, byte[][] argv) {
        Server server = c.server();
        c.touch(server.nowMs(), spec);
        server.stats().totalCommandsProcessed++;
        long start = System.nanoTime();
        long replyMark = c.reply().pendingBytes();
        server.propagation().enter();
        try {
            spec.handler().execute(c, argv);
        } catch (RuntimeException e) {
            LOG.error("Command '{}' failed unexpectedly in a script", spec.fullName(), e);
            server.stats().unexpectedErrorReplies++;
            c.reply().error("ERR " + e);
        } catch (OutOfMemoryError e) {
            // As Server#execute: refused with OOM, which the script sees as redis.call's error.
            LOG.warn("Command '{}' in a script refused: {}", spec.fullName(), e.toString());
            c.reply().discardFrom(replyMark);
            c.reply().error(Errors.OOM);
        } finally {
            server.propagation().exit(c, spec, argv);
        }
        server.commandStats().called(spec, System.nanoTime() - start, server.config().latencyTracking());
        server.attributeErrors(spec);
        if (!server.monitors().isEmpty() && !spec.has(CommandFlags.ADMIN | CommandFlags.SKIP_MONITOR)) {
            server.monitors().feed(server, c, argv);
        }
    }
}
