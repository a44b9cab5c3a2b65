package dev.ebb.server.acl;

import java.util.Locale;

/**
 * Redis 7.2's ACL command categories, in Redis's order (the order ACL CAT and COMMAND INFO list them
 * in). A command's categories are a bit set of these ordinals.
 */
public enum AclCategory {
    KEYSPACE, READ, WRITE, SET, SORTEDSET, LIST, HASH, STRING, BITMAP, HYPERLOGLOG, GEO, STREAM, PUBSUB, ADMIN,
    FAST, SLOW, BLOCKING, DANGEROUS, CONNECTION, TRANSACTION, SCRIPTING;

    private static final AclCategory[] ALL = values();

    /** The name without its {@code @}, as ACL CAT prints it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public long bit() {
        return 1L << ordinal();
    }

    /** The category named {@code name} (no {@code @}, any case), or null. */
    public static AclCategory byName(String name) {
        for (AclCategory category : ALL) {
            if (category.name().equalsIgnoreCase(name)) {
                return category;
            }
        }
        return null;
    }
}
