package dev.ebb.server.persistence;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis's aofRewriteLimited: once {@link #THRESHOLD} rewrites in a row have failed, automatic and
 * scheduled rewrites wait 1 minute, then 2, 4 … up to {@link #MAX_DELAY_MINUTES} between attempts (a full
 * disk is not hammered with one rewrite per cron tick). BGREWRITEAOF itself is never limited. Loop thread
 * only.
 */
final class RewriteLimit {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);

    static final int THRESHOLD = 3;
    static final int MAX_DELAY_MINUTES = 60;

    private int nextDelayMinutes;
    private long nextRewriteSec;

    /** Whether a rewrite must wait now, given the failures in a row so far; logs when a new wait begins. */
    boolean limited(long consecutiveFailures, long nowSec) {
        if (consecutiveFailures < THRESHOLD) {
            nextDelayMinutes = 0;
            nextRewriteSec = 0;
            return false;
        }
        if (nextRewriteSec != 0) {
            if (nowSec < nextRewriteSec) {
                return true;
            }
            nextRewriteSec = 0;
            return false;
        }
        nextDelayMinutes = nextDelayMinutes == 0 ? 1 : Math.min(nextDelayMinutes * 2, MAX_DELAY_MINUTES);
        nextRewriteSec = nowSec + nextDelayMinutes * 60L;
        LOG.warn("Background AOF rewrite has repeatedly failed and triggered the limit, will retry in {} minutes",
                nextDelayMinutes);
        return true;
    }
}
