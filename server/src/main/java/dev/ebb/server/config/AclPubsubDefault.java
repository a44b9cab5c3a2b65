package dev.ebb.server.config;

/** {@code acl-pubsub-default}: the channels a new ACL user (and {@code reset}) starts with. */
public enum AclPubsubDefault implements ConfigEnum {
    /** No channel until {@code &pattern} rules grant some (Redis 7's default). */
    RESETCHANNELS("resetchannels"),
    /** Every channel, as before Redis 7. */
    ALLCHANNELS("allchannels");

    private final String configName;

    AclPubsubDefault(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
