package dev.ebb.server.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the scheduling priority of the calling thread (a snapshot's writer thread) to nice
 * {@link #NICE}, so that on a busy machine the command loop, not the save, gets the CPU: the writer
 * still runs at full speed on an otherwise idle core. Redis's forked child competes with the server
 * as an equal; a thread of the same process would too, and on two cores with a client load that
 * doubles the loop's tail latency during a BGSAVE.
 *
 * <p>Java has no call for a thread's nice value (Thread priorities are ignored on Linux), so this runs
 * {@code renice} on the thread's own id, read from {@code /proc/thread-self}. Best effort: where either
 * is missing (not Linux, no renice) nothing changes and the reason is logged at debug level.
 */
final class WriterPriority {
    private static final Logger LOG = LoggerFactory.getLogger(WriterPriority.class);
    static final int NICE = 10;
    private static final long TIMEOUT_SECONDS = 5;

    private WriterPriority() {
    }

    /** Lowers the calling thread's priority; returns whether it was lowered. */
    static boolean lowerCurrentThread() {
        Path self = Path.of("/proc/thread-self");
        if (!Files.exists(self)) {
            return false;
        }
        try {
            String tid = Files.readSymbolicLink(self).getFileName().toString();
            Process p = new ProcessBuilder("renice", "-n", Integer.toString(NICE), "-p", tid)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroy();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException | RuntimeException e) {
            LOG.debug("writer thread priority unchanged: {}", e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
