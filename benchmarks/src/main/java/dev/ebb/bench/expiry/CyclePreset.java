package dev.ebb.bench.expiry;

import dev.ebb.storage.expiry.ExpireCycleConfig;
import java.util.Locale;

/**
 * Named {@link ExpireCycleConfig}s the cycle benchmark and the simulation vary: Redis's defaults,
 * the two config knobs ({@code active-expire-effort}, {@code hz}) and the three numbers behind
 * them one at a time (keys per loop, acceptable stale percentage, CPU budget).
 */
enum CyclePreset {
    /** hz 10, effort 1: 20 keys a loop, repeat above 10% stale, 25 ms (25%) per tick. */
    DEFAULT("default", ExpireCycleConfig.defaults()),
    /** hz 10, effort 10: 65 keys a loop, repeat above 1% stale, 43 ms per tick. */
    EFFORT10("effort10", ExpireCycleConfig.forEffort(10, 10)),
    /** hz 100, effort 1: the same 25% of the time in ten 2.5 ms cycles a second. */
    HZ100("hz100", ExpireCycleConfig.forEffort(1, 100)),
    /** Defaults but 100 keys a loop. */
    KEYS100("keys100", with(ExpireCycleConfig.defaults(), 100, 10, 25)),
    /** Defaults but the loop repeats while more than 1% of its sample had expired. */
    STALE1("stale1", with(ExpireCycleConfig.defaults(), 20, 1, 25)),
    /** Defaults but 5% of the cron period (5 ms a tick) instead of 25%. */
    CPU5("cpu5", with(ExpireCycleConfig.defaults(), 20, 10, 5));

    private final String label;
    private final ExpireCycleConfig config;

    CyclePreset(String label, ExpireCycleConfig config) {
        this.label = label;
        this.config = config;
    }

    String label() {
        return label;
    }

    ExpireCycleConfig config() {
        return config;
    }

    /** The preset labelled {@code label}. */
    static CyclePreset of(String label) {
        String lower = label.toLowerCase(Locale.ROOT);
        for (CyclePreset preset : values()) {
            if (preset.label.equals(lower)) {
                return preset;
            }
        }
        throw new IllegalArgumentException("unknown cycle preset: label=" + label);
    }

    private static ExpireCycleConfig with(ExpireCycleConfig base, int keysPerLoop, int stalePercent, int cpuPercent) {
        return new ExpireCycleConfig(base.hz(), keysPerLoop, stalePercent, cpuPercent, base.fastCycleDurationMicros(),
                base.sliceMicros(), base.dbsPerCall(), base.timeCheckInterval());
    }
}
