package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LOLWUT as redis-server 7.2.4 answers it: the plain version line without a version or for one
 * that has no art, Schotter in Braille for version 5, the ANSI skyline for version 6, sizes clamped.
 * The art is random, so its shape is checked, not its pixels.
 */
class LolwutCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void lolwutWithoutArtShouldPrintTheVersion() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("$17\r\nRedis ver. 7.2.4\n\r\n", s.call("LOLWUT"));
            assertEquals("$17\r\nRedis ver. 7.2.4\n\r\n", s.call("LOLWUT", "VERSION", "7"));
            assertEquals("$17\r\nRedis ver. 7.2.4\n\r\n", s.call("LOLWUT", "VERSION", "-9223372036854775808"));
            assertEquals("$17\r\nRedis ver. 7.2.4\n\r\n", s.call("LOLWUT", "5", "1", "1"));
            assertEquals("-ERR value is not an integer or out of range\r\n", s.call("LOLWUT", "VERSION", "x"));
            assertEquals("-ERR value is not an integer or out of range\r\n", s.call("LOLWUT", "VERSION", "5", "x"));
            s.call("HELLO", "3");
            assertEquals("=21\r\ntxt:Redis ver. 7.2.4\n\r\n", s.call("LOLWUT"));
        }
    }

    @Test
    void version5ShouldDrawSchotterInBraille() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String[] lines = body(s.call("LOLWUT", "VERSION", "5", "20", "4", "6")).split("\n");

            assertEquals("Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.2.4", lines[lines.length - 1]);
            // 40 pixels wide, squares of (40 - 4) / 4 = 9 pixels: 6 rows of them plus padding are 58
            // pixels high, 15 lines of four pixels; as in Redis a blank line precedes the caption.
            assertEquals(15 + 2, lines.length);
            assertEquals("", lines[15]);
            for (int i = 0; i < 15; i++) {
                assertEquals(20, lines[i].length(), "line " + i);
                for (char ch : lines[i].toCharArray()) {
                    assertTrue(ch >= 0x2800 && ch <= 0x28ff, "Braille only: " + (int) ch);
                }
            }
            assertTrue(lines[1].chars().anyMatch(ch -> ch != 0x2800), "the first row of squares is drawn");
        }
    }

    @Test
    void version5WithOneSquareShouldMatchRedisExactly() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            // redis-server 7.2.4's reply to LOLWUT VERSION 5 1 1 1 (one unrotated square: no randomness).
            assertEquals("\u280b\n\nGeorg Nees - schotter, plotter on paper, 1968. Redis ver. 7.2.4\n",
                    body(s.call("LOLWUT", "VERSION", "5", "1", "1", "1")));
        }
    }

    @Test
    void version6ShouldDrawASkylineInAnsiColours() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String[] lines = body(s.call("LOLWUT", "VERSION", "6", "30", "10")).split("\n");

            assertEquals(10 + 2, lines.length);
            assertEquals("Original 8 bit image from Plaguemon by hikikomori. Redis ver. 7.2.4", lines[11]);
            assertEquals("Dedicated to the 8 bit game developers of past and present.", lines[10]);
            for (int i = 0; i < 10; i++) {
                assertEquals(30, lines[i].split(" \033\\[0m", -1).length - 1, "30 pixels on line " + i);
            }
            assertTrue(lines[9].contains("\033[0;30;40m"), "black buildings stand on the bottom row");
        }
    }

    @Test
    void sizesShouldBeClampedAsRedisDoes() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String[] lines = body(s.call("LOLWUT", "VERSION", "6", "0", "-5")).split("\n");

            assertEquals(1 + 2, lines.length, "at least one row");
            assertEquals(1, lines[0].split(" \033\\[0m", -1).length - 1, "at least one column");
        }
    }

    /** The bulk string's text (the socket reads replies as Latin-1; LOLWUT's are UTF-8). */
    private static String body(String reply) {
        String text = reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
        return new String(text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }
}
