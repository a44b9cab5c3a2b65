package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.config.Directive.Mutability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table itself: its self-checks, and that it holds exactly the directives Ebb promises. */
class DirectivesTest {

    /**
     * The table's order is conf/ebb.conf's, so CONFIG REWRITE and CONFIG GET * list directives by section as the
     * file documents them (requirepass, commented out in the file, where its example line stands).
     */
    @Test
    void holdsTheDocumentedDirectivesInTheOrderOfEbbConf() throws IOException {
        List<String> names = new ArrayList<>();
        for (Directive<?> directive : Directives.ALL) {
            names.add(directive.name);
        }

        assertEquals(documentedOrder(), names);
    }

    private static List<String> documentedOrder() throws IOException {
        Path conf = Files.isRegularFile(Path.of("../conf/ebb.conf")) ? Path.of("../conf/ebb.conf")
                : Path.of("conf/ebb.conf");
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(conf)) {
            String trimmed = line.trim();
            String example = commentedExample(trimmed);
            if (example != null) {
                names.add(example);
            } else if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                String name = ConfigSyntax.splitArgs(trimmed).get(0);
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** A password and a primary to follow stand in the file as commented examples: set, they change behaviour. */
    private static final List<String> COMMENTED_EXAMPLES = List.of("requirepass", "replicaof");

    private static String commentedExample(String line) {
        for (String name : COMMENTED_EXAMPLES) {
            if (line.startsWith("# " + name + " ")) {
                return name;
            }
        }
        return null;
    }

    @Test
    void indexesMatchPositions() {
        for (int i = 0; i < Directives.ALL.size(); i++) {
            assertEquals(i, Directives.ALL.get(i).index);
        }
    }

    @Test
    void aliasesResolveToTheirDirective() {
        assertSame(Directives.BUSY_REPLY_THRESHOLD, Directives.lookup("lua-time-limit"));
        assertSame(Directives.HASH_MAX_LISTPACK_ENTRIES, Directives.lookup("HASH-MAX-ZIPLIST-ENTRIES"));
        assertSame(Directives.LIST_MAX_LISTPACK_SIZE, Directives.lookup("list-max-ziplist-size"));
        assertSame(Directives.ZSET_MAX_LISTPACK_VALUE, Directives.lookup("zset-max-ziplist-value"));
        assertSame(Directives.REPLICAOF, Directives.lookup("slaveof"));
        assertSame(Directives.REPLICA_READ_ONLY, Directives.lookup("slave-read-only"));
    }

    @Test
    void duplicateNameFailsNamingIt() {
        Directive<Long> first = new Directive<>(0, "hz", List.of(), ScalarTypes.Int.range(0, 10), 1L,
                Mutability.MUTABLE, false);
        Directive<Long> second = new Directive<>(1, "speed", List.of("hz"), ScalarTypes.Int.range(0, 10), 1L,
                Mutability.MUTABLE, false);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Directives.indexNames(List.of(first, second)));

        assertEquals("duplicate config directive name: name=hz, used by 'hz' and 'speed'", e.getMessage());
    }

    @Test
    void everyDefaultOfTheTableIsValidAndReadsBackUnchanged() {
        assertDoesNotThrow(() -> Directives.checkDefaults(Directives.ALL));
        assertTrue(Directives.ALL.size() > 100, "the whole table: " + Directives.ALL.size());
    }

    @Test
    void defaultOutsideItsRangeFailsNamingIt() {
        Directive<Long> bad = new Directive<>(0, "effort", List.of(), ScalarTypes.Int.range(1, 10), 0L,
                Mutability.MUTABLE, false);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Directives.checkDefaults(List.of(bad)));

        assertTrue(e.getMessage().startsWith("default of 'effort' is invalid"), e.getMessage());
    }

    @Test
    void everyDefaultIsWhatConfigGetShowsForAFreshConfig() {
        ServerConfig config = ServerConfig.defaults();

        assertEquals("6379", config.valueOf("port").orElseThrow());
        assertEquals("10", config.valueOf("hz").orElseThrow());
        assertEquals(ServerConfig.defaults().configGet("*"), config.configGet("*"));
    }

    @Test
    void typedGettersReturnTheDefaults() {
        ServerConfig c = ServerConfig.defaults();

        assertEquals(List.of("127.0.0.1", "-::1"), c.bind());
        assertEquals(6379, c.port());
        assertTrue(c.protectedMode());
        assertEquals(10, c.hz());
        assertEquals(1, c.ioThreads());
        assertEquals(16, c.databases());
        assertEquals(10000, c.maxclients());
        assertEquals(0, c.timeout());
        assertEquals(300, c.tcpKeepalive());
        assertEquals(511, c.tcpBacklog());
        assertEquals(LogLevel.NOTICE, c.logLevel());
        assertEquals("", c.logFile());
        assertEquals("", c.pidFile());
        assertEquals(0, c.maxmemory());
        assertEquals(MaxmemoryPolicy.NOEVICTION, c.maxmemoryPolicy());
        assertEquals(5, c.maxmemorySamples());
        assertEquals(1, c.activeExpireEffort());
        assertEquals(512L << 20, c.protoMaxBulkLen());
        assertEquals(1L << 30, c.clientQueryBufferLimit());
        assertEquals(10000, c.slowlogLogSlowerThan());
        assertEquals(128, c.slowlogMaxLen());
        assertEquals("", c.requirepass());
        assertEquals(ExpiryStrategy.SAMPLING, c.expiryStrategy());
        assertEquals(250, c.activeExpireSliceMicros());
        assertEquals(ClientOutputBufferLimits.DEFAULTS, c.clientOutputBufferLimits());
        assertEquals(0, c.notifyKeyspaceEvents());
        assertEquals(List.of(new SavePoint(3600, 1), new SavePoint(300, 100), new SavePoint(60, 10000)), c.save());
        assertEquals(-2, c.listMaxListpackSize());
        assertEquals(512, c.hashMaxListpackEntries());
        assertEquals(5000, c.busyReplyThreshold());
    }
}
