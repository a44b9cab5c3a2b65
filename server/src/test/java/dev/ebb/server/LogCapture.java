package dev.ebb.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects what one class logs at INFO and above while open, for tests that check Ebb's log lines.
 * Restores the logger's level when closed. The lines are read under the appender's lock, so a test
 * thread may read what the server's threads log.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final Level previousLevel;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogCapture(Class<?> source) {
        logger = (Logger) LoggerFactory.getLogger(source);
        previousLevel = logger.getLevel();
        logger.setLevel(Level.INFO);
        appender.start();
        logger.addAppender(appender);
    }

    /** The lines logged so far, as {@code LEVEL message}. */
    public List<String> lines() {
        synchronized (appender) {
            List<String> out = new ArrayList<>();
            for (ILoggingEvent event : appender.list) {
                out.add(event.getLevel() + " " + event.getFormattedMessage());
            }
            return out;
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previousLevel);
    }
}
