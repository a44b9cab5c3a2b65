package dev.ebb.server;

import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every error reply sent, counted in total (INFO stats {@code total_error_replies}) and by error
 * code (INFO errorstats, {@code errorstat_WRONGTYPE:count=1}), with Redis's rules:
 * <ul>
 *   <li>The code is the reply's first word when a space ends it within the reply's first 32 bytes
 *       (the {@code -} included), else {@code ERR}; {@code :}, {@code #}, CR and LF in it become
 *       {@code _} so that the INFO line stays parseable.</li>
 *   <li>Errors of commands run by scripts count (the script's client is observed too); a script
 *       passing such an error on to its caller is a repeat and does not count again, though the
 *       calling command still failed ({@link #events()} sees it).</li>
 *   <li>At most {@value #MAX_CODES} codes: the first error with one more code clears them all, logs
 *       them, and leaves only {@code ERRORSTATS_DISABLED} with count 1 until CONFIG RESETSTAT; the
 *       total goes on counting.</li>
 * </ul>
 * Codes are listed in byte order, as Redis's radix tree lists them. Loop thread only.
 */
public final class ErrorStats {
    /** Redis's ERROR_STATS_NUMBER. */
    static final int MAX_CODES = 128;
    static final String DISABLED = "ERRORSTATS_DISABLED";
    /** Characters of the message searched for the space after the code: Redis's 32 bytes minus the {@code -}. */
    private static final int CODE_SEARCH_CHARS = 31;
    private static final Logger LOG = LoggerFactory.getLogger(ErrorStats.class);

    private final Map<String, long[]> byCode = new TreeMap<>();
    private long total;
    private long events;
    private boolean disabled;

    /** Counts one error reply; {@code message} is its text without the leading {@code -}. */
    void record(String message, boolean repeated) {
        events++;
        if (repeated) {
            return;
        }
        total++;
        if (disabled) {
            return;
        }
        String code = code(message);
        long[] count = byCode.get(code);
        if (count == null) {
            if (byCode.size() >= MAX_CODES) {
                disable();
                return;
            }
            count = new long[1];
            byCode.put(code, count);
        }
        count[0]++;
    }

    /** Error replies sent since start-up or the last CONFIG RESETSTAT, repeats left out. */
    public long total() {
        return total;
    }

    /** Error replies sent, repeats included: what tells whether a command replied an error. */
    long events() {
        return events;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        byCode.clear();
        total = 0;
        disabled = false;
    }

    /** The lines of INFO errorstats: {@code errorstat_<code>:count=<n>}. */
    public void appendInfo(StringBuilder out) {
        for (Map.Entry<String, long[]> e : byCode.entrySet()) {
            out.append("errorstat_").append(e.getKey()).append(":count=").append(e.getValue()[0]).append("\r\n");
        }
    }

    private void disable() {
        LOG.warn("Errorstats stopped adding new errors because the number of different errors reached {}; "
                + "all new errors will be tracked as '{}'", MAX_CODES, DISABLED);
        LOG.warn("Current errors code list: {}", byCode.keySet());
        byCode.clear();
        byCode.put(DISABLED, new long[] {1});
        disabled = true;
    }

    static String code(String message) {
        int space = message.indexOf(' ');
        if (space < 0 || space >= CODE_SEARCH_CHARS) {
            return "ERR";
        }
        String code = message.substring(0, space);
        for (int i = 0; i < code.length(); i++) {
            char ch = code.charAt(i);
            if (ch == ':' || ch == '#' || ch == '\r' || ch == '\n') {
                return code.replace(':', '_').replace('#', '_').replace('\r', '_').replace('\n', '_');
            }
        }
        return code;
    }
}
