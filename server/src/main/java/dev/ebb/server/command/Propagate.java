package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.Propagation;
import java.nio.charset.StandardCharsets;

/**
 * The command side of {@link Propagation}: how a command that must not be propagated as it was
 * called says what it propagates instead, as Redis's commands rewrite their argv (relative
 * expiries become absolute, INCRBYFLOAT becomes SET KEEPTTL, a served BLPOP becomes LPOP …). Every
 * helper does nothing, and builds nothing, when nothing consumes the stream. Loop thread only.
 */
final class Propagate {
    static final byte[] SET = ascii("SET");
    static final byte[] PXAT = ascii("PXAT");
    static final byte[] KEEPTTL = ascii("KEEPTTL");
    static final byte[] NX = ascii("NX");
    static final byte[] XX = ascii("XX");
    static final byte[] PEXPIREAT = ascii("PEXPIREAT");
    static final byte[] PERSIST = ascii("PERSIST");
    static final byte[] DEL = ascii("DEL");
    static final byte[] UNLINK = ascii("UNLINK");
    static final byte[] HSET = ascii("HSET");
    static final byte[] HDEL = ascii("HDEL");
    static final byte[] HPEXPIREAT = ascii("HPEXPIREAT");
    static final byte[] FIELDS = ascii("FIELDS");
    static final byte[] HPERSIST = ascii("HPERSIST");
    static final byte[] SREM = ascii("SREM");
    static final byte[] LPOP = ascii("LPOP");
    static final byte[] RPOP = ascii("RPOP");
    static final byte[] LMOVE = ascii("LMOVE");
    static final byte[] RPOPLPUSH = ascii("RPOPLPUSH");
    static final byte[] LEFT = ascii("LEFT");
    static final byte[] RIGHT = ascii("RIGHT");
    static final byte[] ZPOPMIN = ascii("ZPOPMIN");
    static final byte[] ZPOPMAX = ascii("ZPOPMAX");
    /** Redis's SPOP_MOVE batch: SPOP with a count propagates its members as SREMs of at most this many. */
    static final int SREM_BATCH = 1024;

    private Propagate() {
    }

    /** Whether anything reads the stream; check before building a rewritten argv that costs something. */
    static boolean active(Client c) {
        return c.server().propagation().active();
    }

    /** Propagates the running command as {@code argv}. */
    static void as(Client c, byte[]... argv) {
        Propagation p = c.server().propagation();
        if (p.active()) {
            p.rewrite(argv);
        }
    }

    /** Propagates the running command as {@code PEXPIREAT key whenMs}. */
    static void asPexpireat(Client c, byte[] key, long whenMs) {
        if (active(c)) {
            as(c, PEXPIREAT, key, number(whenMs));
        }
    }

    /** A key deleted because the time given was already past: DEL, or UNLINK under lazyfree-lazy-expire. */
    static void asExpiredDelete(Client c, byte[] key) {
        as(c, c.server().config().lazyfreeLazyExpire() ? UNLINK : DEL, key);
    }

    /** A key a command deleted implicitly: DEL, or UNLINK under lazyfree-lazy-server-del. */
    static void asServerDelete(Client c, byte[] key) {
        as(c, c.server().config().lazyfreeLazyServerDel() ? UNLINK : DEL, key);
    }

    /** {@code HDEL key field...}. */
    static byte[][] hdel(byte[] key, java.util.List<byte[]> fields) {
        byte[][] argv = new byte[2 + fields.size()][];
        argv[0] = HDEL;
        argv[1] = key;
        for (int i = 0; i < fields.size(); i++) {
            argv[2 + i] = fields.get(i);
        }
        return argv;
    }

    static byte[] number(long n) {
        return ascii(Long.toString(n));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
