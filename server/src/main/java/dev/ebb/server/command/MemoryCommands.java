package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespDecoder;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.storage.Database;
import dev.ebb.storage.Values;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * MEMORY: USAGE, STATS, DOCTOR, MALLOC-STATS, PURGE and HELP, answered as Redis 7.2.4 answers them.
 *
 * <p>All figures come from one {@link Overhead} snapshot, also used by INFO memory, so the two
 * agree. Where Redis reads its allocator (jemalloc), Ebb reports the JVM's own figure under
 * Redis's name:
 * <ul>
 *   <li>{@code total.allocated} is INFO's {@code used_memory}: the keyspace's estimate, not the
 *       process's allocations. {@code startup.allocated} is that estimate for the empty databases
 *       at start; {@code peak.allocated} is {@code used_memory_peak}.</li>
 *   <li>{@code overhead.total} sums the overhead items as Redis does; {@code clients.normal} (reply
 *       bytes and query buffers of the clients) and {@code lua.caches} (script sources) are
 *       outside Ebb's {@code used_memory}, so unlike Redis {@code dataset.bytes} is not
 *       {@code total.allocated - overhead.total}: it is the keys' and values' bytes, which is what
 *       Redis's dataset means.</li>
 *   <li>{@code db.N}: {@code overhead.hashtable.main} is the main dict's slot arrays,
 *       {@code overhead.hashtable.expires} the expiry dict's plus the expiry strategy's index;
 *       {@code overhead.hashtable.slot-to-keys} is 0, as Ebb keeps no slot-to-keys index.</li>
 *   <li>{@code allocator.allocated} / {@code active} / {@code resident}, {@code allocator-*},
 *       {@code rss-overhead} and {@code fragmentation} are the figures of a {@link ProcessMemory} snapshot (see
 *       there): the JVM heap plus Netty's direct memory as the allocator, {@code RssAnon} as its resident memory,
 *       {@code VmRSS} as the process's; {@code fragmentation} is RSS over {@code used_memory}, as Redis computes
 *       it.</li>
 * </ul>
 * Costs: O(databases + clients); loop thread only.
 */
public final class MemoryCommands {
    /** Redis's MEMORY HELP lines, in its order. */
    private static final String[] MEMORY_HELP = {
        "MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DOCTOR",
        "    Return memory problems reports.",
        "MALLOC-STATS",
        "    Return internal statistics report from the memory allocator.",
        "PURGE",
        "    Attempt to purge dirty pages for reclamation by the allocator.",
        "STATS",
        "    Return information about the memory usage of the server.",
        "USAGE <key> [SAMPLES <count>]",
        "    Return memory in bytes used by <key> and its value. Nested values are",
        "    sampled up to <count> times (default: 5, 0 means sample all).",
        "HELP",
        "    Print this help.",
    };

    static final String DOCTOR_EMPTY = "Hi Sam, this instance is empty or is using very little memory, my issues"
            + " detector can't be used in these conditions. Please, leave for your mission on Earth and fill it"
            + " with some data. The new Sam and I will be back to our programming as soon as I finished rebooting.\n";
    static final String DOCTOR_FINE = "Hi Sam, I can't find any memory issue in your instance. I can only account"
            + " for what occurs on this base.\n";
    static final String DOCTOR_ISSUES = "Sam, I detected a few issues in this Redis instance memory implants:\n\n";
    static final String DOCTOR_BIG_PEAK = " * Peak memory: In the past this instance used more than 150% the memory"
            + " that is currently using. The allocator is normally not able to release memory after a peak, so you"
            + " can expect to see a big fragmentation ratio, however this is actually harmless and is only due to"
            + " the memory peak, and if the Redis instance Resident Set Size (RSS) is currently bigger than"
            + " expected, the memory will be used as soon as you fill the Redis instance with more data. If the"
            + " memory peak was only occasional and you want to try to reclaim memory, please try the MEMORY PURGE"
            + " command, otherwise the only other option is to shutdown and restart the instance.\n\n";
    static final String DOCTOR_BIG_CLIENT_BUF = " * Big client buffers: The clients output buffers in this instance"
            + " are greater than 200K per client (on average). This may result from different causes, like"
            + " Pub/Sub clients subscribed to channels bot not receiving data fast enough, so that data piles on"
            + " the Redis instance output buffer, or clients sending commands with large replies or very large"
            + " sequences of commands in the same pipeline. Please use the CLIENT LIST command in order to"
            + " investigate the issue if it causes problems in your instance, or to understand better why certain"
            + " clients are using a big amount of memory.\n\n";
    static final String DOCTOR_MANY_SCRIPTS = " * Many scripts: There seem to be many cached scripts in this"
            + " instance (more than 1000). This may be because scripts are generated and `EVAL`ed, instead of"
            + " being parameterized (with KEYS and ARGV), `SCRIPT LOAD`ed and `EVALSHA`ed. Unless `SCRIPT FLUSH`"
            + " is called periodically, the scripts' caches may end up consuming most of your memory.\n\n";
    static final String DOCTOR_END = "I'm here to keep you safe, Sam. I want to help you.\n";

    /** Redis's DOCTOR thresholds: "empty" below 5 MB, a peak over 150%, clients over 200 KB each, 1000 scripts. */
    private static final long DOCTOR_EMPTY_BYTES = 5L * 1024 * 1024;
    private static final long DOCTOR_CLIENT_BYTES = 200L * 1024;
    private static final int DOCTOR_MANY_SCRIPTS_COUNT = 1000;

    private MemoryCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                container("memory", -2, 0)
                        .doc(CommandGroup.SERVER, "4.0.0", "A container for memory diagnostics commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("doctor", 2, 0, 0, 0, 0, MemoryCommands::doctor)
                                .doc(CommandGroup.SERVER, "4.0.0", "Outputs a memory problems report.", "")
                                .complexity("O(1)"))
                        .sub(spec("malloc-stats", 2, 0, 0, 0, 0, MemoryCommands::mallocStats)
                                .doc(CommandGroup.SERVER, "4.0.0", "Returns the allocator statistics.", "")
                                .complexity("Depends on how much memory is allocated, could be slow"))
                        .sub(spec("purge", 2, 0, 0, 0, 0, MemoryCommands::purge)
                                .doc(CommandGroup.SERVER, "4.0.0", "Asks the allocator to release memory.", "")
                                .complexity("Depends on how much memory is allocated, could be slow"))
                        .sub(spec("stats", 2, 0, 0, 0, 0, MemoryCommands::stats)
                                .doc(CommandGroup.SERVER, "4.0.0", "Returns details about memory usage.", "")
                                .complexity("O(1)"))
                        .sub(spec("usage", -3, READONLY, 2, 2, 1, MemoryCommands::usage)
                                .doc(CommandGroup.SERVER, "4.0.0", "Estimates the memory usage of a key.",
                                        "key [SAMPLES count]")
                                .complexity("O(N) where N is the number of samples."))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, MemoryCommands::help)
                                .doc(CommandGroup.SERVER, "4.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)")));
    }

    /** One database's table overheads, for a database holding keys. */
    record DbOverhead(int id, long main, long expires) {
    }

    /**
     * Redis's {@code redisMemOverhead}, from Ebb's accounting: see the class comment for what each
     * figure is here.
     */
    record Overhead(long peak, long total, long startup, long clientsNormal, long luaCaches, List<DbOverhead> dbs,
            long overheadTotal, long keys, long bytesPerKey, long dataset, double datasetPerc, double peakPerc,
            ProcessMemory process) {
        /** Redis's {@code mem_fragmentation_ratio}: RSS over {@code used_memory}. */
        double fragmentation() {
            return process.fragmentationRatio(total);
        }
    }

    /** Computes the snapshot; also observes {@code used_memory} for the peak, as INFO does. */
    static Overhead overhead(Server s) {
        long total = InfoCommand.usedMemory(s);
        long peak = s.stats().observeUsedMemory(total);
        long startup = s.memoryGuard().startupAllocated();
        long clients = clientsMemory(s);
        long lua = s.scripting().cachedScriptBytes();
        long overheadTotal = startup + clients + lua + s.scripting().functions().memory();
        long tables = 0;
        long keys = 0;
        List<DbOverhead> dbs = new ArrayList<>();
        for (int i = 0; i < s.databases(); i++) {
            Database db = s.db(i);
            long main = db.mainTableBytes();
            long expires = db.expiresTableBytes();
            tables += main + expires;
            if (db.size() > 0) {
                keys += db.size();
                dbs.add(new DbOverhead(i, main, expires));
                overheadTotal += main + expires;
            }
        }
        long dataset = Math.max(0, total - tables);
        long netUsage = total > startup ? total - startup : 1;
        return new Overhead(peak, total, startup, clients, lua, dbs, overheadTotal, keys,
                keys == 0 ? 0 : netUsage / keys, dataset, (float) dataset * 100 / netUsage,
                peak == 0 ? 0 : (float) total * 100 / peak, ProcessMemory.now());
    }

    /** Every client's reply bytes and query buffer (Redis's {@code clients.normal} also counts its structs). */
    private static long clientsMemory(Server s) {
        long bytes = 0;
        for (Client client : s.clients()) {
            bytes += client.outputBytes();
            RespDecoder decoder = client.decoder();
            if (decoder != null) {
                bytes += decoder.queryBufferBytes() + decoder.queryBufferFree();
            }
        }
        return bytes;
    }

    /** MEMORY STATS: Redis 7.2.4's map, its order and its types (doubles as RESP3 doubles). */
    static void stats(Client c, byte[][] argv) {
        Overhead m = overhead(c.server());
        var r = c.reply();
        r.mapHeader(27 + m.dbs().size());
        entry(c, "peak.allocated", m.peak());
        entry(c, "total.allocated", m.total());
        entry(c, "startup.allocated", m.startup());
        entry(c, "replication.backlog", 0);
        entry(c, "clients.slaves", 0);
        entry(c, "clients.normal", m.clientsNormal());
        entry(c, "cluster.links", 0);
        entry(c, "aof.buffer", 0);
        entry(c, "lua.caches", m.luaCaches());
        entry(c, "functions.caches", c.server().scripting().functions().memory());
        for (DbOverhead db : m.dbs()) {
            r.bulk("db." + db.id());
            r.mapHeader(3);
            entry(c, "overhead.hashtable.main", db.main());
            entry(c, "overhead.hashtable.expires", db.expires());
            entry(c, "overhead.hashtable.slot-to-keys", 0);
        }
        entry(c, "overhead.total", m.overheadTotal());
        entry(c, "keys.count", m.keys());
        entry(c, "keys.bytes-per-key", m.bytesPerKey());
        entry(c, "dataset.bytes", m.dataset());
        entry(c, "dataset.percentage", m.datasetPerc());
        entry(c, "peak.percentage", m.peakPerc());
        ProcessMemory p = m.process();
        entry(c, "allocator.allocated", p.allocated());
        entry(c, "allocator.active", p.active());
        entry(c, "allocator.resident", p.resident());
        entry(c, "allocator-fragmentation.ratio", p.allocatorFragRatio());
        entry(c, "allocator-fragmentation.bytes", p.active() - p.allocated());
        entry(c, "allocator-rss.ratio", p.allocatorRssRatio());
        entry(c, "allocator-rss.bytes", p.resident() - p.active());
        entry(c, "rss-overhead.ratio", p.rssOverheadRatio());
        entry(c, "rss-overhead.bytes", p.rss() - p.resident());
        entry(c, "fragmentation", m.fragmentation());
        entry(c, "fragmentation.bytes", p.rss() - m.total());
    }

    private static void entry(Client c, String name, long value) {
        c.reply().bulk(name);
        c.reply().integer(value);
    }

    /** A double as Redis's addReplyDouble: a RESP3 double, or in RESP2 a bulk string of {@code %.17g}. */
    private static void entry(Client c, String name, double value) {
        c.reply().bulk(name);
        c.reply().doubleValue(value);
    }

    /**
     * MEMORY DOCTOR: Redis's report and texts, judged on the items Ebb can judge honestly: an
     * instance under 5 MB is "empty"; otherwise a peak over 150% of {@code used_memory}, clients
     * holding over 200 KB each on average and over 1000 cached scripts. Redis's fragmentation and
     * RSS items are left out: the JVM heap's committed-over-used ratio follows the collector's
     * cycles, not fragmentation, and would raise false alarms. There are no replicas to judge.
     */
    static void doctor(Client c, byte[][] argv) {
        c.reply().verbatim(doctorReport(c.server()));
    }

    static String doctorReport(Server s) {
        Overhead m = overhead(s);
        if (m.total() < DOCTOR_EMPTY_BYTES) {
            return DOCTOR_EMPTY;
        }
        StringBuilder out = new StringBuilder(DOCTOR_ISSUES);
        int reports = 0;
        if ((float) m.peak() / m.total() > 1.5) {
            out.append(DOCTOR_BIG_PEAK);
            reports++;
        }
        int clients = s.clients().size();
        if (clients > 0 && m.clientsNormal() / clients > DOCTOR_CLIENT_BYTES) {
            out.append(DOCTOR_BIG_CLIENT_BUF);
            reports++;
        }
        if (s.scripting().cachedScripts() > DOCTOR_MANY_SCRIPTS_COUNT) {
            out.append(DOCTOR_MANY_SCRIPTS);
            reports++;
        }
        return reports == 0 ? DOCTOR_FINE : out.append(DOCTOR_END).toString();
    }

    /**
     * MEMORY MALLOC-STATS: Redis prints jemalloc's report as verbatim text; Ebb's allocator is the
     * JVM, so this is a text report of its memory pools (used, committed, max) and buffer pools.
     */
    static void mallocStats(Client c, byte[][] argv) {
        StringBuilder out = new StringBuilder(1024);
        out.append("___ Begin jvm memory statistics ___\n");
        out.append("Version: \"").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.vm.version")).append("\"\n");
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
        out.append(String.format(Locale.ROOT, "heap: used %d, committed %d, max %d%n",
                heap.getUsed(), heap.getCommitted(), heap.getMax()));
        out.append(String.format(Locale.ROOT, "non-heap: used %d, committed %d%n",
                nonHeap.getUsed(), nonHeap.getCommitted()));
        out.append("pools:\n");
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = pool.getUsage();
            out.append(String.format(Locale.ROOT, "  %s (%s): used %d, committed %d, max %d%n",
                    pool.getName(), pool.getType() == java.lang.management.MemoryType.HEAP ? "heap" : "non-heap",
                    u.getUsed(), u.getCommitted(), u.getMax()));
        }
        out.append("buffers:\n");
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            out.append(String.format(Locale.ROOT, "  %s: count %d, used %d, capacity %d%n",
                    pool.getName(), pool.getCount(), pool.getMemoryUsed(), pool.getTotalCapacity()));
        }
        ProcessMemory p = ProcessMemory.now();
        out.append(String.format(Locale.ROOT, "netty direct: allocated %d, active %d%n",
                p.directAllocated(), p.directActive()));
        out.append(String.format(Locale.ROOT, "process: rss %d, rss anonymous %d%n", p.rss(), p.resident()));
        out.append("--- End jvm memory statistics ---\n");
        c.reply().verbatim(out.toString());
    }

    /**
     * MEMORY PURGE: +OK, as Redis's jemalloc purge; asks the JVM to give memory back on a thread
     * of its own (a G1Trim, or {@code System.gc()} under the flags JvmRelaunch picks), unless a return runs.
     */
    static void purge(Client c, byte[][] argv) {
        c.server().memoryGuard().purge();
        c.reply().ok();
    }

    /**
     * MEMORY USAGE key [SAMPLES count]: the key's bytes, its value's estimate and its slots in the
     * keyspace tables, from the same accounting as {@code used_memory}. Every Ebb value keeps its
     * estimate up to date in O(1), so nothing is sampled: SAMPLES is validated as Redis does and
     * does not change the answer. Unlike Redis (which reads the dict directly) the lookup applies
     * lazy expiry, so an expired key is gone and answers nil. Not counted in keyspace hits/misses.
     */
    static void usage(Client c, byte[][] argv) {
        for (int i = 3; i < argv.length; i++) {
            if (Arguments.is(argv[i], "samples") && i + 1 < argv.length) {
                long samples;
                try {
                    samples = Arguments.parseLong(argv[++i]);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return;
                }
                if (samples < 0) {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        byte[] key = argv[2];
        Database db = c.db();
        Object value = db.lookupReadNoTouch(key, c.server().nowMs());
        if (value == null) {
            c.reply().nullBulk();
            return;
        }
        long bytes = Values.keyBytes(key) + Values.memoryOf(value) + ObjectCommands.MAIN_SLOT_BYTES;
        if (db.getExpire(key) != Database.NO_EXPIRE) {
            bytes += ObjectCommands.EXPIRES_SLOT_BYTES;
        }
        c.reply().integer(bytes);
    }

    static void help(Client c, byte[][] argv) {
        ObjectCommands.replyHelp(c, MEMORY_HELP);
    }
}
