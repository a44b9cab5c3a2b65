package dev.ebb.bench.expiry;

import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Runs the expiry simulation ({@link ExpirySimulator}) for every workload and strategy, and for
 * the cycle presets with {@code sampling} on the jittered and mass-expiry workloads, then writes into the results directory:
 * <ul>
 *   <li>{@code expiry-sim-timeline.csv}: one row per virtual second per run, per 100 ms cron tick for the
 *       mass expiry (deterministic);</li>
 *   <li>{@code expiry-sim-summary.csv}: one line per run (deterministic);</li>
 *   <li>{@code expiry-sim-measured.csv}: real time spent, per run (varies with the machine);</li>
 *   <li>{@code expiry-stale-<workload>.svg}, {@code expiry-examined-<workload>.svg} and
 *       {@code expiry-stale-presets-<workload>.svg}: the charts.</li>
 * </ul>
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.ebb.bench.expiry.ExpirySimulation
 * [resultsDir] [seed]} (defaults {@code benchmarks/results}, 1).
 */
public final class ExpirySimulation {
    static final long DEFAULT_SEED = 1;

    private ExpirySimulation() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "benchmarks/results");
        long seed = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_SEED;
        Files.createDirectories(dir);
        List<SimulationResult> results = new ArrayList<>();
        for (TtlPattern ttl : TtlPattern.values()) {
            List<SimulationResult> byStrategy = new ArrayList<>();
            for (ExpiryStrategyKind strategy : ExpiryStrategyKind.values()) {
                byStrategy.add(runAndReport(workload(ttl, seed).withStrategy(strategy)));
            }
            results.addAll(byStrategy);
            String name = ttl.label();
            write(dir.resolve("expiry-stale-" + name + ".svg"), chart("Stale keys held, " + describe(ttl),
                    "stale keys (expired, not yet reclaimed)", false, byStrategy, SimulationRow::peakStaleKeys,
                    r -> r.scenario().strategy().configName()));
            write(dir.resolve("expiry-examined-" + name + ".svg"), chart("Keys examined by active expiry per "
                    + rowName(ttl) + ", " + describe(ttl), "keys examined per " + rowName(ttl), true, byStrategy,
                    SimulationRow::keysExamined, r -> r.scenario().strategy().configName()));
        }
        for (TtlPattern ttl : new TtlPattern[] {TtlPattern.JITTERED, TtlPattern.MASS}) {
            List<SimulationResult> byPreset = new ArrayList<>();
            byPreset.add(results.stream().filter(r -> r.scenario().ttl() == ttl
                    && r.scenario().strategy() == ExpiryStrategyKind.SAMPLING).findFirst().orElseThrow());
            for (CyclePreset preset : new CyclePreset[] {CyclePreset.EFFORT10, CyclePreset.HZ100, CyclePreset.CPU5}) {
                byPreset.add(runAndReport(workload(ttl, seed).withPreset(preset)));
            }
            results.addAll(byPreset.subList(1, byPreset.size()));
            write(dir.resolve("expiry-stale-presets-" + ttl.label() + ".svg"), chart("Stale keys held by sampling, "
                    + describe(ttl) + ", per cycle preset", "stale keys (expired, not yet reclaimed)", false, byPreset,
                    SimulationRow::peakStaleKeys, r -> r.scenario().preset().label()));
        }
        write(dir.resolve("expiry-sim-timeline.csv"), timelineCsv(results));
        write(dir.resolve("expiry-sim-summary.csv"), summaryCsv(results));
        StringBuilder measured = new StringBuilder(SimulationResult.MEASURED_HEADER).append('\n');
        for (SimulationResult result : results) {
            measured.append(result.measuredCsv()).append('\n');
        }
        write(dir.resolve("expiry-sim-measured.csv"), measured.toString());
    }

    /**
     * The standard workload for a TTL pattern: 2,000 SET EX a second for 10 minutes (10% of them
     * overwrite an earlier key) and 500 GETs a second, or for the mass expiry 10,000 SET EXAT a
     * second for one minute, all expiring together a minute later; {@code sampling}, default
     * preset, rows every second (every tick for the mass expiry, which is over in a second).
     */
    static SimulationScenario workload(TtlPattern ttl, long seed) {
        boolean mass = ttl == TtlPattern.MASS;
        int writesPerSecond = mass ? 10_000 : 2_000;
        int loadSeconds = mass ? 60 : 600;
        int horizon = (int) (loadSeconds + ttl.maxTtlMs() / 1000 + 60);
        return new SimulationScenario(ttl, writesPerSecond, loadSeconds, 10, 500, horizon, mass ? 100 : 1000,
                ExpiryStrategyKind.SAMPLING, CyclePreset.DEFAULT, SimulationScenario.DEFAULT_EXAMINE_NANOS,
                SimulationScenario.DEFAULT_DELETE_NANOS, seed);
    }

    static String timelineCsv(List<SimulationResult> results) {
        StringBuilder csv = new StringBuilder(1 << 20).append("workload,strategy,preset,")
                .append(SimulationRow.CSV_HEADER).append('\n');
        for (SimulationResult result : results) {
            String labels = result.labels();
            for (SimulationRow row : result.rows()) {
                csv.append(labels).append(',').append(row.toCsv()).append('\n');
            }
        }
        return csv.toString();
    }

    static String summaryCsv(List<SimulationResult> results) {
        StringBuilder csv = new StringBuilder(SimulationResult.SUMMARY_HEADER).append('\n');
        for (SimulationResult result : results) {
            csv.append(result.summaryCsv()).append('\n');
        }
        return csv.toString();
    }

    /**
     * A chart of {@code metric} over time, one series per result, named by {@code name}. The mass
     * expiry is drawn from 2 s before its instant to 8 s after, where everything happens.
     */
    static String chart(String title, String yLabel, boolean logY, List<SimulationResult> results,
            ToDoubleFunction<SimulationRow> metric, Function<SimulationResult, String> name) {
        SvgLineChart chart = new SvgLineChart(title, "virtual time (s)", yLabel, logY);
        for (SimulationResult result : results) {
            SimulationScenario scenario = result.scenario();
            long massAtMs = scenario.loadSeconds() * 1000L + TtlPattern.MASS_DELAY_MS;
            List<SimulationRow> rows = scenario.ttl() != TtlPattern.MASS ? result.rows() : result.rows().stream()
                    .filter(row -> row.timeMillis() >= massAtMs - 2000 && row.timeMillis() <= massAtMs + 8000)
                    .toList();
            double[] xs = new double[rows.size()];
            double[] ys = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                xs[i] = rows.get(i).timeMillis() / 1000.0;
                ys[i] = metric.applyAsDouble(rows.get(i));
            }
            chart.add(name.apply(result), xs, ys);
        }
        return chart.render();
    }

    private static SimulationResult runAndReport(SimulationScenario scenario) {
        long start = System.nanoTime();
        SimulationResult result = new ExpirySimulator(scenario).run();
        System.out.printf("%-32s %6.1f s  %s%n", result.labels(), (System.nanoTime() - start) / 1e9,
                result.summaryCsv());
        return result;
    }

    /** What one row covers: a cron tick for the short mass-expiry run, a second otherwise. */
    private static String rowName(TtlPattern ttl) {
        return ttl == TtlPattern.MASS ? "100 ms tick" : "second";
    }

    private static String describe(TtlPattern ttl) {
        switch (ttl) {
            case UNIFORM:
                return "TTL uniform 1-600 s";
            case JITTERED:
                return "TTL 300 s + rand(60 s)";
            default:
                return "mass expiry at one instant";
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
