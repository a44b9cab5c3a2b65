package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigSyntaxTest {

    @Test
    void splitsOnBlanksAndSkipsLeadingOnes() {
        assertEquals(List.of("save", "900", "1"), ConfigSyntax.splitArgs(" \t save  900\t1 "));
        assertEquals(List.of(), ConfigSyntax.splitArgs("   "));
    }

    @Test
    void emptyQuotesAreAnEmptyArgument() {
        assertEquals(List.of("save", ""), ConfigSyntax.splitArgs("save \"\""));
        assertEquals(List.of("save", ""), ConfigSyntax.splitArgs("save ''"));
    }

    @Test
    void hexEscapeNeedsTwoHexDigits() {
        assertEquals(List.of("A", "xg1"), ConfigSyntax.splitArgs("\"\\x41\" \"\\xg1\""));
    }

    @Test
    void unquotedBackslashIsLiteral() {
        assertEquals(List.of("a\\nb"), ConfigSyntax.splitArgs("a\\nb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"open", "'open", "\"closed\"x", "'closed'x", "\"trailing backslash\\"})
    void unbalancedQuotesAreRejected(String line) {
        assertNull(ConfigSyntax.splitArgs(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "with space", "quote\"and'apostrophe", "back\\slash", "tab\tnew\nline\r",
        "bell\u0007bs\b", "nul\u0000", "high\u00ff\u0080", "#hash"})
    void quoteRoundTripsThroughSplit(String value) {
        String quoted = ConfigSyntax.quote(value);

        assertEquals(List.of(value), ConfigSyntax.splitArgs(quoted));
    }

    @Test
    void quoteUsesRedisEscapes() {
        assertEquals("\"a b\\\"c\\\\d\\n\\xff\"", ConfigSyntax.quote("a b\"c\\d\n\u00ff"));
    }

    @Test
    void strictIntegersFollowRedisString2ll() {
        assertEquals(Long.valueOf(-9223372036854775808L), ConfigNumbers.parseStrictLong("-9223372036854775808"));
        assertEquals(Long.valueOf(9223372036854775807L), ConfigNumbers.parseStrictLong("9223372036854775807"));
        assertNull(ConfigNumbers.parseStrictLong("9223372036854775808"));
        assertNull(ConfigNumbers.parseStrictLong("-9223372036854775809"));
        assertNull(ConfigNumbers.parseStrictLong("+1"));
        assertNull(ConfigNumbers.parseStrictLong("01"));
        assertNull(ConfigNumbers.parseStrictLong(" 1"));
        assertNull(ConfigNumbers.parseStrictLong("-"));
        assertNull(ConfigNumbers.parseStrictLong(""));
        assertEquals(Long.valueOf(0), ConfigNumbers.parseStrictLong("0"));
    }

    @Test
    void memoryFormattingPicksTheLargestExactUnit() {
        assertEquals("1gb", ConfigNumbers.formatMemory(1L << 30));
        assertEquals("512mb", ConfigNumbers.formatMemory(512L << 20));
        assertEquals("64kb", ConfigNumbers.formatMemory(64L << 10));
        assertEquals("1000", ConfigNumbers.formatMemory(1000));
        assertEquals("0", ConfigNumbers.formatMemory(0));
        assertNull(ConfigNumbers.parseMemory("9223372036854775808"));
        assertNull(ConfigNumbers.parseMemory("9000000000gb"));
    }
}
