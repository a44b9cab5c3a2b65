package dev.ebb.storage.stream;

/**
 * One stream entry as a reader sees it: its ID and its field/value pairs. Handed to
 * {@link StreamValue.EntryVisitor}s; fields and values are fresh arrays the visitor may keep.
 */
public record StreamEntry(StreamId id, byte[][] fields, byte[][] values) {
}
