package dev.ebb.resp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reply text of doubles. Expected texts come from Redis 7.2's own formatting code (its d2string
 * with fpconv_dtoa, compiled outside this project and run on the same values); where the text is
 * also what redis-server 7.0.15 replies to ZSCORE, that is noted. The property tests check the
 * digits are the shortest that parse back, nearest the exact value, for random doubles.
 */
class RespDoublesTest {

    @ParameterizedTest
    @CsvSource({
        // same text from redis-server 7.0.15 (ZSCORE, DEBUG PROTOCOL double)
        "3, 3", "1.5, 1.5", "0.5, 0.5", "2.5, 2.5", "100, 100", "1e15, 1000000000000000", "3.141, 3.141",
        "1e20, 1e+20", "0.30000000000000004, 0.30000000000000004", "-1, -1",
        // Redis 7.2 text (7.0 printed %.17g)
        "0.1, 0.1", "1.5e-7, 1.5e-7", "1e-7, 1e-7", "0.000001, 0.000001", "0.0001234, 1.234e-4",
        "123456789012345678, 123456789012345680", "1e17, 100000000000000000",
        "4611686018427387904, 4611686018427387904", "9223372036854775808, 9223372036854776000",
        "1e19, 1e+19", "1e25, 1e+25", "1.5e25, 1.5e+25", "1e100, 1e+100", "1e300, 1e+300",
        "1.7976931348623157e308, 1.7976931348623157e+308", "5e-324, 5e-324", "2.2250738585072014e-308, 2.2250738585072014e-308",
        "1.2345678901234567, 1.2345678901234567", "0.0012345678901234, 0.0012345678901234",
        "0.00012345678901234, 1.2345678901234e-4", "123.456, 123.456", "-0.1, -0.1", "-1.5e-7, -1.5e-7",
        "1e-5, 0.00001", "12345.678e-10, 1.2345678e-6", "1e22, 1e+22", "4.35, 4.35",
        "0.3, 0.3", "2.675, 2.675", "9007199254740993, 9007199254740992",
    })
    void formatsAsRedis72(double value, String expected) {
        assertEquals(expected, RespDoubles.format(value));
    }

    /**
     * Redis 7.2's Grisu2 prints 1e23 as 99999999999999990000000 (16 digits, still parsing back);
     * Ebb prints the shortest digits, as documented on {@link RespDoubles}.
     */
    @Test
    void printsTheShortestDigitsWhereRedisGrisu2PrintsLonger() {
        assertEquals("1e+23", RespDoubles.format(1e23));
    }

    @Test
    void formatsSpecialValues() {
        assertEquals("inf", RespDoubles.format(Double.POSITIVE_INFINITY));
        assertEquals("-inf", RespDoubles.format(Double.NEGATIVE_INFINITY));
        assertEquals("nan", RespDoubles.format(Double.NaN));
        assertEquals("nan", RespDoubles.format(Double.longBitsToDouble(0xfff8000000000001L)));
        assertEquals("0", RespDoubles.format(0.0));
        assertEquals("-0", RespDoubles.format(-0.0));
    }

    @Test
    void printsShortestNearestDigitsThatParseBackForRandomDoubles() {
        Random random = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            double v = Double.longBitsToDouble(random.nextLong());
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            assertShortestNearest(v);
        }
    }

    @Test
    void printsShortestNearestDigitsForDecimalsPeopleType() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            long digits = random.nextInt(1_000_000);
            int scale = random.nextInt(30) - 10;
            double v = new BigDecimal(digits).scaleByPowerOfTen(-scale).doubleValue();
            if (v != 0) {
                assertShortestNearest(v);
                assertShortestNearest(-v);
            }
        }
    }

    @Test
    void printsShortestNearestDigitsForPowersOfTwoAndTheirNeighbours() {
        for (int exponent = -1074; exponent <= 1023; exponent++) {
            double power = Math.scalb(1.0, exponent);
            assertShortestNearest(power);
            assertShortestNearest(Math.nextUp(power));
            if (Math.nextDown(power) > 0) {
                assertShortestNearest(Math.nextDown(power));
            }
        }
    }

    /** Checks: parses back, no shorter decimal parses back, no other decimal of that length is nearer. */
    private static void assertShortestNearest(double v) {
        String text = RespDoubles.format(v);
        assertEquals(v, Double.parseDouble(text), () -> "does not parse back: " + v + " -> " + text);
        boolean integral = Math.abs(v) <= 0x1p62 && (long) v == v;
        if (integral) {
            assertEquals(Long.toString((long) v), text);
            return;
        }
        BigDecimal printed = new BigDecimal(text);
        BigDecimal exact = new BigDecimal(v);
        int precision = printed.stripTrailingZeros().precision();
        if (precision > 1) {
            MathContext shorter = new MathContext(precision - 1, RoundingMode.FLOOR);
            MathContext shorterUp = new MathContext(precision - 1, RoundingMode.CEILING);
            assertFalse(exact.round(shorter).doubleValue() == v || exact.round(shorterUp).doubleValue() == v,
                () -> "a shorter decimal parses back for " + v + " than " + text);
        }
        BigDecimal ulp = BigDecimal.ONE.scaleByPowerOfTen(-printed.stripTrailingZeros().scale());
        for (BigDecimal neighbour : new BigDecimal[] {printed.add(ulp), printed.subtract(ulp)}) {
            if (neighbour.doubleValue() == v) {
                assertTrue(neighbour.subtract(exact).abs().compareTo(printed.subtract(exact).abs()) >= 0,
                    () -> "a nearer decimal of the same length parses back for " + v + ": " + neighbour);
            }
        }
        assertTrue(text.length() <= RespDoubles.MAX_TEXT_LENGTH);
    }
}
