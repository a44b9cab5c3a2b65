package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.monitor.LatencyMonitor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LATENCY LATEST/HISTORY/RESET/DOCTOR/HELP over the server's {@link LatencyMonitor}. GRAPH and
 * HISTOGRAM are not implemented (Ebb keeps no per-command histograms) and answer Redis's
 * unknown-subcommand error.
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

    static void latencyHelp(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "LATENCY",
                "DOCTOR",
                "    Return a human readable latency analysis report.",
                "HISTORY <event>",
                "    Return time-latency samples for the <event> class.",
                "LATEST",
                "    Return the latest latency samples for all events.",
                "RESET [<event> ...]",
                "    Reset latency data of one or more <event> classes.",
                "    (default: reset all data for all event classes)");
    }
}
