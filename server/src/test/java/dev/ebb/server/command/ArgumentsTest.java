package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Arguments.parseDouble: the plain-integer fast path gives what strtod gives, the rest as before. */
class ArgumentsTest {

    private static double parse(String s) {
        return Arguments.parseDouble(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void plainIntegersParseExactly() {
        assertEquals(0.0, parse("0"));
        assertEquals(7.0, parse("007"));
        assertEquals(-12345.0, parse("-12345"));
        assertEquals(123456789012345.0, parse("123456789012345"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(parse("-0")));
    }

    @Test
    void longerAndOtherFormsTakeTheGeneralPath() {
        assertEquals(1234567890123456789.0, parse("1234567890123456789"));
        assertEquals(9007199254740993.0, parse("9007199254740993"));
        assertEquals(5.0, parse("+5"));
        assertEquals(1000.0, parse("1e3"));
        assertEquals(-1.5, parse("-1.5"));
        assertEquals(Double.POSITIVE_INFINITY, parse("+inf"));
        assertEquals(16.0, parse("0x10"), "C99 hexadecimal floats, as strtod");
        assertEquals(-3.0, parse("-0x1.8p1"));
        assertEquals(0.5, parse("0x.8"));
    }

    @Test
    void malformedNumbersAreRejected() {
        for (String bad : new String[] {"", "-", "--1", "1-", "12a", " 1", "1 ", "nan", "0x", "0x1p", "0x1.8q1", "1d"}) {
            assertThrows(NumberFormatException.class, () -> parse(bad), bad);
        }
    }
}
