package dev.ebb.server.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    /**
     * Expected results were taken from a real redis-server 7.0.15 (KEYS with the subject as the only key), so the
     * quirks are Redis's, not guesses. Columns: pattern, subject, match. Written with '|' as the CSV delimiter and
     * '"' quoting so that brackets and backslashes stay literal.
     */
    @ParameterizedTest(name = "[{index}] ''{0}'' vs ''{1}'' -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "h?llo      | hello     | true",
        "h?llo      | hllo      | false",
        "h*llo      | hllo      | true",
        "h*llo      | heeeello  | true",
        "h[ae]llo   | hello     | true",
        "h[ae]llo   | hillo     | false",
        "h[^e]llo   | hallo     | true",
        "h[^e]llo   | hello     | false",
        "h[a-b]llo  | hbllo     | true",
        "h[a-b]llo  | hcllo     | false",
        "h[b-a]llo  | hallo     | true",
        "a*         | a         | true",
        "a**        | a         | true",
        "*a         | a         | true",
        "*          | abc       | true",
        "**         | abc       | true",
        "*?         | a         | true",
        "*??        | a         | false",
        "?          | ab        | false",
        "a*b*c      | axxbyyc   | true",
        "a*b*c      | axxbyy    | false",
        "a*b        | abab      | true",
        "*a*a*b     | aaaab     | true",
        "\"h\\*llo\"  | h*llo     | true",
        "\"h\\*llo\"  | hello     | false",
        "\"\\\\\"     | \"\\\"      | true",
        "\"\\\"       | \"\\\"      | true",
        "\"a\\\"      | \"a\\\"     | true",
        "\"\\b\"      | b         | true",
        "\"[\\]]\"    | ]         | true",
        "\"[\\\\]\"   | \"\\\"      | true",
        "[]]        | ]         | false",
        "[]         | a         | false",
        "[^]        | a         | true",
        "[a         | a         | true",
        "[a         | ab        | false",
        "[^a        | b         | true",
        "[a-        | -         | true",
        "[a-]       | a         | true",
        "[a-]x      | b         | false",
        "-]-c       | -]-c      | true",
        "\"a[?-c^A]\" | aaa-cbA]  | false",
        "\"[\\]c*\"   | ]c[       | false",
        "\"[\\]c*\"   | c         | true",
        "\"[^\\]]\"   | a         | true",
        "\"*[-\"      | cA-       | true",
        "\"\\]cc\"    | ]cc       | true",
        "\"?A\\\"     | \"\\A\\\"    | true",
        "\"a?c?\\\"   | \"abc]\\\"   | true",
    })
    void matchesLikeRedis(String pattern, String subject, boolean expected) {
        assertEquals(expected, Glob.matches(pattern, subject, false));
    }

    @Test
    void emptySubjectMatchesOnlyTheEmptyPattern() {
        assertTrue(Glob.matches("", "", false));
        assertFalse(Glob.matches("*", "", false));
        assertFalse(Glob.matches("**", "", false));
        assertFalse(Glob.matches("", "a", false));
    }

    @Test
    void nocaseFoldsAsciiLettersOnly() {
        assertTrue(Glob.matches("HELLO", "hello", true));
        assertTrue(Glob.matches("h[A-Z]llo", "hello", true));
        assertTrue(Glob.matches("h[E]llo", "hello", true));
        assertFalse(Glob.matches("HELLO", "hello", false));
        assertFalse(Glob.matches("\u00c9", "\u00e9", true));
    }

    @Test
    void escapedCharacterInsideClassStaysCaseSensitiveUnderNocase() {
        assertFalse(Glob.matches("[\\E]", "e", true));
        assertTrue(Glob.matches("[\\E]", "E", true));
    }

    @Test
    void rangeBoundsCompareAsSignedBytesLikeC() {
        byte[] pattern = {'[', 'a', '-', (byte) 0xff, ']'};

        assertTrue(Glob.matches(pattern, new byte[] {(byte) 0xff}, false));
        assertTrue(Glob.matches(pattern, new byte[] {'0'}, false));
        assertFalse(Glob.matches(pattern, new byte[] {'z'}, false));
    }

    @Test
    void matchesBinarySubjectsAndOffsets() {
        Glob glob = Glob.compile(new byte[] {'k', '*', 0}, false);
        byte[] buffer = {'x', 'k', 1, 2, 0, 'y'};

        assertTrue(glob.matches(buffer, 1, 4));
        assertFalse(glob.matches(buffer, 1, 5));
    }

    @Test
    void compiledGlobIsReusable() {
        Glob glob = Glob.compile("user:*:name", false);

        assertTrue(glob.matches("user:1:name".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(glob.matches("user:12345:name".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(glob.matches("user:1:age".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void pathologicalPatternFinishesFast() {
        byte[] subject = "a".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        Glob glob = Glob.compile("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", false);

        boolean matched = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> glob.matches(subject));

        assertFalse(matched);
    }

    @Test
    void redisRegressionLongNestedLoopsDoesNotMatch() {
        byte[] subject = "a".repeat(58).getBytes(StandardCharsets.US_ASCII);
        String pattern = "a*".repeat(49) + "b";

        assertFalse(Glob.matches(pattern.getBytes(StandardCharsets.US_ASCII), subject, false));
    }

    /** Redis gives up after 1000 nested stars, so this pattern, a match on paper, does not match (unit/keyspace). */
    @Test
    void moreThanThousandNestedStarsNeverMatchAsInRedis() {
        byte[] subject = "a".repeat(50_000).getBytes(StandardCharsets.US_ASCII);
        byte[] pattern = "*?".repeat(50_000).getBytes(StandardCharsets.US_ASCII);

        boolean matched = assertTimeoutPreemptively(Duration.ofSeconds(2),
                () -> Glob.matches(pattern, subject, false));

        assertFalse(matched);
    }

    @Test
    void thousandStarsStillMatch() {
        byte[] subject = "a".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        byte[] pattern = "*?".repeat(1000).getBytes(StandardCharsets.US_ASCII);

        assertTrue(Glob.matches(pattern, subject, false));
    }

    @Test
    void trailingStarBeyondTheLimitStillMatches() {
        byte[] subject = "a".repeat(1001).getBytes(StandardCharsets.US_ASCII);
        byte[] pattern = ("?*".repeat(1000) + "?*").getBytes(StandardCharsets.US_ASCII);

        assertTrue(Glob.matches(pattern, subject, false));
    }

    @Test
    void hasWildcardsSpotsGlobCharacters() {
        assertTrue(Glob.hasWildcards("max*"));
        assertTrue(Glob.hasWildcards("p?rt"));
        assertTrue(Glob.hasWildcards("[p]ort"));
        assertFalse(Glob.hasWildcards("port"));
    }
}
