package dev.ebb.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped conf/ebb.conf loads, changes nothing, and documents every directive. */
class EbbConfFileTest {

    /** Found from the module directory (Maven) or the repository root. */
    private static Path ebbConf() {
        for (Path candidate : List.of(Path.of("../conf/ebb.conf"), Path.of("conf/ebb.conf"))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("conf/ebb.conf not found from " + Path.of("").toAbsolutePath());
    }

    private static List<String> activeDirectiveNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(ebbConf())) {
            String trimmed = line.trim();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                names.add(ConfigSyntax.splitArgs(trimmed).get(0));
            }
        }
        return names;
    }

    @Test
    void loadsToExactlyTheDefaults() throws Exception {
        ServerConfig config = ServerConfig.load(ebbConf());

        assertEquals(ServerConfig.defaults().configGet("*"), config.configGet("*"));
        assertEquals(List.of(), config.renamedCommands());
    }

    @Test
    void setsEveryDirectiveExceptThePasswordAndThePrimaryByItsCanonicalName() throws Exception {
        Set<String> expected = new LinkedHashSet<>();
        for (Directive<?> directive : Directives.ALL) {
            if (directive != Directives.REQUIREPASS && directive != Directives.REPLICAOF) {
                expected.add(directive.name);
            }
        }

        assertEquals(expected, new LinkedHashSet<>(activeDirectiveNames()));
    }

    @Test
    void documentsTheCommentedOutDirectives() throws Exception {
        String text = Files.readString(ebbConf());

        assertTrue(text.contains("\n# requirepass "), "requirepass example");
        assertTrue(text.contains("\n# replicaof "), "replicaof example");
        assertTrue(text.contains("\n# rename-command "), "rename-command example");
        assertTrue(text.contains("\n# user "), "user example");
        assertTrue(text.contains("\n# include "), "include example");
    }

    @Test
    void everyDirectiveLineFollowsACommentStatingItsDefault() throws Exception {
        StringBuilder commentAbove = new StringBuilder();
        for (String line : Files.readAllLines(ebbConf())) {
            String trimmed = line.trim();
            if (trimmed.isEmpty()) {
                commentAbove.setLength(0);
            } else if (trimmed.startsWith("#")) {
                commentAbove.append(trimmed).append('\n');
            } else {
                assertTrue(commentAbove.indexOf("Default:") >= 0, "no 'Default:' in the comment above: " + line);
            }
        }
    }

    @Test
    void rewritingTheUntouchedFileOnlyNormalizesStringValues(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("ebb.conf");
        Files.copy(ebbConf(), copy);
        ServerConfig config = ServerConfig.load(copy);

        config.configRewrite();

        String expected = Files.readString(ebbConf())
                .replace("\ndir ./\n", "\ndir \"" + config.dir() + "\"\n")
                .replace("\ndbfilename dump.rdb\n", "\ndbfilename \"dump.rdb\"\n");
        assertEquals(expected, Files.readString(copy));
        assertEquals(ServerConfig.defaults().configGet("*"), ServerConfig.load(copy).configGet("*"));
    }
}
