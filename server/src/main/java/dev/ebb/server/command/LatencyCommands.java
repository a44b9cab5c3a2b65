package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.CommandStats;
import dev.ebb.server.LatencyHistogram;
import dev.ebb.server.monitor.LatencyMonitor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LATENCY LATEST/HISTORY/RESET/DOCTOR/HELP over the server's {@link LatencyMonitor}, and LATENCY
 * HISTOGRAM over the per-command histograms of INFO latencystats ({@link CommandStats}). GRAPH is
 * not implemented and answers Redis's unknown-subcommand error.
 */
public final class LatencyCommands {
    private LatencyCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long admin = ADMIN | LOADING | STALE | NOSCRIPT;
        return List.of(
                container("latency", -2, 0)
                        .doc(CommandGroup.SERVER, "2.8.13", "A container for latency diagnostics commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("latest", 2, admin, 0, 0, 0, LatencyCommands::latest)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns the latest latency samples for all events.",
                                        "")
                                .complexity("O(1)"))
                        .sub(spec("history", 3, admin, 0, 0, 0, LatencyCommands::history)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns timestamp-latency samples for an event.",
                                        "event")
                                .complexity("O(1)"))
                        .sub(spec("reset", -2, admin, 0, 0, 0, LatencyCommands::latencyReset)
                                .doc(CommandGroup.SERVER, "2.8.13", "Resets the latency data for one or more events.",
                                        "[event [event ...]]")
                                .complexity("O(1)"))
                        .sub(spec("doctor", 2, admin, 0, 0, 0, LatencyCommands::doctor)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns a human-readable latency analysis report.",
                                        "")
                                .complexity("O(1)"))
                        .sub(spec("graph", 3, admin, 0, 0, 0, LatencyCommands::graph)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns a latency graph for an event.", "event")
                                .complexity("O(1)"))
                        .sub(spec("histogram", -2, admin, 0, 0, 0, LatencyCommands::histogram)
                                .doc(CommandGroup.SERVER, "7.0.0",
                                        "Return the cumulative distribution of latencies of a subset of commands or all.",
                                        "[command [command ...]]")
                                .complexity("O(N) where N is the number of commands with latency information being"
                                        + " retrieved."))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, LatencyCommands::latencyHelp)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns helpful text about the different subcommands.",
                                        "")
                                .complexity("O(1)")));
    }

    /** LATENCY LATEST: per event, its name, the latest sample's time and latency, and the worst latency. */
    static void latest(Client c, byte[][] argv) {
        Map<String, LatencyMonitor.History> events = c.server().latencyMonitor().events();
        RespWriter w = c.reply();
        w.arrayHeader(events.size());
        for (Map.Entry<String, LatencyMonitor.History> e : events.entrySet()) {
            LatencyMonitor.History h = e.getValue();
            int last = h.count() - 1;
            w.arrayHeader(4);
            w.bulk(e.getKey());
            w.integer(h.time(last));
            w.integer(h.latency(last));
            w.integer(h.max());
        }
    }

    /** LATENCY HISTORY event: the event's samples as (time, latency) pairs, oldest first. */
    static void history(Client c, byte[][] argv) {
        LatencyMonitor.History h = c.server().latencyMonitor().history(Arguments.text(argv[2]));
        RespWriter w = c.reply();
        if (h == null) {
            w.emptyArray();
            return;
        }
        w.arrayHeader(h.count());
        for (int i = 0; i < h.count(); i++) {
            w.arrayHeader(2);
            w.integer(h.time(i));
            w.integer(h.latency(i));
        }
    }

    /** LATENCY GRAPH event: the event's samples as an ASCII sparkline (verbatim text in RESP3). */
    static void graph(Client c, byte[][] argv) {
        String graph = c.server().latencyMonitor().graph(Arguments.text(argv[2]), c.server().nowMs());
        if (graph == null) {
            c.reply().error("ERR No samples available for event '" + Errors.printable(argv[2]) + "'");
            return;
        }
        c.reply().verbatim(graph);
    }

    /** LATENCY RESET [event …]: how many of the events had data. */
    static void latencyReset(Client c, byte[][] argv) {
        LatencyMonitor monitor = c.server().latencyMonitor();
        if (argv.length == 2) {
            c.reply().integer(monitor.resetAll());
            return;
        }
        List<String> names = new ArrayList<>();
        for (int i = 2; i < argv.length; i++) {
            names.add(Arguments.text(argv[i]));
        }
        c.reply().integer(monitor.reset(names));
    }

    /**
     * LATENCY DOCTOR. The texts for a disabled monitor and for no spikes are Redis's; with spikes
     * Ebb lists each event with Redis's statistics line but gives none of Redis's advice paragraphs.
     */
    static void doctor(Client c, byte[][] argv) {
        LatencyMonitor monitor = c.server().latencyMonitor();
        StringBuilder report = new StringBuilder();
        if (monitor.thresholdMs() <= 0 && monitor.events().isEmpty()) {
            report.append("I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance."
                    + " You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it."
                    + " If we weren't in a deep space mission I'd suggest to take a look at"
                    + " https://redis.io/topics/latency-monitor.\n");
        } else if (monitor.events().isEmpty()) {
            report.append("Dave, no latency spike was observed during the lifetime of this Redis instance, not in the"
                    + " slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think"
                    + " things over.\n");
        } else {
            report.append("Dave, I have observed latency spikes in this Redis instance. You don't mind talking about"
                    + " it, do you Dave?\n\n");
            int n = 1;
            long nowSeconds = c.server().nowMs() / 1000;
            for (Map.Entry<String, LatencyMonitor.History> e : monitor.events().entrySet()) {
                report.append(n++).append(". ").append(e.getKey()).append(": ").append(eventSummary(e.getValue(),
                        nowSeconds)).append('\n');
            }
        }
        c.reply().verbatim(report.toString());
    }

    private static String eventSummary(LatencyMonitor.History h, long nowSeconds) {
        int samples = h.count();
        double sum = 0;
        for (int i = 0; i < samples; i++) {
            sum += h.latency(i);
        }
        double avg = sum / samples;
        double deviation = 0;
        for (int i = 0; i < samples; i++) {
            deviation += Math.abs(h.latency(i) - avg);
        }
        long span = Math.max(1, nowSeconds - h.time(0));
        return String.format(Locale.ROOT, "%d latency spikes (average %dms, mean deviation %dms, period %.2f sec)."
                + " Worst all time event %dms.", samples, (long) avg, (long) (deviation / samples),
                (double) span / samples, h.max());
    }

    /**
     * LATENCY HISTOGRAM [command ...]: for each command named (a container such as CONFIG stands for
     * its subcommands, {@code config|get} for one) that has a histogram, or for all of them when none
     * is named, a map of {@code calls} and {@code histogram_usec} (µs bucket to cumulative count, see
     * {@link LatencyHistogram#cumulativeBuckets}). Unknown names are skipped, as in Redis.
     */
    static void histogram(Client c, byte[][] argv) {
        CommandStats stats = c.server().commandStats();
        List<CommandSpec> chosen = new ArrayList<>();
        if (argv.length == 2) {
            chosen.addAll(stats.tracked());
        }
        for (int i = 2; i < argv.length; i++) {
            for (CommandSpec spec : named(c, Arguments.text(argv[i]))) {
                if (stats.histogram(spec) != null) {
                    chosen.add(spec);
                }
            }
        }
        RespWriter w = c.reply();
        w.mapHeader(chosen.size());
        for (CommandSpec spec : chosen) {
            LatencyHistogram histogram = stats.histogram(spec);
            List<long[]> buckets = histogram.cumulativeBuckets();
            w.bulk(spec.fullName());
            w.mapHeader(2);
            w.bulk("calls");
            w.integer(histogram.count());
            w.bulk("histogram_usec");
            w.mapHeader(buckets.size());
            for (long[] bucket : buckets) {
                w.integer(bucket[0]);
                w.integer(bucket[1]);
            }
        }
    }

    /** The specs a LATENCY HISTOGRAM argument names: a command, {@code parent|sub}, or a container's subcommands. */
    private static List<CommandSpec> named(Client c, String name) {
        int bar = name.indexOf('|');
        CommandSpec spec = c.server().commands().lookup(bar < 0 ? name : name.substring(0, bar));
        if (spec == null) {
            return List.of();
        }
        if (bar >= 0) {
            CommandSpec sub = spec.subcommand(name.substring(bar + 1).getBytes(StandardCharsets.UTF_8));
            return sub == null ? List.of() : List.of(sub);
        }
        return spec.subcommands().isEmpty() ? List.of(spec) : spec.subcommands();
    }

    static void latencyHelp(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "LATENCY",
                "DOCTOR",
                "    Return a human readable latency analysis report.",
                "GRAPH <event>",
                "    Return an ASCII latency graph for the <event> class.",
                "HISTORY <event>",
                "    Return time-latency samples for the <event> class.",
                "LATEST",
                "    Return the latest latency samples for all events.",
                "RESET [<event> ...]",
                "    Reset latency data of one or more <event> classes.",
                "    (default: reset all data for all event classes)",
                "HISTOGRAM [COMMAND ...]",
                "    Return a cumulative distribution of latencies in the format of a histogram for the specified command"
                        + " names.",
                "    If no commands are specified then all histograms are replied.");
    }
}
