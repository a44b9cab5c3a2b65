package dev.ebb.server.command;

/** Redis's command groups, as COMMAND DOCS reports them and ACL categories name them. */
public enum CommandGroup {
    GENERIC("generic", "@keyspace"),
    STRING("string", "@string"),
    BITMAP("bitmap", "@bitmap"),
    HYPERLOGLOG("hyperloglog", "@hyperloglog"),
    LIST("list", "@list"),
    SET("set", "@set"),
    SORTED_SET("sorted-set", "@sortedset"),
    HASH("hash", "@hash"),
    GEO("geo", "@geo"),
    STREAM("stream", "@stream"),
    PUBSUB("pubsub", "@pubsub"),
    TRANSACTIONS("transactions", "@transaction"),
    SCRIPTING("scripting", "@scripting"),
    CONNECTION("connection", "@connection"),
    SERVER("server", null),
    CLUSTER("cluster", null);

    private final String docName;
    private final String aclCategory;

    CommandGroup(String docName, String aclCategory) {
        this.docName = docName;
        this.aclCategory = aclCategory;
    }

    /** The name COMMAND DOCS gives the group, e.g. {@code sorted-set}. */
    public String docName() {
        return docName;
    }

    /** The ACL category Redis puts every command of the group in, or null if none. */
    public String aclCategory() {
        return aclCategory;
    }
}
