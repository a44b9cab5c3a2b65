package dev.ebb.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Ebb's own version, as packaged: the jar manifest's {@code Implementation-Version} if present, else the
 * {@code pom.properties} that Maven puts into every jar. Classes run from a build directory (tests, IDE) have
 * neither and report {@value #UNPACKAGED}. Thread-safe; the lookup runs once.
 */
public final class ServerVersion {
    /** Reported when the classes do not come from a packaged jar. */
    public static final String UNPACKAGED = "unpackaged";

    private static final String POM_PROPERTIES = "/META-INF/maven/dev.ebb/server/pom.properties";
    private static final String VERSION = lookup();

    private ServerVersion() {
    }

    /** Ebb's version, e.g. {@code 0.1.0-SNAPSHOT}, or {@value #UNPACKAGED}. */
    public static String ebbVersion() {
        return VERSION;
    }

    private static String lookup() {
        String fromManifest = ServerVersion.class.getPackage().getImplementationVersion();
        if (fromManifest != null) {
            return fromManifest;
        }
        try (InputStream in = ServerVersion.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null) {
                    return version;
                }
            }
        } catch (IOException unreadable) {
            return UNPACKAGED;
        }
        return UNPACKAGED;
    }
}
