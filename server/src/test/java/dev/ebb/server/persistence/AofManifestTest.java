package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifest's text as Redis 7.2 writes and reads it: line format, order, names, quoting and refusals. */
class AofManifestTest {
    @Test
    void aFirstStartShouldNameBaseOneAndIncrOne() {
        AofManifest m = new AofManifest("appendonly.aof");

        m.newBase(true);
        m.newIncr();

        assertEquals("file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
                m.format());
    }

    @Test
    void aRewriteShouldTurnTheOldBaseAndIncrsIntoHistoryBeforeTheNewIncr() {
        AofManifest m = new AofManifest("appendonly.aof");
        m.newBase(true);
        m.newIncr();
        m.newIncr();

        m.newBase(false);
        m.newIncr();
        m.markRewrittenIncrsAsHistory(true);

        assertEquals("file appendonly.aof.2.base.aof seq 2 type b\n"
                + "file appendonly.aof.1.base.rdb seq 1 type h\n"
                + "file appendonly.aof.1.incr.aof seq 1 type h\n"
                + "file appendonly.aof.2.incr.aof seq 2 type h\n"
                + "file appendonly.aof.3.incr.aof seq 3 type i\n", m.format());
    }

    @Test
    void parseShouldReadWhatFormatWroteAndKeepTheSequences() throws Exception {
        String text = "file appendonly.aof.2.base.rdb seq 2 type b\n"
                + "file appendonly.aof.4.incr.aof seq 4 type i\n"
                + "file appendonly.aof.5.incr.aof seq 5 type i\n";

        AofManifest m = AofManifest.parse("appendonly.aof", text);

        assertEquals(text, m.format());
        assertEquals("appendonly.aof.3.base.rdb", m.newBase(true));
        assertEquals("appendonly.aof.6.incr.aof", m.newIncr());
    }

    @Test
    void parseShouldAcceptKeysInAnyOrderCommentsAndQuotedNames() throws Exception {
        AofManifest m = AofManifest.parse("my file",
                "# comment\ntype b seq 1 file \"my file.1.base.rdb\" extra x\nfile 'my file.1.incr.aof' seq 1 type i\n");

        assertEquals("my file.1.base.rdb", m.base().name());
        assertEquals(List.of(new AofManifest.Entry("my file.1.incr.aof", 1, 'i')), m.incrs());
        assertEquals("file \"my file.1.base.rdb\" seq 1 type b\nfile \"my file.1.incr.aof\" seq 1 type i\n",
                m.format());
    }

    @Test
    void parseShouldRefuseWhatRedisRefuses() {
        assertRefused("", "Found an empty AOF manifest");
        assertRefused("file a seq 1\n", "Invalid AOF manifest file format");
        assertRefused("file a seq 1 type b\nfile b seq 2 type b\n", "Found duplicate base file information");
        assertRefused("file a seq 2 type i\nfile b seq 2 type i\n", "Found a non-monotonic sequence number");
        assertRefused("file a seq 1 type x\n", "Unknown AOF file type");
        assertRefused("file dir/a seq 1 type i\n", "File can't be a path, just a filename");
    }

    private static void assertRefused(String text, String reason) {
        AofException e = assertThrows(AofException.class, () -> AofManifest.parse("appendonly.aof", text));
        assertTrue(e.getMessage().endsWith(reason), e.getMessage());
    }
}
