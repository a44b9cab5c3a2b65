package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CONFIG GET and CONFIG SET; every expected reply was checked against redis-server 7.0. */
class ConfigGetSetTest {
    private final ServerConfig config = ServerConfig.defaults();

    private void set(String... pairs) throws ConfigCommandException {
        config.configSet(Arrays.asList(pairs));
    }

    private String setError(String... pairs) {
        return assertThrows(ConfigCommandException.class, () -> set(pairs)).getMessage();
    }

    private String get(String name) {
        List<Map.Entry<String, String>> entries = config.configGet(name);
        assertEquals(1, entries.size(), "entries for " + name);
        return entries.get(0).getValue();
    }

    private Set<String> names(String... patterns) {
        return config.configGet(patterns).stream().map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    @Test
    void getExactNameAnswersUnderTheSpellingGivenAndOnlyOnce() {
        assertEquals(List.of(Map.entry("port", "6379")), config.configGet("port"));
        assertEquals(List.of(Map.entry("PORT", "6379")), config.configGet("PORT"));
        assertEquals(List.of(Map.entry("port", "6379")), config.configGet("port", "PORT", "Port", "p*t"));
    }

    @Test
    void getGlobMatchesNamesAndAliasesCaseInsensitively() {
        assertEquals(Set.of("maxmemory", "maxmemory-policy", "maxmemory-samples", "maxmemory-eviction-tenacity",
                "maxmemory-clients"),
                names("maxmemory*"));
        assertEquals(Set.of("hash-max-ziplist-entries", "hash-max-ziplist-value", "list-max-ziplist-size",
                "zset-max-ziplist-entries", "zset-max-ziplist-value"), names("*ziplist*"));
        assertEquals(Set.of("lua-time-limit"), names("*-TIME-*"));
        assertEquals(Set.of(), names("nosuch", "no*such"));
    }

    @Test
    void getStarListsEveryNameAndAliasOnce() {
        List<Map.Entry<String, String>> all = config.configGet("*", "*");

        Set<String> names = new HashSet<>();
        for (Map.Entry<String, String> entry : all) {
            assertTrue(names.add(entry.getKey()), "listed twice: " + entry.getKey());
        }
        int expected = 0;
        for (Directive<?> directive : Directives.ALL) {
            expected += 1 + directive.aliases.size();
        }
        assertEquals(expected, names.size());
        assertEquals("5000", all.stream().filter(e -> e.getKey().equals("lua-time-limit")).findFirst()
                .orElseThrow().getValue());
    }

    @Test
    void getPrintsValuesInRedisFormat() {
        assertEquals("127.0.0.1 -::1", get("bind"));
        assertEquals("yes", get("protected-mode"));
        assertEquals("3600 1 300 100 60 10000", get("save"));
        assertEquals("noeviction", get("maxmemory-policy"));
        assertEquals("536870912", get("proto-max-bulk-len"));
        assertEquals("1073741824", get("client-query-buffer-limit"));
        assertEquals("normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60",
                get("client-output-buffer-limit"));
        assertEquals("", get("notify-keyspace-events"));
        assertEquals("notice", get("loglevel"));
        assertEquals("-2", get("list-max-listpack-size"));
        assertEquals("sampling", get("expiry-strategy"));
    }

    @Test
    void setChangesSeveralDirectivesAtOnce() throws Exception {
        set("hz", "20", "maxmemory", "1gb", "maxmemory-policy", "ALLKEYS-LRU", "protected-mode", "NO");

        assertEquals(20, config.hz());
        assertEquals("1073741824", get("maxmemory"));
        assertEquals(MaxmemoryPolicy.ALLKEYS_LRU, config.maxmemoryPolicy());
        assertEquals("allkeys-lru", get("maxmemory-policy"));
        assertFalse(config.protectedMode());
    }

    @Test
    void setIsAllOrNothing() {
        String error = setError("hz", "20", "slowlog-max-len", "5", "maxmemory", "1x");

        assertEquals("ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value",
                error);
        assertEquals(10, config.hz());
        assertEquals(128, config.slowlogMaxLen());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "foo,bar                  | ERR Unknown option or number of arguments for CONFIG SET - 'foo'",
        "FOO,bar                  | ERR Unknown option or number of arguments for CONFIG SET - 'FOO'",
        "hz,abc                   | ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer",
        "HZ,x                     | ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer",
        "LUA-Time-limit,x         | ERR CONFIG SET failed (possibly related to argument 'lua-time-limit') - argument couldn't be parsed into an integer",
        "active-expire-effort,11  | ERR CONFIG SET failed (possibly related to argument 'active-expire-effort') - argument must be between 1 and 10 inclusive",
        "active-expire-effort,1.5 | ERR CONFIG SET failed (possibly related to argument 'active-expire-effort') - argument couldn't be parsed into an integer",
        "timeout,-1               | ERR CONFIG SET failed (possibly related to argument 'timeout') - argument must be between 0 and 2147483647 inclusive",
        "maxmemory-samples,0      | ERR CONFIG SET failed (possibly related to argument 'maxmemory-samples') - argument must be between 1 and 2147483647 inclusive",
        "slowlog-log-slower-than,-5 | ERR CONFIG SET failed (possibly related to argument 'slowlog-log-slower-than') - argument must be between -1 and 9223372036854775807 inclusive",
        "slowlog-max-len,1k       | ERR CONFIG SET failed (possibly related to argument 'slowlog-max-len') - argument couldn't be parsed into an integer",
        "proto-max-bulk-len,1000  | ERR CONFIG SET failed (possibly related to argument 'proto-max-bulk-len') - argument must be between 1048576 and 9223372036854775807 inclusive",
        "client-query-buffer-limit,1000 | ERR CONFIG SET failed (possibly related to argument 'client-query-buffer-limit') - argument must be between 1048576 and 9223372036854775807 inclusive",
        "maxmemory,-1             | ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value",
        "protected-mode,maybe     | ERR CONFIG SET failed (possibly related to argument 'protected-mode') - argument must be 'yes' or 'no'",
        "maxmemory-policy,foo     | ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction",
        "port,7000                | ERR CONFIG SET failed (possibly related to argument 'port') - can't set immutable config",
        "daemonize,no             | ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config",
        "databases,3              | ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config",
        "io-threads,2             | ERR CONFIG SET failed (possibly related to argument 'io-threads') - can't set immutable config",
        "logfile,x                | ERR CONFIG SET failed (possibly related to argument 'logfile') - can't set immutable config",
        "cluster-enabled,no       | ERR CONFIG SET failed (possibly related to argument 'cluster-enabled') - can't set immutable config",
        "enable-debug-command,local | ERR CONFIG SET failed (possibly related to argument 'enable-debug-command') - can't set immutable config",
        "dir,/tmp                 | ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config",
        "dbfilename,x.rdb         | ERR CONFIG SET failed (possibly related to argument 'dbfilename') - can't set protected config",
        "save,100 10 20           | ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters",
        "save,0 1                 | ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters",
        "notify-keyspace-events,Kq | ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.",
        "notify-keyspace-events,K E | ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.",
        "client-output-buffer-limit,master 1 1 1 | ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Invalid client class specified in buffer limit configuration.",
        "client-output-buffer-limit,normal 1 1 | ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Wrong number of arguments in buffer limit configuration.",
        "client-output-buffer-limit,normal  1 1 1 | ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Wrong number of arguments in buffer limit configuration.",
        "client-output-buffer-limit,normal 1 1 1a | ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - Error in hard, soft or soft_seconds setting in buffer limit configuration.",
        "hz,10,HZ,11              | ERR CONFIG SET failed (possibly related to argument 'HZ') - duplicate parameter",
        "hz,20,foo,1              | ERR Unknown option or number of arguments for CONFIG SET - 'foo'",
        "foo,1,databases,2        | ERR Unknown option or number of arguments for CONFIG SET - 'foo'",
        "databases,2,foo,1        | ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config",
        "hz,1,2                   | ERR syntax error",
    })
    void setErrorsAreRedisTexts(String commaSeparatedArgs, String expected) {
        String[] args = commaSeparatedArgs.split(",", -1);

        assertEquals(expected, setError(args));
        assertEquals(ServerConfig.defaults().configGet("*"), config.configGet("*"));
    }

    @Test
    void setWithoutArgumentsIsAnArityError() {
        assertEquals("ERR wrong number of arguments for 'config|set' command", setError());
    }

    @Test
    void hzOutOfRangeIsCappedNotRefused() throws Exception {
        set("hz", "0");
        assertEquals("1", get("hz"));

        set("hz", "501");
        assertEquals("500", get("hz"));
    }

    @Test
    void aliasAndDirectiveInOneSetAreBothAppliedLaterWins() throws Exception {
        set("lua-time-limit", "100", "busy-reply-threshold", "200");

        assertEquals(200, config.busyReplyThreshold());
        assertEquals("200", get("lua-time-limit"));
    }

    @ParameterizedTest
    @CsvSource({"0100, 100", "1b, 1", "1B, 1", "kb, 0", "1Kb, 1024", "1mB, 1048576", "1k, 1000", "9223372036854775807, 9223372036854775807"})
    void memoryValuesOnSet(String value, String bytes) throws Exception {
        set("maxmemory", value);

        assertEquals(bytes, get("maxmemory"));
    }

    @Test
    void memoryValueWithTrailingSpaceIsRefused() {
        assertEquals("ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value",
                setError("maxmemory", "1 "));
    }

    @Test
    void emptyMemoryValueReadsAsZeroLikeRedis() throws Exception {
        set("maxmemory", "5");
        set("maxmemory", "");

        assertEquals(0, config.maxmemory());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "KEA | AKE", "Ex | xE", "g$lshzxetd | A", "g$lshzxet | g$lshzxet", "KEAmn | AKEm", "nmEK | nKEm",
        "AAA | A", "dtezx | zxetd", "dn | dn", "KEg$lshzxetmdnA | AKEm"})
    void notifyKeyspaceEventsArePrintedNormalized(String letters, String printed) throws Exception {
        set("notify-keyspace-events", letters);

        assertEquals(printed, get("notify-keyspace-events"));
    }

    @Test
    void notifyKeyspaceEventsKeepNewKeyFlagUnderAll() throws Exception {
        set("notify-keyspace-events", "KEAn");

        assertEquals(NotifyKeyspaceEvents.ALL | NotifyKeyspaceEvents.NEW | NotifyKeyspaceEvents.KEYSPACE
                | NotifyKeyspaceEvents.KEYEVENT, config.notifyKeyspaceEvents());
    }

    @Test
    void clientOutputBufferLimitSetChangesOnlyTheNamedClasses() throws Exception {
        set("client-output-buffer-limit", "normal 1mb 2mb 3");
        assertEquals("normal 1048576 2097152 3 slave 268435456 67108864 60 pubsub 33554432 8388608 60",
                get("client-output-buffer-limit"));

        set("client-output-buffer-limit", "replica 1gb 1k 10 pubsub 1 2 3");
        assertEquals("normal 1048576 2097152 3 slave 1073741824 1000 10 pubsub 1 2 3",
                get("client-output-buffer-limit"));

        set("client-output-buffer-limit", "NORMAL 1 1 1 normal 2 2 02");
        assertEquals("normal 2 2 2 slave 1073741824 1000 10 pubsub 1 2 3", get("client-output-buffer-limit"));

        set("client-output-buffer-limit", "");
        assertEquals("normal 2 2 2 slave 1073741824 1000 10 pubsub 1 2 3", get("client-output-buffer-limit"));
    }

    @Test
    void saveAcceptsPointsAndEmpty() throws Exception {
        set("save", "100 10 20 5");
        assertEquals("100 10 20 5", get("save"));
        assertEquals(List.of(new SavePoint(100, 10), new SavePoint(20, 5)), config.save());

        set("save", "");
        assertEquals("", get("save"));
    }

    @Test
    void valueOfAndSensitivity() throws Exception {
        set("requirepass", "s3cret");

        assertEquals("s3cret", config.valueOf("requirepass").orElseThrow());
        assertEquals("5000", config.valueOf("LUA-TIME-LIMIT").orElseThrow());
        assertFalse(config.valueOf("nosuch").isPresent());
        assertTrue(config.isSensitive("requirepass"));
        assertFalse(config.isSensitive("port"));
    }

    @Test
    void listenerRunsOnceAfterValuesAreVisibleAndOnlyOnChange() throws Exception {
        List<Integer> seen = new ArrayList<>();
        ConfigListener listener = c -> seen.add(c.hz() * 1000 + c.maxmemorySamples());
        config.onChange("hz", listener);
        config.onChange("maxmemory-samples", listener);

        set("hz", "20", "maxmemory-samples", "7");
        set("hz", "20");

        assertEquals(List.of(20_007), seen);
    }

    @Test
    void runnableListenerAndAliasRegistration() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        config.onChange("lua-time-limit", calls::incrementAndGet);

        set("busy-reply-threshold", "10");

        assertEquals(1, calls.get());
    }

    @Test
    void refusingListenerRollsEverythingBackAndRestoresEffects() throws Exception {
        List<Long> applied = new ArrayList<>();
        config.onChange("maxmemory", c -> applied.add(c.maxmemory()));
        config.onChange("hz", c -> {
            if (c.hz() > 100) {
                throw new ConfigApplyException("too fast for this machine");
            }
        });

        String error = setError("maxmemory", "1mb", "hz", "200");

        assertEquals("ERR CONFIG SET failed (possibly related to argument 'hz') - too fast for this machine", error);
        assertEquals(0, config.maxmemory());
        assertEquals(10, config.hz());
        assertEquals(List.of(1L << 20, 0L), applied);
    }

    @Test
    void listenerRegistrationIsChecked() {
        assertThrows(IllegalArgumentException.class, () -> config.onChange("nosuch", () -> { }));
        assertThrows(IllegalArgumentException.class, () -> config.onChange("port", () -> { }));
    }
}
