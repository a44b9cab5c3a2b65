package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.MAY_REPLICATE;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.PUBSUB;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.pubsub.PubSub;
import java.util.List;
import java.util.Set;

/**
 * Pub/Sub: SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, SSUBSCRIBE, SUNSUBSCRIBE,
 * SPUBLISH and PUBSUB CHANNELS/NUMSUB/NUMPAT/SHARDCHANNELS/SHARDNUMSUB/HELP. The registry and
 * delivery live in {@link PubSub}; confirmations and messages are RESP2 arrays or RESP3 pushes.
 * Without cluster mode shard channels are plain channels kept apart, as in Redis.
 */
public final class PubSubCommands {
    /** What a RESP2 client in subscribed mode may still run (Redis's list). */
    private static final Set<String> ALLOWED_WHILE_SUBSCRIBED = Set.of("ping", "subscribe", "ssubscribe",
            "unsubscribe", "sunsubscribe", "psubscribe", "punsubscribe", "quit", "reset");

    private PubSubCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long sub = PUBSUB | NOSCRIPT | LOADING | STALE;
        long pub = PUBSUB | LOADING | STALE | FAST;
        long introspect = PUBSUB | LOADING | STALE;
        return List.of(
                spec("subscribe", -2, sub, 0, 0, 0, PubSubCommands::subscribe)
                        .doc(CommandGroup.PUBSUB, "2.0.0", "Listens for messages published to channels.",
                                "channel [channel ...]")
                        .complexity("O(N) where N is the number of channels to subscribe to."),
                spec("unsubscribe", -1, sub, 0, 0, 0, PubSubCommands::unsubscribe)
                        .doc(CommandGroup.PUBSUB, "2.0.0", "Stops listening to messages posted to channels.",
                                "[channel [channel ...]]")
                        .complexity("O(N) where N is the number of channels to unsubscribe."),
                spec("psubscribe", -2, sub, 0, 0, 0, PubSubCommands::psubscribe)
                        .doc(CommandGroup.PUBSUB, "2.0.0", "Listens for messages published to channels that match one"
                                + " or more patterns.", "pattern [pattern ...]")
                        .complexity("O(N) where N is the number of patterns to subscribe to."),
                spec("punsubscribe", -1, sub, 0, 0, 0, PubSubCommands::punsubscribe)
                        .doc(CommandGroup.PUBSUB, "2.0.0", "Stops listening to messages published to channels that"
                                + " match one or more patterns.", "[pattern [pattern ...]]")
                        .complexity("O(N) where N is the number of patterns to unsubscribe."),
                spec("publish", 3, pub | MAY_REPLICATE, 0, 0, 0, PubSubCommands::publish)
                        .doc(CommandGroup.PUBSUB, "2.0.0", "Posts a message to a channel.", "channel message")
                        .complexity("O(N+M) where N is the number of clients subscribed to the receiving channel and"
                                + " M is the total number of subscribed patterns (by any client)."),
                spec("ssubscribe", -2, sub, 1, -1, 1, PubSubCommands::ssubscribe)
                        .doc(CommandGroup.PUBSUB, "7.0.0", "Listens for messages published to shard channels.",
                                "shardchannel [shardchannel ...]")
                        .complexity("O(N) where N is the number of shard channels to subscribe to."),
                spec("sunsubscribe", -1, sub, 1, -1, 1, PubSubCommands::sunsubscribe)
                        .doc(CommandGroup.PUBSUB, "7.0.0", "Stops listening to messages posted to shard channels.",
                                "[shardchannel [shardchannel ...]]")
                        .complexity("O(N) where N is the number of shard channels to unsubscribe."),
                spec("spublish", 3, pub | MAY_REPLICATE, 1, 1, 1, PubSubCommands::spublish)
                        .doc(CommandGroup.PUBSUB, "7.0.0", "Post a message to a shard channel",
                                "shardchannel message")
                        .complexity("O(N) where N is the number of clients subscribed to the receiving shard"
                                + " channel."),
                CommandSpec.container("pubsub", -2, 0)
                        .doc(CommandGroup.PUBSUB, "2.8.0", "A container for Pub/Sub commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("channels", -2, introspect, 0, 0, 0, PubSubCommands::channels)
                                .doc(CommandGroup.PUBSUB, "2.8.0", "Returns the active channels.", "[pattern]")
                                .complexity("O(N) where N is the number of active channels, and assuming constant"
                                        + " time pattern matching (relatively short channels and patterns)"))
                        .sub(spec("numsub", -2, introspect, 0, 0, 0, PubSubCommands::numsub)
                                .doc(CommandGroup.PUBSUB, "2.8.0", "Returns a count of subscribers to channels.",
                                        "[channel [channel ...]]")
                                .complexity("O(N) for the NUMSUB subcommand, where N is the number of requested"
                                        + " channels"))
                        .sub(spec("numpat", 2, introspect, 0, 0, 0, PubSubCommands::numpat)
                                .doc(CommandGroup.PUBSUB, "2.8.0", "Returns a count of unique pattern subscriptions.",
                                        "")
                                .complexity("O(1)"))
                        .sub(spec("shardchannels", -2, introspect, 0, 0, 0, PubSubCommands::shardchannels)
                                .doc(CommandGroup.PUBSUB, "7.0.0", "Returns the active shard channels.", "[pattern]")
                                .complexity("O(N) where N is the number of active shard channels, and assuming"
                                        + " constant time pattern matching (relatively short shard channels)."))
                        .sub(spec("shardnumsub", -2, introspect, 0, 0, 0, PubSubCommands::shardnumsub)
                                .doc(CommandGroup.PUBSUB, "7.0.0", "Returns the count of subscribers of shard"
                                        + " channels.", "[shardchannel [shardchannel ...]]")
                                .complexity("O(N) for the SHARDNUMSUB subcommand, where N is the number of requested"
                                        + " shard channels"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, PubSubCommands::help)
                                .doc(CommandGroup.PUBSUB, "6.2.0", "Returns helpful text about the different"
                                        + " subcommands.", "")
                                .complexity("O(1)")));
    }

    /** True if a RESP2 client in subscribed mode may run {@code spec}. */
    public static boolean allowedWhileSubscribed(CommandSpec spec) {
        return ALLOWED_WHILE_SUBSCRIBED.contains(spec.fullName());
    }

    static void subscribe(Client c, byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            c.server().pubsub().subscribe(c, argv[i]);
        }
    }

    static void unsubscribe(Client c, byte[][] argv) {
        PubSub pubsub = c.server().pubsub();
        if (argv.length == 1) {
            pubsub.unsubscribeAllChannels(c, true);
            return;
        }
        for (int i = 1; i < argv.length; i++) {
            pubsub.unsubscribe(c, argv[i], true);
        }
    }

    static void psubscribe(Client c, byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            c.server().pubsub().psubscribe(c, argv[i]);
        }
    }

    static void punsubscribe(Client c, byte[][] argv) {
        PubSub pubsub = c.server().pubsub();
        if (argv.length == 1) {
            pubsub.punsubscribeAll(c, true);
            return;
        }
        for (int i = 1; i < argv.length; i++) {
            pubsub.punsubscribe(c, argv[i], true);
        }
    }

    static void ssubscribe(Client c, byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            c.server().pubsub().ssubscribe(c, argv[i]);
        }
    }

    static void sunsubscribe(Client c, byte[][] argv) {
        PubSub pubsub = c.server().pubsub();
        if (argv.length == 1) {
            pubsub.sunsubscribeAll(c, true);
            return;
        }
        for (int i = 1; i < argv.length; i++) {
            pubsub.sunsubscribe(c, argv[i], true);
        }
    }

    /** PUBLISH; in cluster mode also sent to every other node over the bus (receivers counted here only). */
    static void publish(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.server().cluster().gossip().publish(argv[1], argv[2], false);
        }
        c.reply().integer(c.server().pubsub().publish(argv[1], argv[2]));
    }

    static void spublish(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.server().cluster().gossip().publish(argv[1], argv[2], true);
        }
        c.reply().integer(c.server().pubsub().spublish(argv[1], argv[2]));
    }

    static void channels(Client c, byte[][] argv) {
        replyChannels(c, argv, false);
    }

    static void shardchannels(Client c, byte[][] argv) {
        replyChannels(c, argv, true);
    }

    private static void replyChannels(Client c, byte[][] argv, boolean shard) {
        if (argv.length > 3) {
            c.reply().error("ERR unknown subcommand or wrong number of arguments for '" + Errors.printable(argv[1])
                    + "'. Try PUBSUB HELP.");
            return;
        }
        List<byte[]> names = c.server().pubsub().channels(argv.length == 3 ? argv[2] : null, shard);
        RespWriter w = c.reply().arrayHeader(names.size());
        for (byte[] name : names) {
            w.bulk(name);
        }
    }

    static void numsub(Client c, byte[][] argv) {
        replyNumsub(c, argv, false);
    }

    static void shardnumsub(Client c, byte[][] argv) {
        replyNumsub(c, argv, true);
    }

    /** Channel and count alternating in one flat array, in RESP3 too, as Redis 7 replies. */
    private static void replyNumsub(Client c, byte[][] argv, boolean shard) {
        RespWriter w = c.reply().arrayHeader(2 * (argv.length - 2));
        for (int i = 2; i < argv.length; i++) {
            w.bulk(argv[i]).integer(c.server().pubsub().numsub(argv[i], shard));
        }
    }

    static void numpat(Client c, byte[][] argv) {
        c.reply().integer(c.server().pubsub().numpat());
    }

    static void help(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "PUBSUB",
                "CHANNELS [<pattern>]",
                "    Return the currently active channels matching a <pattern> (default: '*').",
                "NUMPAT",
                "    Return number of subscriptions to patterns.",
                "NUMSUB [<channel> ...]",
                "    Return the number of subscribers for the specified channels, excluding",
                "    pattern subscriptions(default: no channels).",
                "SHARDCHANNELS [<pattern>]",
                "    Return the currently active shard level channels matching a <pattern> (default: '*').",
                "SHARDNUMSUB [<shardchannel> ...]",
                "    Return the number of subscribers for the specified shard level channel(s)");
    }
}
