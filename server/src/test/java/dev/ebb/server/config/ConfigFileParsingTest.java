package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigFileParsingTest {
    @TempDir
    Path tmp;

    private Path write(String name, String content) throws IOException {
        Path file = tmp.resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, content.getBytes(StandardCharsets.ISO_8859_1));
        return file;
    }

    @Test
    void readsDirectivesIgnoringCommentsAndBlankLines() throws Exception {
        Path file = write("ebb.conf", "# a comment\n\n   \nport 7000\n\t  hz   20  \r\n#port 1\n");

        ServerConfig config = ServerConfig.load(file);

        assertEquals(7000, config.port());
        assertEquals(20, config.hz());
        assertEquals(file.toAbsolutePath().normalize(), config.configFile().orElseThrow());
    }

    @Test
    void directiveNamesAreCaseInsensitiveAndAliasesWork() throws Exception {
        ServerConfig config = ServerConfig.fromText("PORT 7000\nLua-Time-Limit 100\nhash-max-ziplist-entries 7\n");

        assertEquals(7000, config.port());
        assertEquals(100, config.busyReplyThreshold());
        assertEquals(7, config.hashMaxListpackEntries());
    }

    @Test
    void doubleQuotesUnderstandEscapes() throws Exception {
        ServerConfig config = ServerConfig.fromText("requirepass \"a b\\\"c\\x41\\n\\t\\\\\\q\"\n");

        assertEquals("a b\"cA\n\t\\q", config.requirepass());
    }

    @Test
    void singleQuotesOnlyUnderstandEscapedQuote() throws Exception {
        ServerConfig config = ServerConfig.fromText("requirepass 'it\\'s \\n'\n");

        assertEquals("it's \\n", config.requirepass());
    }

    @Test
    void quoteMayStartInsideAnArgument() throws Exception {
        ServerConfig config = ServerConfig.fromText("requirepass pass\"word with spaces\"\n");

        assertEquals("password with spaces", config.requirepass());
    }

    @Test
    void bytesOutsideAsciiSurvive() throws Exception {
        ServerConfig config = ServerConfig.fromText("requirepass \"\\xff\\x00x\"\n");

        assertEquals("\u00ff\u0000x", config.requirepass());
    }

    @Test
    void laterLinesOverrideEarlierOnes() throws Exception {
        ServerConfig config = ServerConfig.fromText("maxmemory 100mb\nmaxmemory 200mb\n");

        assertEquals(200L * 1024 * 1024, config.maxmemory());
    }

    @ParameterizedTest
    @CsvSource({
        "1gb, 1073741824", "1GB, 1073741824", "1g, 1000000000", "100kb, 102400", "100k, 100000",
        "2mb, 2097152", "2m, 2000000", "7b, 7", "0100, 100", "42, 42"})
    void memoryValuesAcceptRedisUnits(String text, long bytes) throws Exception {
        ServerConfig config = ServerConfig.fromText("maxmemory " + text + "\n");

        assertEquals(bytes, config.maxmemory());
    }

    @Test
    void multiArgumentDirectivesTakeAllArguments() throws Exception {
        ServerConfig config = ServerConfig.fromText(
                "bind 10.0.0.1 127.0.0.1 -::1\nclient-output-buffer-limit pubsub 64mb 16mb 90\n");

        assertEquals(List.of("10.0.0.1", "127.0.0.1", "-::1"), config.bind());
        assertEquals(new ClientOutputBufferLimits.Limit(64L << 20, 16L << 20, 90),
                config.clientOutputBufferLimits().pubsub());
        assertEquals(ClientOutputBufferLimits.DEFAULTS.normal(), config.clientOutputBufferLimits().normal());
    }

    @Test
    void saveLinesAddPointsAndEmptySaveClearsThem() throws Exception {
        ServerConfig accumulated = ServerConfig.fromText("save 3600 1\nsave 300 100 60 10000\n");
        ServerConfig cleared = ServerConfig.fromText("save 3600 1\nsave \"\"\n");

        assertEquals(List.of(new SavePoint(3600, 1), new SavePoint(300, 100), new SavePoint(60, 10000)),
                accumulated.save());
        assertEquals(List.of(), cleared.save());
    }

    @Test
    void hzIsCappedLikeRedis() throws Exception {
        assertEquals(1, ServerConfig.fromText("hz 0\n").hz());
        assertEquals(500, ServerConfig.fromText("hz 100000\n").hz());
    }

    @Test
    void obsoleteRedisDirectivesAreIgnored() throws Exception {
        ServerConfig config = ServerConfig.fromText("list-max-ziplist-entries 512\nlua-replicate-commands yes\n");

        assertEquals(ServerConfig.defaults().configGet("*"), config.configGet("*"));
    }

    @Test
    void renameCommandIsRecordedWithItsLocation() throws Exception {
        Path file = write("ebb.conf", "port 7000\nrename-command FLUSHALL \"\"\nrename-command CONFIG cfg\n");

        ServerConfig config = ServerConfig.load(file);

        List<RenamedCommand> renamed = config.renamedCommands();
        assertEquals(2, renamed.size());
        assertEquals("FLUSHALL", renamed.get(0).from());
        assertTrue(renamed.get(0).disables());
        assertEquals("cfg", renamed.get(1).to());
        assertEquals(new ConfigLocation(file.toString(), 3, "rename-command CONFIG cfg"), renamed.get(1).location());
    }

    @Test
    void includeReadsTheFileAtThatPoint() throws Exception {
        write("inc.conf", "port 7001\nhz 30\n");
        Path main = write("main.conf", "port 7000\ninclude " + tmp.resolve("inc.conf") + "\nhz 40\n");

        ServerConfig config = ServerConfig.load(main);

        assertEquals(7001, config.port());
        assertEquals(40, config.hz());
    }

    @Test
    void relativeIncludeIsResolvedAgainstDir() throws Exception {
        write("sub/inc.conf", "port 7002\n");
        Path main = write("main.conf", "dir " + tmp.resolve("sub") + "\ninclude inc.conf\n");

        ServerConfig config = ServerConfig.load(main);

        assertEquals(7002, config.port());
        assertEquals(tmp.resolve("sub").toAbsolutePath().normalize(), config.dir());
    }

    @Test
    void includeWithWildcardReadsMatchesInNameOrderAndMayMatchNothing() throws Exception {
        write("conf.d/20-b.conf", "port 7020\n");
        write("conf.d/10-a.conf", "port 7010\nhz 11\n");
        write("conf.d/notes.txt", "port 1\n");
        write("conf.d/.hidden.conf", "port 2\n");
        Path main = write("main.conf", "include " + tmp.resolve("conf.d") + "/*.conf\ninclude "
                + tmp.resolve("empty.d") + "/*.conf\n");

        ServerConfig config = ServerConfig.load(main);

        assertEquals(7020, config.port());
        assertEquals(11, config.hz());
    }

    @Test
    void includeLoopFailsInsteadOfRecursingForever() throws Exception {
        Path a = tmp.resolve("a.conf");
        write("b.conf", "include " + a + "\n");
        write("a.conf", "port 7000\ninclude " + tmp.resolve("b.conf") + "\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(a));

        assertEquals("Include loop: '" + a + "' is already being read", e.reason());
        assertEquals(tmp.resolve("b.conf").toString(), e.location().source());
    }

    @Test
    void missingIncludeFailsAtTheIncludeLine() throws Exception {
        Path main = write("main.conf", "port 7000\ninclude nosuch.conf\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(main));

        assertEquals("Fatal error, can't open config file 'nosuch.conf': No such file or directory", e.reason());
        assertEquals(new ConfigLocation(main.toString(), 2, "include nosuch.conf"), e.location());
    }

    @Test
    void errorInIncludedFileNamesThatFileAndLine() throws Exception {
        Path inc = write("inc.conf", "\n\nhz fast\n");
        Path main = write("main.conf", "include " + inc + "\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(main));

        assertEquals(new ConfigLocation(inc.toString(), 3, "hz fast"), e.location());
    }

    @Test
    void missingConfigFileFailsLikeRedis() {
        Path missing = tmp.resolve("nosuch.conf");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(missing));

        assertEquals("Fatal error, can't open config file '" + missing + "': No such file or directory", e.reason());
        assertEquals(null, e.location());
    }

    @Test
    void failureMessageHasRedisBannerFileLineAndReason() throws Exception {
        Path file = write("ebb.conf", "# comment\nport 7000\nslaveof-bogus 1\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(file));

        assertEquals("*** FATAL CONFIG FILE ERROR (Ebb " + ServerVersion.ebbVersion() + ") ***\n"
                + "Reading the configuration file, at line 3 (" + file + ")\n"
                + ">>> 'slaveof-bogus 1'\n"
                + "Bad directive or wrong number of arguments", e.getMessage());
    }

    /** Reasons are Redis 7's, checked against redis-server; the Ebb-only ones say why Ebb refuses. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "port \"abc                         | Unbalanced quotes in configuration line",
        "port \"6379\"x                     | Unbalanced quotes in configuration line",
        "requirepass 'a'b                   | Unbalanced quotes in configuration line",
        "port 6379 # the port               | wrong number of arguments",
        "port                               | wrong number of arguments",
        "foo bar                            | Bad directive or wrong number of arguments",
        "include                            | Bad directive or wrong number of arguments",
        "rename-command FLUSHALL            | Bad directive or wrong number of arguments",
        "hz abc                             | argument couldn't be parsed into an integer",
        "hz 010                             | argument couldn't be parsed into an integer",
        "hz +10                             | argument couldn't be parsed into an integer",
        "port 65536                         | argument must be between 0 and 65535 inclusive",
        "active-expire-effort 11            | argument must be between 1 and 10 inclusive",
        "active-expire-slice-us 99          | argument must be between 100 and 25000 inclusive",
        "io-threads 129                     | argument must be between 1 and 128 inclusive",
        "maxmemory 1tb                      | argument must be a memory value",
        "maxmemory -1                       | argument must be a memory value",
        "maxmemory 1.5gb                    | argument must be a memory value",
        "proto-max-bulk-len 1000            | argument must be between 1048576 and 9223372036854775807 inclusive",
        "protected-mode maybe               | argument must be 'yes' or 'no'",
        "loglevel loud                      | argument(s) must be one of the following: debug, verbose, notice, warning, nothing",
        "expiry-strategy lazy               | argument(s) must be one of the following: sampling, bucket-cursor, exact",
        "daemonize yes                      | Ebb cannot daemonize (a JVM cannot fork): use 'daemonize no' and a service manager",
        "cluster-enabled maybe              | argument must be 'yes' or 'no'",
        "appendonly maybe                   | argument must be 'yes' or 'no'",
        "enable-debug-command maybe         | argument(s) must be one of the following: no, yes, local",
        "dbfilename /tmp/dump.rdb           | dbfilename can't be a path, just a filename",
        "dir /nonexistent-ebb-dir           | No such file or directory",
        "notify-keyspace-events Kq          | Invalid event class character. Use 'Ag$lshzxeKEtmdn'.",
        "save 10                            | Invalid save parameters",
        "save 0 1                           | Invalid save parameters",
        "save 10 x                          | Invalid save parameters",
        "client-output-buffer-limit normal 1 1 | Wrong number of arguments in buffer limit configuration.",
        "client-output-buffer-limit master 1 1 1 | Invalid client class specified in buffer limit configuration.",
        "client-output-buffer-limit normal 1x 1 1 | Error in hard, soft or soft_seconds setting in buffer limit configuration.",
        "client-output-buffer-limit normal 1 1 -1 | Error in hard, soft or soft_seconds setting in buffer limit configuration.",
        "bind 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 | Too many bind addresses specified.",
    })
    void rejectsBadLinesWithRedisReasons(String line, String reason) throws Exception {
        Path file = write("ebb.conf", "port 7000\n" + line + "\n");

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.load(file));

        assertEquals(reason, e.reason());
        assertEquals(new ConfigLocation(file.toString(), 2, line), e.location());
    }

    @Test
    void unopenableLogFileFailsAfterReading() {
        String text = "logfile " + tmp.resolve("no-such-dir").resolve("ebb.log") + "\n";

        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.fromText(text));

        assertEquals("Can't open the log file: No such file or directory", e.reason());
    }

    @Test
    void logFileIsCreatedAndResolvedAgainstDir() throws Exception {
        ServerConfig config = ServerConfig.fromText("dir " + tmp + "\nlogfile ebb.log\npidfile ebb.pid\n");

        assertTrue(Files.exists(tmp.resolve("ebb.log")));
        assertEquals(tmp.resolve("ebb.log"), config.logFilePath().orElseThrow());
        assertEquals(tmp.resolve("ebb.pid"), config.pidFilePath().orElseThrow());
        assertFalse(ServerConfig.defaults().logFilePath().isPresent());
    }
}
