package dev.ebb.storage.rdb;

import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.IntegerText;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one value of a given RDB type into Ebb's value classes (rdbLoadObject), for every type Redis
 * 7.2 loads but modules (streams through {@link StreamCodec}): the current encodings, the ziplist ones of
 * versions 9 and 10 (Redis 6.x and 7.0), the plain ones of older files, and Redis 7.4's hashes with field TTLs
 * (HASH_LISTPACK_EX, HASH_METADATA; fields expired before the reader's time are dropped). The value gets the
 * encoding Ebb would
 * give its content under the caller's {@link RdbLimits}, whatever the file used.
 *
 * <p>Checks what Redis's loading checks: listpacks, ziplists and intsets are validated entry by
 * entry, duplicate members or fields, NaN scores, odd pair counts are refused (empty
 * collections come back as null), element counts are never trusted for an allocation. Any failure is an
 * {@link RdbException}; nothing is half-applied because the value is returned only when whole.
 *
 * <p>Costs: O(size of the value) plus the encoding's insert costs (a compact value is at most the
 * limits' size). Not thread-safe; one instance per input.
 */
final class ValueReader {
    private static final int MAX_PREALLOCATED = 1024;
    /** Redis's EB_EXPIRE_TIME_MAX: field expiries use 48 bits. */
    private static final long MAX_FIELD_EXPIRY = (1L << 48) - 1;

    private final RdbInput in;
    private final RdbLimits limits;
    private final long nowMs;

    /** {@code nowMs}: hash fields whose expiry is before it are dropped (0 keeps them all). */
    ValueReader(RdbInput in, RdbLimits limits, long nowMs) {
        this.in = in;
        this.limits = limits;
        this.nowMs = nowMs;
    }

    /**
     * The value, or null for an empty collection (Redis skips such keys in a file and refuses them
     * in a DUMP payload).
     */
    Object read(int type) throws IOException {
        return switch (type) {
            case RdbConstants.TYPE_STRING -> in.readString();
            case RdbConstants.TYPE_LIST -> list(readStrings(in.readCount()));
            case RdbConstants.TYPE_SET -> setOf(readStrings(in.readCount()), false);
            case RdbConstants.TYPE_ZSET, RdbConstants.TYPE_ZSET_2 -> plainZset(type == RdbConstants.TYPE_ZSET_2);
            case RdbConstants.TYPE_HASH -> hash(readStrings(checkedPairs(in.readCount())));
            case RdbConstants.TYPE_SET_INTSET -> intset();
            case RdbConstants.TYPE_SET_LISTPACK -> setOf(listpackEntries(blob()), true);
            case RdbConstants.TYPE_HASH_LISTPACK -> hash(listpackEntries(blob()));
            case RdbConstants.TYPE_HASH_ZIPLIST -> hash(ziplistEntries(blob()));
            case RdbConstants.TYPE_HASH_LISTPACK_EX -> listpackExHash();
            case RdbConstants.TYPE_HASH_METADATA -> metadataHash();
            case RdbConstants.TYPE_ZSET_LISTPACK -> packedZset(listpackEntries(blob()));
            case RdbConstants.TYPE_ZSET_ZIPLIST -> packedZset(ziplistEntries(blob()));
            case RdbConstants.TYPE_LIST_ZIPLIST -> list(ziplistEntries(blob()));
            case RdbConstants.TYPE_LIST_QUICKLIST, RdbConstants.TYPE_LIST_QUICKLIST_2 ->
                    quicklist(type == RdbConstants.TYPE_LIST_QUICKLIST_2);
            case RdbConstants.TYPE_STREAM_LISTPACKS, RdbConstants.TYPE_STREAM_LISTPACKS_2,
                    RdbConstants.TYPE_STREAM_LISTPACKS_3 -> StreamCodec.read(in, type);
            default -> throw RdbException.corrupt(in.consumed(), "Unknown RDB encoding type " + type);
        };
    }

    private byte[] blob() throws IOException {
        return in.readString();
    }

    private List<byte[]> readStrings(int count) throws IOException {
        List<byte[]> items = new ArrayList<>(Math.min(count, MAX_PREALLOCATED));
        for (int i = 0; i < count; i++) {
            items.add(in.readString());
        }
        return items;
    }

    private int checkedPairs(int pairs) throws RdbException {
        if (pairs > (Integer.MAX_VALUE - 8) / 2) {
            throw corrupt("hash of " + pairs + " fields refused");
        }
        return pairs * 2;
    }

    private List<byte[]> listpackEntries(byte[] lp) throws IOException {
        List<byte[]> items = new ArrayList<>();
        try {
            ListpackReader r = new ListpackReader(lp);
            while (r.hasNext()) {
                items.add(r.next());
            }
        } catch (RdbException e) {
            throw corrupt(e.getMessage());
        }
        return items;
    }

    private List<byte[]> ziplistEntries(byte[] zl) throws IOException {
        List<byte[]> items = new ArrayList<>();
        try {
            ZiplistReader r = new ZiplistReader(zl);
            while (r.hasNext()) {
                items.add(r.next());
            }
        } catch (RdbException e) {
            throw corrupt(e.getMessage());
        }
        return items;
    }

    private ListValue list(List<byte[]> items) throws RdbException {
        if (items.isEmpty()) {
            return null;
        }
        int fill = limits.listMaxListpackSize();
        ListValue list = ListValue.quicklist(fill, limits.listCompressDepth());
        for (byte[] e : items) {
            list.pushTail(e);
        }
        list.settleBuilt(fill);
        return list;
    }

    /** LIST_QUICKLIST (ziplist nodes) or LIST_QUICKLIST_2 (packed listpack or plain nodes). */
    private ListValue quicklist(boolean version2) throws IOException {
        int nodes = in.readCount();
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            long container = version2 ? in.readLength() : RdbConstants.QUICKLIST_NODE_PACKED;
            if (container == RdbConstants.QUICKLIST_NODE_PLAIN) {
                items.add(in.readString());
            } else if (container == RdbConstants.QUICKLIST_NODE_PACKED) {
                byte[] node = in.readString();
                List<byte[]> entries = version2 ? listpackEntries(node) : ziplistEntries(node);
                items.addAll(entries);
            } else {
                throw corrupt("quicklist integrity check failed: container " + container);
            }
        }
        return list(items);
    }

    private SetValue setOf(List<byte[]> members, boolean fromListpack) throws RdbException {
        if (members.isEmpty()) {
            return null;
        }
        long n = members.size();
        RdbLimits l = limits;
        SetValue set = fromListpack && n <= l.setMaxListpackEntries()
                ? SetValue.listpack()
                : SetValue.sized(members.get(0), n, l.setMaxIntsetEntries(), l.setMaxListpackEntries());
        for (byte[] m : members) {
            if (!set.add(m, l.setMaxIntsetEntries(), l.setMaxListpackEntries(), l.setMaxListpackValue())) {
                throw corrupt("Duplicate set members detected");
            }
        }
        return set;
    }

    private SetValue intset() throws IOException {
        long[] values;
        try {
            values = Intset.decode(blob());
        } catch (RdbException e) {
            throw corrupt(e.getMessage());
        }
        SetValue set = new SetValue();
        RdbLimits l = limits;
        for (long v : values) {
            set.add(IntegerText.bytes(v), l.setMaxIntsetEntries(), l.setMaxListpackEntries(), l.setMaxListpackValue());
        }
        return set;
    }

    private HashValue hash(List<byte[]> items) throws RdbException {
        if (items.isEmpty()) {
            return null;
        }
        if (items.size() % 2 != 0) {
            throw corrupt("hash with an odd number of entries");
        }
        HashValue hash = new HashValue();
        RdbLimits l = limits;
        hash.convertForNewFields(items.size() / 2, l.hashMaxListpackEntries());
        for (int i = 0; i < items.size(); i += 2) {
            if (!hash.put(items.get(i), items.get(i + 1), l.hashMaxListpackEntries(), l.hashMaxListpackValue())) {
                throw corrupt("Duplicate hash fields detected");
            }
        }
        return hash;
    }

    /** HASH_LISTPACK_EX: the minimum expiry (not needed), then field, value, ttl triplets (0: none). */
    private HashValue listpackExHash() throws IOException {
        in.readLe(8);
        List<byte[]> items = listpackEntries(blob());
        if (items.size() % 3 != 0) {
            throw corrupt("hash listpack of " + items.size() + " entries, not triplets");
        }
        int n = items.size() / 3;
        List<byte[]> pairs = new ArrayList<>(n * 2);
        long[] expiries = new long[n];
        for (int i = 0; i < n; i++) {
            pairs.add(items.get(3 * i));
            pairs.add(items.get(3 * i + 1));
            expiries[i] = fieldTtl(items.get(3 * i + 2));
        }
        return timedHash(pairs, expiries);
    }

    /** HASH_METADATA: the minimum expiry, a count, then ttl (0: none, else expiry - min + 1), field, value. */
    private HashValue metadataHash() throws IOException {
        long min = in.readLe(8);
        int n = in.readCount();
        List<byte[]> pairs = new ArrayList<>(Math.min(n, MAX_PREALLOCATED) * 2);
        long[] expiries = new long[Math.min(n, MAX_PREALLOCATED)];
        for (int i = 0; i < n; i++) {
            long ttl = in.readLength();
            if (i == expiries.length) {
                expiries = java.util.Arrays.copyOf(expiries, (int) Math.min(n, (long) expiries.length * 2));
            }
            expiries[i] = ttl == RdbConstants.FIELD_NO_TTL ? HashValue.NO_TTL : checkedExpiry(min + ttl - 1);
            pairs.add(in.readString());
            pairs.add(in.readString());
        }
        return timedHash(pairs, expiries);
    }

    private long fieldTtl(byte[] entry) throws RdbException {
        long ttl;
        try {
            ttl = IntegerText.parse(entry);
        } catch (RuntimeException e) {
            throw corrupt("hash field TTL is not an integer");
        }
        return ttl == RdbConstants.FIELD_NO_TTL ? HashValue.NO_TTL : checkedExpiry(ttl);
    }

    private long checkedExpiry(long expiry) throws RdbException {
        if (expiry < 0 || expiry > MAX_FIELD_EXPIRY) {
            throw corrupt("hash field TTL out of range: " + expiry);
        }
        return expiry;
    }

    /** A hash of {@code pairs} with the fields' expiries; fields expired before nowMs are left out. */
    private HashValue timedHash(List<byte[]> pairs, long[] expiries) throws RdbException {
        List<byte[]> live = new ArrayList<>(pairs.size());
        List<Long> liveExpiries = new ArrayList<>(pairs.size() / 2);
        for (int i = 0; i < pairs.size() / 2; i++) {
            if (expiries[i] == HashValue.NO_TTL || expiries[i] >= nowMs) {
                live.add(pairs.get(2 * i));
                live.add(pairs.get(2 * i + 1));
                liveExpiries.add(expiries[i]);
            }
        }
        HashValue hash = hash(live);
        if (hash == null) {
            return null;
        }
        for (int i = 0; i < liveExpiries.size(); i++) {
            if (liveExpiries.get(i) != HashValue.NO_TTL) {
                hash.setFieldExpiry(live.get(2 * i), liveExpiries.get(i));
            }
        }
        return hash;
    }

    private SortedSet plainZset(boolean binaryScores) throws IOException {
        int count = in.readCount();
        if (count == 0) {
            return null;
        }
        List<byte[]> members = new ArrayList<>(Math.min(count, MAX_PREALLOCATED));
        double[] scores = new double[Math.min(count, MAX_PREALLOCATED)];
        for (int i = 0; i < count; i++) {
            members.add(in.readString());
            if (i == scores.length) {
                scores = java.util.Arrays.copyOf(scores, (int) Math.min(count, (long) scores.length * 2));
            }
            scores[i] = binaryScores ? in.readBinaryDouble() : in.readTextDouble();
        }
        return zset(members, scores);
    }

    private SortedSet packedZset(List<byte[]> items) throws RdbException {
        if (items.isEmpty()) {
            return null;
        }
        if (items.size() % 2 != 0) {
            throw corrupt("sorted set listpack of " + items.size() + " entries");
        }
        List<byte[]> members = new ArrayList<>(items.size() / 2);
        double[] scores = new double[items.size() / 2];
        for (int i = 0; i < items.size(); i += 2) {
            members.add(items.get(i));
            double score = Scores.parse(items.get(i + 1));
            if (Double.isNaN(score)) {
                throw corrupt("sorted set score is not a number");
            }
            scores[i / 2] = score;
        }
        return zset(members, scores);
    }

    private SortedSet zset(List<byte[]> members, double[] scores) throws RdbException {
        long maxLength = 0;
        for (byte[] m : members) {
            maxLength = Math.max(maxLength, m.length);
        }
        RdbLimits l = limits;
        SortedSet zset = SortedSet.create(members.size(), maxLength, l.zsetMaxListpackEntries(), l.zsetMaxListpackValue());
        for (int i = 0; i < members.size(); i++) {
            if (Double.isNaN(scores[i])) {
                throw corrupt("Zset with NAN score detected");
            }
            int result = zset.add(members.get(i), scores[i], 0, l.zsetMaxListpackEntries(), l.zsetMaxListpackValue());
            if (result != SortedSet.ADDED) {
                throw corrupt("Duplicate zset fields detected");
            }
        }
        return zset;
    }

    private RdbException corrupt(String what) {
        return RdbException.corrupt(in.consumed(), what);
    }
}
