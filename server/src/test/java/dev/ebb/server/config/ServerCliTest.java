package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerCliTest {
    @TempDir
    Path tmp;

    private static final InputStream NO_STDIN = new ByteArrayInputStream(new byte[0]);

    private static ServerConfig start(String... args) throws ConfigException {
        return start(NO_STDIN, args);
    }

    private static ServerConfig start(InputStream stdin, String... args) throws ConfigException {
        StartupRequest request = ServerCli.parse(args, stdin);
        return assertInstanceOf(StartupRequest.StartServer.class, request).config();
    }

    @Test
    void noArgumentsMeansDefaultsWithoutConfigFile() throws Exception {
        ServerConfig config = start();

        assertEquals(ServerConfig.defaults().configGet("*"), config.configGet("*"));
        assertFalse(config.configFile().isPresent());
    }

    @Test
    void directivesWithValuesAndEmptySave() throws Exception {
        ServerConfig config = start("--port", "7000", "--save", "", "--maxmemory", "1gb");

        assertEquals(7000, config.port());
        assertEquals(List.of(), config.save());
        assertEquals(1L << 30, config.maxmemory());
    }

    @Test
    void commandLineOverridesTheConfigFile() throws Exception {
        Path file = tmp.resolve("ebb.conf");
        Files.writeString(file, "port 7000\nhz 20\n");

        ServerConfig config = start(file.toString(), "--port", "7001");

        assertEquals(7001, config.port());
        assertEquals(20, config.hz());
        assertEquals(file.toAbsolutePath().normalize(), config.configFile().orElseThrow());
    }

    @Test
    void valuesMayStartWithADash() throws Exception {
        ServerConfig config = start("--bind", "127.0.0.1", "-::1", "--slowlog-log-slower-than", "-1");

        assertEquals(List.of("127.0.0.1", "-::1"), config.bind());
        assertEquals(-1, config.slowlogLogSlowerThan());
    }

    @Test
    void argumentAfterBareDirectiveIsItsValueEvenWithDoubleDash() throws Exception {
        ServerConfig config = start("--requirepass", "--secret", "--port", "7000");

        assertEquals("--secret", config.requirepass());
        assertEquals(7000, config.port());
    }

    @Test
    void bareSaveBeforeAnotherDirectiveOrAtTheEndMeansEmptySave() throws Exception {
        Path file = tmp.resolve("ebb.conf");
        Files.writeString(file, "save 3600 1\n");

        ServerConfig beforeDirective = start(file.toString(), "--save", "--port", "7000");
        ServerConfig atEnd = start(file.toString(), "--port", "7000", "--save");

        assertEquals(List.of(), beforeDirective.save());
        assertEquals(7000, beforeDirective.port());
        assertEquals(List.of(), atEnd.save());
    }

    @Test
    void nameAndValueMayShareOneArgument() throws Exception {
        ServerConfig config = start("--port 7000", "--client-output-buffer-limit", "normal", "1mb", "2mb", "3");

        assertEquals(7000, config.port());
        assertEquals(new ClientOutputBufferLimits.Limit(1L << 20, 2L << 20, 3),
                config.clientOutputBufferLimits().normal());
    }

    @Test
    void valuesWithSpacesAndQuotesArePassedIntact() throws Exception {
        ServerConfig config = start("--requirepass", "a \"quoted\" pass\\word");

        assertEquals("a \"quoted\" pass\\word", config.requirepass());
    }

    @Test
    void dashReadsStandardInputBetweenFileAndOptions() throws Exception {
        Path file = tmp.resolve("ebb.conf");
        Files.writeString(file, "port 7000\nhz 20\nmaxmemory 1mb\n");
        InputStream stdin = new ByteArrayInputStream("hz 30\nmaxmemory 2mb\n".getBytes(StandardCharsets.US_ASCII));

        ServerConfig config = start(stdin, file.toString(), "--maxmemory", "3mb", "-");

        assertEquals(7000, config.port());
        assertEquals(30, config.hz());
        assertEquals(3L << 20, config.maxmemory());
    }

    @Test
    void badValueIsReportedWithTheCommandLineAsSource() {
        ConfigException e = assertThrows(ConfigException.class, () -> start("--port", "7000", "--hz", "abc"));

        assertEquals(new ConfigLocation(ConfigLocation.COMMAND_LINE, 2, "hz \"abc\""), e.location());
        assertEquals("argument couldn't be parsed into an integer", e.reason());
        assertTrue(e.getMessage().contains("Reading the configuration file, at line 2 (command line)\n>>> 'hz \"abc\"'"));
    }

    @Test
    void directiveWithoutValueIsWrongNumberOfArguments() {
        ConfigException e = assertThrows(ConfigException.class, () -> start("--port"));

        assertEquals("wrong number of arguments", e.reason());
    }

    @Test
    void unknownDirectiveFails() {
        ConfigException e = assertThrows(ConfigException.class, () -> start("--no-such-thing", "1"));

        assertEquals("Bad directive or wrong number of arguments", e.reason());
    }

    @Test
    void helpAfterTheFirstArgumentIsADirectiveLikeInRedis() throws Exception {
        Path file = tmp.resolve("ebb.conf");
        Files.writeString(file, "port 7000\n");

        ConfigException e = assertThrows(ConfigException.class, () -> start(file.toString(), "--help"));

        assertEquals("help", e.location().line());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void helpPrintsUsageAndExitsZero(String flag) throws Exception {
        StartupRequest request = ServerCli.parse(new String[] {flag}, NO_STDIN);

        String text = assertInstanceOf(StartupRequest.PrintAndExit.class, request).text();
        assertTrue(text.startsWith("Usage: ebb-server [config-file] [--directive value ...] [-]"), text);
        assertTrue(text.contains("--port 7777"), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-v", "-V"})
    void versionPrintsVersionLineAndExitsZero(String flag) throws Exception {
        StartupRequest request = ServerCli.parse(new String[] {flag}, NO_STDIN);

        String text = assertInstanceOf(StartupRequest.PrintAndExit.class, request).text();
        assertTrue(text.startsWith("Ebb server v=" + ServerVersion.ebbVersion() + " java="), text);
    }

    /** The start-up skips picocli unless it has something to do: then picocli would have returned the arguments unchanged. */
    @Test
    void argumentsPicocliWouldPassOnUnchangedSkipIt() throws Exception {
        List<String[]> lines = List.of(new String[] {}, new String[] {"--port", "7000"},
                new String[] {"ebb.conf", "--save", "", "--help"}, new String[] {"-"}, new String[] {"-", "--port", "1"},
                new String[] {"--save"}, new String[] {"-x", "1"}, new String[] {"--port=7000"},
                new String[] {"--loglevel", "--help"}, new String[] {"ebb.conf", "--", "x"}, new String[] {"-"});
        for (String[] args : lines) {
            String shown = String.join(" ", args);
            assertFalse(ServerCli.needsPicocli(args), shown);
            ServerCli.Picocli parsed = ServerCli.picocli(args);
            assertNull(parsed.print(), shown);
            assertEquals(List.of(args), parsed.rest(), "picocli hands back " + shown + " unchanged");
        }
        for (String[] args : List.of(new String[] {"-h"}, new String[] {"--version"}, new String[] {"-vh"},
                new String[] {"-hx"}, new String[] {"--helpful", "1"}, new String[] {"--", "--port", "7000"})) {
            assertTrue(ServerCli.needsPicocli(args), String.join(" ", args));
        }
        assertEquals(7000, start("--", "--port", "7000").port(), "a leading -- is dropped, as before");
    }
}
