/**
 * Point-in-time snapshots taken without stopping the command loop and without copying the keyspace.
 *
 * <h2>Why</h2>
 * Redis forks: the child serializes the parent's memory as of the fork, and copy-on-write duplicates
 * every page the parent writes meanwhile (up to the whole dataset), after a fork that itself stalls the
 * loop for about 10 ms per GB of page tables. The JVM cannot fork. Ebb instead lets the loop and a walk
 * cooperate, as Dragonfly's forkless snapshot does, so that each key is serialized exactly once, as it
 * was at the snapshot's instant.
 *
 * <h2>How</h2>
 * <ul>
 *   <li><b>Instant.</b> {@link dev.ebb.storage.snapshot.Snapshot#begin} runs on the loop between two
 *       commands and, per database, flips the main dict's mark parity (O(1)): every entry present is now
 *       <em>unmarked</em> (not yet taken) and every entry inserted later is born marked, so keys created
 *       after the instant are never taken. The mark is one bit of the dict's per-slot meta int; it moves
 *       with the entry through resizes and backward-shift deletions.</li>
 *   <li><b>Barrier.</b> Before the loop reads, changes, expires, evicts or deletes a key (every lookup
 *       and write path of {@link dev.ebb.storage.Database}), it checks the key's mark: if unmarked, it
 *       marks it and hands the pre-image (value, expiry, LRU/LFU meta) to the snapshot's sink first. Reads
 *       are included so that a value cannot be changed in place behind the database's back: every in-place
 *       change starts with a lookup. Taking a key early costs nothing extra in total (it is taken once
 *       either way).</li>
 *   <li><b>Walk.</b> {@link dev.ebb.storage.snapshot.Snapshot#advance} walks the tables' slots in bounded
 *       slices and takes the unmarked entries it meets. A resize step or a backward shift may carry an
 *       unmarked entry behind the walk's position; rather than track moves, the snapshot counts the keys
 *       still to take (the key count at the instant minus every key taken, each exactly once thanks to the
 *       mark) and walks the tables again until the count is zero. Table resizes therefore need not be
 *       deferred; a resize during a snapshot costs at most one more pass over the tables.</li>
 *   <li><b>FLUSHDB / SWAPDB.</b> A snapshot follows tables, not database numbers: after SWAPDB the
 *       tables of database 0 at the instant are still written as database 0, and tables dropped by FLUSHDB
 *       are kept by the snapshot alone (the only memory a snapshot keeps beyond its buffers, as Redis's
 *       child keeps the flushed pages) and walked without the loop touching them again.</li>
 * </ul>
 *
 * <h2>Costs and limits</h2>
 * Memory: one bit per key (taken from the dict's hash tag, which keeps 6 bits) and nothing per key
 * otherwise; the sink decides how much encoded output it buffers. Time on the loop: the flip is O(number
 * of databases); each key is handed to the sink once, on the loop thread (the sink encodes it there, so
 * the values it hands on are immutable bytes); the walk's slices are bounded by a number of slots, but a
 * single large value (a collection of millions of elements) is taken in one piece. A snapshot given up
 * half way ({@link dev.ebb.storage.snapshot.Snapshot#abandon}) marks the rest in one O(capacity) pass, so
 * the next one starts from the state at rest.
 *
 * <h2>Users</h2>
 * The server's persistence package drives every point-in-time file through one walker over this
 * snapshot ({@code SnapshotHandOver}): BGSAVE and the save points, the AOF rewrite's new base (so
 * BGREWRITEAOF no longer stops the loop either), and, walked to the end in one go on the loop, SAVE and
 * the first AOF base. The databases carry one snapshot at a time, which is why BGSAVE and the AOF
 * rewrite exclude each other, as Redis's one child at a time does.
 *
 * <p>Everything here runs on the command loop thread.
 */
package dev.ebb.storage.snapshot;
