package dev.ebb.server.persistence;

import dev.ebb.storage.Database;
import dev.ebb.storage.stream.ConsumerGroup;
import dev.ebb.storage.stream.PendingEntry;
import dev.ebb.storage.stream.StreamConsumer;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamValue;
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
import java.util.List;

/**
 * Writes a snapshot as commands (Redis's rewriteAppendOnlyFileRio, the base file with
 * {@code aof-use-rdb-preamble no}): a FUNCTION LOAD per function library, then per key a SELECT when
 * its database differs from the previous key's, the shortest commands that rebuild it (SET; RPUSH,
 * SADD, ZADD, HMSET with at most 64 elements each, Redis's AOF_REWRITE_ITEMS_PER_CMD; streams with
 * their groups as Redis's rewriteStreamObject) and a PEXPIREAT
 * for a key with a time to live. With {@code aof-timestamp-enabled} the file opens with a {@code #TS:}
 * annotation, as Redis's does.
 *
 * <p>It reads only the pre-images a {@link SnapshotHandOver} gives it, so it runs on the writer thread.
 * Not thread-safe: one thread at a time.
 */
final class AofRewriter {
    static final int ITEMS_PER_CMD = 64;

    private final OutputStream out;
    private final byte[] numberBuf = new byte[24];
    private int selectedDb = -1;

    AofRewriter(OutputStream out) {
        this.out = out;
    }

    /** The {@code #TS:} annotation of a file written at unix second {@code sec}. */
    void timestamp(long sec) throws IOException {
        out.write(("#TS:" + sec + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** FUNCTION LOAD of each library's code, before the keys as Redis writes them. */
    void functions(List<byte[]> codes) throws IOException {
        for (byte[] code : codes) {
            command(3);
            bulk("FUNCTION");
            bulk("LOAD");
            bulk(code);
        }
    }

    /** One key of database {@code db}; {@code expireAt} absolute unix ms or {@link Database#NO_EXPIRE}. */
    void key(int db, byte[] key, Object value, long expireAt) throws IOException {
        if (db != selectedDb) {
            command(2);
            bulk("SELECT");
            bulk(Integer.toString(db));
            selectedDb = db;
        }
        try {
            writeKey(key, value);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (expireAt != Database.NO_EXPIRE) {
            command(3);
            bulk("PEXPIREAT");
            bulk(key);
            bulk(Long.toString(expireAt));
        }
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
        } else if (value instanceof StreamValue stream) {
            stream(key, stream);
        } else {
            throw new IOException("cannot rewrite a value of type " + value.getClass().getSimpleName());
        }
    }

    /**
     * A stream as Redis's rewriteStreamObject writes it: one XADD per entry (an empty stream as
     * {@code XADD key MAXLEN 0 0-1 x y}), XSETID with the last ID and both counters, then per group an
     * XGROUP CREATE with its last ID and entries-read, per consumer an XCLAIM ... JUSTID FORCE for each of
     * its pending entries (delivery time and count kept), or XGROUP CREATECONSUMER when it has none.
     */
    private void stream(byte[] key, StreamValue s) throws IOException {
        if (s.length() > 0) {
            s.writeRange(StreamId.MIN, StreamId.MAX, false, 0, new StreamValue.EntrySink() {
                @Override
                public void begin(long ms, long seq, int pairs) {
                    try {
                        command(3 + 2 * pairs);
                        bulk("XADD");
                        bulk(key);
                        bulk(new StreamId(ms, seq).toString());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void bytes(byte[] buf, int off, int len) {
                    try {
                        bulk(buf, off, len);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void integer(long v) {
                    try {
                        bulk(Long.toString(v));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        } else {
            command(7);
            bulk("XADD");
            bulk(key);
            bulk("MAXLEN");
            bulk("0");
            bulk("0-1");
            bulk("x");
            bulk("y");
        }
        command(7);
        bulk("XSETID");
        bulk(key);
        bulk(s.lastId().toString());
        bulk("ENTRIESADDED");
        bulk(Long.toString(s.entriesAdded()));
        bulk("MAXDELETEDID");
        bulk(s.maxDeletedId().toString());
        for (ConsumerGroup group : s.groups()) {
            command(7);
            bulk("XGROUP");
            bulk("CREATE");
            bulk(key);
            bulk(group.name);
            bulk(group.lastId.toString());
            bulk("ENTRIESREAD");
            bulk(Long.toString(group.entriesRead));
            for (StreamConsumer consumer : group.consumers.values()) {
                if (consumer.pel.isEmpty()) {
                    command(5);
                    bulk("XGROUP");
                    bulk("CREATECONSUMER");
                    bulk(key);
                    bulk(group.name);
                    bulk(consumer.name);
                    continue;
                }
                for (PendingEntry nack : consumer.pel.values()) {
                    command(12);
                    bulk("XCLAIM");
                    bulk(key);
                    bulk(group.name);
                    bulk(consumer.name);
                    bulk("0");
                    bulk(nack.id.toString());
                    bulk("TIME");
                    bulk(Long.toString(nack.deliveryTime));
                    bulk("RETRYCOUNT");
                    bulk(Long.toString(nack.deliveryCount));
                    bulk("JUSTID");
                    bulk("FORCE");
                }
            }
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
        bulk(b, 0, length);
    }

    private void bulk(byte[] b, int off, int length) throws IOException {
        out.write('$');
        number(length);
        out.write('\r');
        out.write('\n');
        out.write(b, off, length);
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
