package dev.ebb.server.config;

/**
 * Puts a changed directive into effect, e.g. reschedules the cron when {@code hz} changes. Registered with
 * {@link ServerConfig#onChange(String, ConfigListener)}.
 *
 * <p>Called on the thread that ran CONFIG SET (the command loop), after all values of that CONFIG SET are visible
 * through the getters, once per CONFIG SET even if several of its directives changed. It may refuse by throwing
 * {@link ConfigApplyException}: the values are then restored and the listeners that ran are called again to put the
 * old values back into effect.
 */
@FunctionalInterface
public interface ConfigListener {
    void onChange(ServerConfig config) throws ConfigApplyException;
}
