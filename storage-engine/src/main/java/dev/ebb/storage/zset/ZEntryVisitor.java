package dev.ebb.storage.zset;

/** Receives the members of a sorted set walk, with their scores, in the walk's order. */
@FunctionalInterface
public interface ZEntryVisitor {
    /**
     * Called once per member reported.
     *
     * @param member the stored member instance (do not modify it)
     * @param score its score
     */
    void visit(byte[] member, double score);
}
