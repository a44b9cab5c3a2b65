package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * INFO commandstats: per command (subcommands apart, as {@code config|get}) the calls, the
 * microseconds they ran, and the calls that were rejected before running or failed while running,
 * with Redis's definitions: a call is counted when the command ran (a blocking command when it is
 * served), rejected when dispatch refused it (arity, authentication, OOM, CROSSSLOT, ...), failed
 * when it replied an error of its own; commands run by EXEC and by scripts are counted each.
 *
 * <p>Also INFO latencystats: a {@link LatencyHistogram} per command that has run since start-up or
 * CONFIG RESETSTAT, while {@code latency-tracking} is on (Redis's default).
 *
 * <p>Counts live in arrays indexed by {@link CommandSpec#ordinal()}, so counting is a few array
 * writes and allocates nothing once the arrays have grown to the command table and each command's
 * histogram exists. Loop thread only.
 */
public final class CommandStats {
    private CommandSpec[] specs = new CommandSpec[0];
    private long[] calls = new long[0];
    private long[] micros = new long[0];
    private long[] rejected = new long[0];
    private long[] failed = new long[0];
    private LatencyHistogram[] histograms = new LatencyHistogram[0];

    /**
     * {@code spec} ran for {@code durationNanos}; with {@code trackLatency} (the
     * {@code latency-tracking} directive) the duration also goes into its histogram.
     */
    void called(CommandSpec spec, long durationNanos, boolean trackLatency) {
        int i = slot(spec);
        calls[i]++;
        micros[i] += durationNanos / 1000;
        if (trackLatency) {
            LatencyHistogram histogram = histograms[i];
            if (histogram == null) {
                histogram = new LatencyHistogram();
                histograms[i] = histogram;
            }
            histogram.record(durationNanos);
        }
    }

    /** Dispatch refused a call of {@code spec}. */
    void rejected(CommandSpec spec) {
        int i = slot(spec);
        rejected[i]++;
    }

    /** A call of {@code spec} replied an error. */
    void failed(CommandSpec spec) {
        int i = slot(spec);
        failed[i]++;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        Arrays.fill(calls, 0);
        Arrays.fill(micros, 0);
        Arrays.fill(rejected, 0);
        Arrays.fill(failed, 0);
        Arrays.fill(histograms, null);
    }

    /** {@code spec}'s latency histogram, or null if it has not run with latency-tracking on since the reset. */
    public LatencyHistogram histogram(CommandSpec spec) {
        int i = spec.ordinal();
        return i < histograms.length ? histograms[i] : null;
    }

    /** The commands that have a latency histogram, sorted by name. */
    public List<CommandSpec> tracked() {
        List<CommandSpec> tracked = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            if (histograms[i] != null) {
                tracked.add(specs[i]);
            }
        }
        tracked.sort(Comparator.comparing(CommandSpec::fullName));
        return tracked;
    }

    /** The calls counted for {@code spec}. */
    public long calls(CommandSpec spec) {
        int i = spec.ordinal();
        return i < calls.length ? calls[i] : 0;
    }

    /**
     * The lines of INFO commandstats, one per command with anything counted, sorted by name:
     * {@code cmdstat_get:calls=2,usec=5,usec_per_call=2.50,rejected_calls=0,failed_calls=0}.
     */
    public void appendInfo(StringBuilder out) {
        List<CommandSpec> used = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            if (specs[i] != null && (calls[i] | rejected[i] | failed[i]) != 0) {
                used.add(specs[i]);
            }
        }
        used.sort(Comparator.comparing(CommandSpec::fullName));
        for (CommandSpec spec : used) {
            int i = spec.ordinal();
            double perCall = calls[i] == 0 ? 0 : (double) micros[i] / calls[i];
            out.append("cmdstat_").append(spec.fullName())
                    .append(":calls=").append(calls[i])
                    .append(",usec=").append(micros[i])
                    .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", perCall))
                    .append(",rejected_calls=").append(rejected[i])
                    .append(",failed_calls=").append(failed[i])
                    .append("\r\n");
        }
    }

    /** The index of {@code spec}'s counts, growing the arrays first if needed (read them after this). */
    /**
     * The lines of INFO latencystats, one per command with a histogram, sorted by name:
     * {@code latency_percentiles_usec_get:p50=1.003,p99=3.007,p99.9=5.023}, each percentile of
     * {@code percentiles} in µs with three decimals (the top of its histogram slot), its label
     * printed as Redis prints it.
     */
    public void appendLatencyInfo(StringBuilder out, List<Double> percentiles) {
        for (CommandSpec spec : tracked()) {
            LatencyHistogram histogram = histograms[spec.ordinal()];
            out.append("latency_percentiles_usec_").append(spec.fullName()).append(':');
            for (int p = 0; p < percentiles.size(); p++) {
                if (p > 0) {
                    out.append(',');
                }
                double percentile = percentiles.get(p);
                out.append('p').append(ServerConfig.percentileText(percentile)).append('=')
                        .append(String.format(Locale.ROOT, "%.3f", histogram.valueAtPercentile(percentile) / 1000.0));
            }
            out.append("\r\n");
        }
    }

    private int slot(CommandSpec spec) {
        int i = spec.ordinal();
        if (i >= calls.length) {
            int length = Math.max(i + 1, calls.length * 2);
            specs = Arrays.copyOf(specs, length);
            calls = Arrays.copyOf(calls, length);
            micros = Arrays.copyOf(micros, length);
            rejected = Arrays.copyOf(rejected, length);
            failed = Arrays.copyOf(failed, length);
            histograms = Arrays.copyOf(histograms, length);
        }
        specs[i] = spec;
        return i;
    }
}
