package dev.ebb.server.config;

/**
 * {@code enable-debug-command}: who may run a protected command such as DEBUG, as Redis 7 decides it
 * ({@code allowProtectedAction}).
 */
public enum ProtectedAction implements ConfigEnum {
    /** Nobody: the command is refused (Redis 7's default). */
    NO("no"),
    /** Every client. */
    YES("yes"),
    /** Only clients connected over the loopback interface (127.0.0.0/8, ::1). */
    LOCAL("local");

    private final String configName;

    ProtectedAction(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }

    /** Whether a client is allowed; {@code loopback} says whether it connected over the loopback interface. */
    public boolean allows(boolean loopback) {
        return this == YES || (this == LOCAL && loopback);
    }
}
