package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;

/**
 * The CLIENT subcommands of client-side caching and pausing: TRACKING, CACHING, TRACKINGINFO,
 * GETREDIR, PAUSE, UNPAUSE. They parse and check their options here, with Redis 7.2's error texts
 * and in Redis's order of checks; the mechanisms are {@link dev.ebb.server.ClientTracking} and
 * {@link dev.ebb.server.ClientPause}. Registered under the CLIENT container by
 * {@link ClientCommands#specs}.
 */
public final class ClientTrackingCommands {
    private ClientTrackingCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long flags = NOSCRIPT | LOADING | STALE;
        long admin = ADMIN | NOSCRIPT | LOADING | STALE;
        return List.of(
                spec("tracking", -3, flags, 0, 0, 0, ClientTrackingCommands::tracking)
                        .doc(CommandGroup.CONNECTION, "6.0.0",
                                "Controls server-assisted client-side caching for the connection.",
                                "<ON | OFF> [REDIRECT client-id] [PREFIX prefix [PREFIX prefix ...]] [BCAST] [OPTIN]"
                                        + " [OPTOUT] [NOLOOP]")
                        .complexity("O(1). Some options may introduce additional complexity."),
                spec("caching", 3, flags, 0, 0, 0, ClientTrackingCommands::caching)
                        .doc(CommandGroup.CONNECTION, "6.0.0",
                                "Instructs the server whether to track the keys in the next request.", "<YES | NO>")
                        .complexity("O(1)"),
                spec("trackinginfo", 2, flags, 0, 0, 0, ClientTrackingCommands::trackinginfo)
                        .doc(CommandGroup.CONNECTION, "6.2.0",
                                "Returns information about server-assisted client-side caching for the connection.",
                                "")
                        .complexity("O(1)"),
                spec("getredir", 2, flags, 0, 0, 0, ClientTrackingCommands::getredir)
                        .doc(CommandGroup.CONNECTION, "6.0.0",
                                "Returns the client ID to which the connection's tracking notifications are"
                                        + " redirected.", "")
                        .complexity("O(1)"),
                spec("pause", -3, admin, 0, 0, 0, ClientTrackingCommands::pause)
                        .doc(CommandGroup.CONNECTION, "3.0.0", "Suspends commands processing.",
                                "timeout [WRITE | ALL]")
                        .complexity("O(1)"),
                spec("unpause", 2, admin, 0, 0, 0, ClientTrackingCommands::unpause)
                        .doc(CommandGroup.CONNECTION, "6.2.0", "Resumes processing commands from paused clients.", "")
                        .complexity("O(N) Where N is the number of paused clients"));
    }

    /**
     * CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX p]… [OPTIN] [OPTOUT] [NOLOOP]. The
     * options are parsed first (a bad one is a syntax error even with OFF); ON then checks them
     * against each other and against the client's current mode, as Redis does, in its order.
     */
    static void tracking(Client c, byte[][] argv) {
        long redirect = 0;
        int options = 0;
        List<byte[]> prefixes = new ArrayList<>();
        for (int i = 3; i < argv.length; i++) {
            boolean moreArgs = i + 1 < argv.length;
            byte[] option = argv[i];
            if (Arguments.is(option, "redirect") && moreArgs) {
                i++;
                if (redirect != 0) {
                    c.reply().error(Errors.TRACKING_SINGLE_REDIRECT);
                    return;
                }
                redirect = Arguments.longOrReply(c, argv[i]);
                if (redirect == Arguments.INVALID) {
                    return;
                }
                if (c.server().client(redirect) == null) {
                    c.reply().error(Errors.TRACKING_NO_REDIRECT_CLIENT);
                    return;
                }
            } else if (Arguments.is(option, "bcast")) {
                options |= Client.FLAG_TRACKING_BCAST;
            } else if (Arguments.is(option, "optin")) {
                options |= Client.FLAG_TRACKING_OPTIN;
            } else if (Arguments.is(option, "optout")) {
                options |= Client.FLAG_TRACKING_OPTOUT;
            } else if (Arguments.is(option, "noloop")) {
                options |= Client.FLAG_TRACKING_NOLOOP;
            } else if (Arguments.is(option, "prefix") && moreArgs) {
                prefixes.add(argv[++i]);
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (Arguments.is(argv[2], "on")) {
            if (!trackingOptionsValidOrReply(c, options, prefixes)) {
                return;
            }
            c.server().tracking().enable(c, redirect, options, prefixes);
        } else if (Arguments.is(argv[2], "off")) {
            c.server().tracking().disable(c);
        } else {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        c.reply().ok();
    }

    private static boolean trackingOptionsValidOrReply(Client c, int options, List<byte[]> prefixes) {
        boolean bcast = (options & Client.FLAG_TRACKING_BCAST) != 0;
        boolean optin = (options & Client.FLAG_TRACKING_OPTIN) != 0;
        boolean optout = (options & Client.FLAG_TRACKING_OPTOUT) != 0;
        String error = null;
        if (!bcast && !prefixes.isEmpty()) {
            error = Errors.TRACKING_PREFIX_NEEDS_BCAST;
        } else if (c.hasFlag(Client.FLAG_TRACKING) && c.hasFlag(Client.FLAG_TRACKING_BCAST) != bcast) {
            error = Errors.TRACKING_SWITCH_BCAST;
        } else if (bcast && (optin || optout)) {
            error = Errors.TRACKING_OPTIN_OPTOUT_BCAST;
        } else if (optin && optout) {
            error = Errors.TRACKING_OPTIN_AND_OPTOUT;
        } else if ((optin && c.hasFlag(Client.FLAG_TRACKING_OPTOUT))
                || (optout && c.hasFlag(Client.FLAG_TRACKING_OPTIN))) {
            error = Errors.TRACKING_SWITCH_OPTIN_OPTOUT;
        } else if (bcast) {
            error = prefixOverlap(c, prefixes);
        }
        if (error != null) {
            c.reply().error(error);
            return false;
        }
        return true;
    }

    /** The overlap error for the first prefix that overlaps one the client has or a later one given, or null. */
    private static String prefixOverlap(Client c, List<byte[]> prefixes) {
        SortedSet<byte[]> existing = c.trackingPrefixes();
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] prefix = prefixes.get(i);
            if (existing != null) {
                for (byte[] own : existing) {
                    if (overlap(own, prefix)) {
                        return Errors.prefixOverlapsExisting(prefix, own);
                    }
                }
            }
            for (int j = i + 1; j < prefixes.size(); j++) {
                if (overlap(prefix, prefixes.get(j))) {
                    return Errors.prefixOverlapsProvided(prefix, prefixes.get(j));
                }
            }
        }
        return null;
    }

    /** Whether the shorter of {@code a} and {@code b} is a prefix of the longer. */
    private static boolean overlap(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        return java.util.Arrays.equals(a, 0, n, b, 0, n);
    }

    /** CLIENT CACHING YES|NO: the next command's (or transaction's) reads are tracked (OPTIN) or not (OPTOUT). */
    static void caching(Client c, byte[][] argv) {
        if (!c.hasFlag(Client.FLAG_TRACKING)) {
            c.reply().error(Errors.CACHING_NOT_TRACKING);
            return;
        }
        if (Arguments.is(argv[2], "yes")) {
            if (!c.hasFlag(Client.FLAG_TRACKING_OPTIN)) {
                c.reply().error(Errors.CACHING_YES_NOT_OPTIN);
                return;
            }
        } else if (Arguments.is(argv[2], "no")) {
            if (!c.hasFlag(Client.FLAG_TRACKING_OPTOUT)) {
                c.reply().error(Errors.CACHING_NO_NOT_OPTOUT);
                return;
            }
        } else {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        c.setFlag(Client.FLAG_TRACKING_CACHING, true);
        c.reply().ok();
    }

    /** CLIENT TRACKINGINFO: a map of flags (a set), redirect, and prefixes (in byte order). */
    static void trackinginfo(Client c, byte[][] argv) {
        List<String> flags = new ArrayList<>(4);
        flags.add(c.hasFlag(Client.FLAG_TRACKING) ? "on" : "off");
        boolean caching = c.hasFlag(Client.FLAG_TRACKING_CACHING);
        if (c.hasFlag(Client.FLAG_TRACKING_BCAST)) {
            flags.add("bcast");
        }
        if (c.hasFlag(Client.FLAG_TRACKING_OPTIN)) {
            flags.add("optin");
            if (caching) {
                flags.add("caching-yes");
            }
        }
        if (c.hasFlag(Client.FLAG_TRACKING_OPTOUT)) {
            flags.add("optout");
            if (caching) {
                flags.add("caching-no");
            }
        }
        if (c.hasFlag(Client.FLAG_TRACKING_NOLOOP)) {
            flags.add("noloop");
        }
        if (c.hasFlag(Client.FLAG_TRACKING_BROKEN_REDIR)) {
            flags.add("broken_redirect");
        }
        RespWriter w = c.reply();
        w.mapHeader(3).bulk("flags").setHeader(flags.size());
        for (String flag : flags) {
            w.bulk(flag);
        }
        w.bulk("redirect").integer(redirect(c));
        w.bulk("prefixes");
        SortedSet<byte[]> prefixes = c.trackingPrefixes();
        if (prefixes == null) {
            w.emptyArray();
        } else {
            w.arrayHeader(prefixes.size());
            for (byte[] prefix : prefixes) {
                w.bulk(prefix);
            }
        }
    }

    /** CLIENT GETREDIR: the redirect id, 0 when tracking without one, -1 when not tracking. */
    static void getredir(Client c, byte[][] argv) {
        c.reply().integer(redirect(c));
    }

    /** The redirect as GETREDIR and CLIENT LIST's {@code redir} show it. */
    static long redirect(Client c) {
        return c.hasFlag(Client.FLAG_TRACKING) ? c.trackingRedirect() : -1;
    }

    /**
     * CLIENT PAUSE timeout [WRITE|ALL]: the mode is checked before the timeout, and a fifth
     * argument is an unknown subcommand, as in Redis.
     */
    static void pause(Client c, byte[][] argv) {
        if (argv.length > 4) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "CLIENT"));
            return;
        }
        boolean all = true;
        if (argv.length == 4) {
            if (Arguments.is(argv[3], "write")) {
                all = false;
            } else if (!Arguments.is(argv[3], "all")) {
                c.reply().error(Errors.PAUSE_MODE);
                return;
            }
        }
        long timeout = Arguments.longOrReply(c, argv[2], Errors.TIMEOUT_NOT_INTEGER);
        if (timeout == Arguments.INVALID) {
            return;
        }
        if (timeout < 0) {
            c.reply().error(Errors.TIMEOUT_NEGATIVE);
            return;
        }
        long now = c.server().nowMs();
        if (timeout > Long.MAX_VALUE - now) {
            c.reply().error(Errors.TIMEOUT_OUT_OF_RANGE);
            return;
        }
        c.server().pause().pause(timeout == 0 ? 0 : now + timeout, all);
        c.reply().ok();
    }

    static void unpause(Client c, byte[][] argv) {
        c.server().pause().unpause();
        c.reply().ok();
    }
}
