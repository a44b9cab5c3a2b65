package dev.ebb.server.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Forcing and closing the append-only file's channels, logging what fails as Redis logs it. Stateless. */
final class AofChannels {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);

    private AofChannels() {
    }

    /** fsyncs {@code ch} (if any); a failure is logged and the caller goes on. */
    static void force(FileChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.force(false);
        } catch (IOException e) {
            LOG.warn("Fail to fsync the AOF file: {}", e.getMessage());
        }
    }

    /** fsyncs, then closes {@code ch} (if any). */
    static void forceAndClose(FileChannel ch) {
        force(ch);
        closeQuietly(ch);
    }

    static void closeQuietly(FileChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException e) {
            LOG.debug("close failed: {}", e.toString());
        }
    }
}
