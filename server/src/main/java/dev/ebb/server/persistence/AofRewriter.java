package dev.ebb.server.persistence;

import dev.ebb.storage.Database;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.RawString;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.types.UnsharedString;
import dev.ebb.storage.zset.SortedSet;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes the keyspace as commands (Redis's rewriteAppendOnlyFileRio, the base file with
 * {@code aof-use-rdb-preamble no}): per non-empty database a SELECT, then per key the shortest
 * commands that rebuild it (SET; RPUSH, SADD, ZADD, HMSET with at most 64 elements each, Redis's
 * AOF_REWRITE_ITEMS_PER_CMD) and a PEXPIREAT for a key with a time to live. Keys already expired
 * at {@code nowMs} are left out. With {@code timestampSec >= 0} the file opens with a
 * {@code #TS:} annotation, as Redis's does under {@code aof-timestamp-enabled}.
 *
 * <p>It reads the databases directly, so it must run on the command loop thread, which it holds
 * for the whole walk: O(keys + elements). Not thread-safe.
 */
final class AofRewriter {
    static final int ITEMS_PER_CMD = 64;

    private final OutputStream out;
    private final byte[] numberBuf = new byte[24];

    private AofRewriter(OutputStream out) {
        this.out = out;
    }

    /** Writes every database of {@code dbs} to {@code out}; returns the number of keys written. */
    static long write(Database[] dbs, long nowMs, long timestampSec, OutputStream out) throws IOException {
        AofRewriter w = new AofRewriter(out);
        if (timestampSec >= 0) {
            out.write(("#TS:" + timestampSec + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        long keys = 0;
        try {
            for (Database db : dbs) {
                keys += w.writeDb(db, nowMs);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return keys;
    }

    private long writeDb(Database db, long nowMs) throws IOException {
        if (db.size() == 0) {
            return 0;
        }
        command(2);
        bulk("SELECT");
        bulk(Long.toString(db.id()));
        long[] count = new long[1];
        db.forEachKey((key, value) -> {
            long expireAt = db.getExpire(key);
            if (expireAt != Database.NO_EXPIRE && expireAt < nowMs) {
                return;
            }
            try {
                writeKey(key, value);
                if (expireAt != Database.NO_EXPIRE) {
                    command(3);
                    bulk("PEXPIREAT");
                    bulk(key);
                    bulk(Long.toString(expireAt));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            count[0]++;
        });
        return count[0];
    }

    private void writeKey(byte[] key, Object value) throws IOException {
        if (value instanceof byte[] b) {
            set(key, b, b.length);
        } else if (value instanceof RawString r) {
            set(key, r.bytes(), r.length());
        } else if (value instanceof UnsharedString u) {
            set(key, u.bytes(), u.bytes().length);
        } else if (value instanceof ListValue list) {
            int n = list.size();
            for (int i = 0; i < n; i += ITEMS_PER_CMD) {
                int batch = Math.min(ITEMS_PER_CMD, n - i);
                command(2 + batch);
                bulk("RPUSH");
                bulk(key);
                for (int j = 0; j < batch; j++) {
                    bulk(list.get(i + j));
                }
            }
        } else if (value instanceof SetValue set) {
            Batches batches = new Batches("SADD", key, set.size(), 1);
            set.forEach(member -> batches.item(member, null));
        } else if (value instanceof SortedSet zset) {
            Batches batches = new Batches("ZADD", key, zset.size(), 2);
            zset.forEach((member, score) -> batches.item(score(score), member));
        } else if (value instanceof HashValue hash) {
            Batches batches = new Batches("HMSET", key, hash.size(), 2);
            hash.forEach((field, v) -> batches.item(field, v));
        } else {
            throw new IOException("cannot rewrite a value of type " + value.getClass().getSimpleName());
        }
    }

    private void set(byte[] key, byte[] bytes, int length) throws IOException {
        command(3);
        bulk("SET");
        bulk(key);
        bulk(bytes, length);
    }

    /** Emits {@code <cmd> key item...} in commands of at most {@link #ITEMS_PER_CMD} items. */
    private final class Batches {
        private final String cmd;
        private final byte[] key;
        private long left;
        private final int argsPerItem;
        private int inCommand;

        Batches(String cmd, byte[] key, long size, int argsPerItem) {
            this.cmd = cmd;
            this.key = key;
            this.left = size;
            this.argsPerItem = argsPerItem;
        }

        void item(byte[] first, byte[] second) {
            try {
                if (inCommand == 0) {
                    int batch = (int) Math.min(ITEMS_PER_CMD, left);
                    command(2 + batch * argsPerItem);
                    bulk(cmd);
                    bulk(key);
                    inCommand = batch;
                }
                bulk(first);
                if (argsPerItem == 2) {
                    bulk(second);
                }
                inCommand--;
                left--;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A score as strtod reads it back exactly: inf, -inf, or Java's shortest round-tripping form. */
    static byte[] score(double d) {
        String s;
        if (d == Double.POSITIVE_INFINITY) {
            s = "inf";
        } else if (d == Double.NEGATIVE_INFINITY) {
            s = "-inf";
        } else if (d == Math.rint(d) && Math.abs(d) < 1e17) {
            s = Long.toString((long) d);
            if (d == 0 && 1 / d < 0) {
                s = "-0";
            }
        } else {
            s = Double.toString(d);
        }
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private void command(int args) throws IOException {
        out.write('*');
        number(args);
        out.write('\r');
        out.write('\n');
    }

    private void bulk(String s) throws IOException {
        bulk(s.getBytes(StandardCharsets.US_ASCII));
    }

    private void bulk(byte[] b) throws IOException {
        bulk(b, b.length);
    }

    private void bulk(byte[] b, int length) throws IOException {
        out.write('$');
        number(length);
        out.write('\r');
        out.write('\n');
        out.write(b, 0, length);
        out.write('\r');
        out.write('\n');
    }

    private void number(long n) throws IOException {
        if (n == 0) {
            out.write('0');
            return;
        }
        int i = numberBuf.length;
        while (n > 0) {
            numberBuf[--i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        out.write(numberBuf, i, numberBuf.length - i);
    }
}
