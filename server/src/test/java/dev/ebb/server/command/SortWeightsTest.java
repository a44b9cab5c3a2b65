package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How SORT reads a numeric weight (C's strtod with Redis's checks), case by case as
 * redis-server 7.2.4 sorted the list {@code 1, weight}: accepted with its value, or refused with
 * "One or more scores can't be converted into double". Quotes in the table delimit the text.
 */
class SortWeightsTest {
    private static double score(String weight) {
        return SortCommands.score(weight.getBytes(StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|0", "' 5'|5", "'\t7'|7", "0x10|16", "0x.8|0.5", "+5|5", "5.|5", ".5|0.5", "1e308|1e308",
        "1e-30|1e-30", "0e-400|0", "-inf|-Infinity", "inf|Infinity", "0x1p-1074|4.9e-324", "3|3"})
    void weightsStrtodAcceptsShouldHaveTheirValue(String weight, double expected) {
        assertEquals(expected, score(weight));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5 ", "   ", "x", "nan", "0x", "1e400", "-1e400", "1e-400", "1e-310", "2.5e-320",
        "0x1.8p-1074", "1,5", "0x1p"})
    void weightsStrtodRefusesOrThatOverflowOrUnderflowShouldBeNaN(String weight) {
        assertTrue(Double.isNaN(score(weight)), weight);
    }

    @ParameterizedTest
    @ValueSource(strings = {"5\0x", "5\0"})
    void aWeightShouldEndAtItsFirstNul(String weight) {
        assertEquals(5, score(weight));
    }
}
