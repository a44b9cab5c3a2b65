package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** MONITOR lines as a real redis-server 7 sends them (quoting, redaction, what is left out). */
class MonitorCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final Pattern TIME = Pattern.compile("^\\+\\d{10}\\.\\d{6} ");

    @Test
    void monitorShouldStreamExecutedCommandsInRedisFormat() throws Exception {
        try (RespTestSocket m = new RespTestSocket(ebb); Socket c = new Socket(ebb.host(), ebb.port())) {
            assertEquals("+OK\r\n", m.call("MONITOR"));
            String addr = c.getLocalAddress().getHostAddress() + ":" + c.getLocalPort();
            OutputStream out = c.getOutputStream();
            out.write("*3\r\n$3\r\nset\r\n$2\r\nk\"\r\n$5\r\na\n\t".getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[] {1, (byte) 0xff});
            out.write("\r\nGET nokey\r\nCONFIG GET hz\r\nFOO\r\nGET\r\nAUTH x\r\nSELECT 3\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            assertLine("[0 " + addr + "] \"set\" \"k\\\"\" \"a\\n\\t\\x01\\xff\"", m.reply());
            assertLine("[0 " + addr + "] \"GET\" \"nokey\"", m.reply());
            assertLine("[0 " + addr + "] \"AUTH\" \"(redacted)\"", m.reply());
            assertLine("[3 " + addr + "] \"SELECT\" \"3\"", m.reply());
            assertEquals("+PONG\r\n", m.call("PING"));
            assertLine("[0 " + m.localAddress() + "] \"PING\"", m.reply());
            m.send("MONITOR");
            assertEquals("-ERR Replica can't interact with the keyspace\r\n", m.call("GET", "x"));
            try (RespTestSocket other = new RespTestSocket(ebb)) {
                String list = other.call("CLIENT", "LIST");
                assertTrue(list.contains(" flags=O "), list);
            }
            assertEquals("+RESET\r\n", m.call("RESET"));
            assertEquals("$-1\r\n", m.call("GET", "x"));
        }
    }

    @Test
    void monitorShouldShowAScriptBeforeTheCommandsItRunsAsLua() throws Exception {
        try (RespTestSocket m = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", m.call("MONITOR"));
            String addr = c.localAddress();

            assertEquals("+OK\r\n", c.call("EVAL", "return redis.call('set', KEYS[1], 'v')", "1", "k"));
            assertTrue(c.call("EVALSHA", "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef", "0").startsWith("-NOSCRIPT"));

            assertLine("[0 " + addr + "] \"EVAL\" \"return redis.call('set', KEYS[1], 'v')\" \"1\" \"k\"", m.reply());
            assertLine("[0 lua] \"set\" \"k\" \"v\"", m.reply());
            assertLine("[0 " + addr + "] \"EVALSHA\" \"deadbeefdeadbeefdeadbeefdeadbeefdeadbeef\" \"0\"", m.reply());
        }
    }

    private static void assertLine(String expectedAfterTime, String reply) {
        assertTrue(TIME.matcher(reply).find(), reply);
        assertEquals(expectedAfterTime + "\r\n", reply.substring(19));
    }
}
