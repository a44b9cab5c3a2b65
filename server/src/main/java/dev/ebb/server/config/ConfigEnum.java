package dev.ebb.server.config;

/** A Java enum whose constants are spelled in config files and CONFIG replies by {@link #configName()}. */
public interface ConfigEnum {
    /** The lowercase name used in config files and CONFIG GET, e.g. {@code allkeys-lru}. */
    String configName();
}
