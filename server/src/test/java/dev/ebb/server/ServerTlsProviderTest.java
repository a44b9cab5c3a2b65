package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The TLS provider: BoringSSL from netty-tcnative-boringssl-static on the platforms it ships for. */
class ServerTlsProviderTest {

    @Test
    void boringSslShouldBeChosenOnLinuxX8664() {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux")
                && System.getProperty("os.arch").equals("amd64"), "netty-tcnative is bundled for linux-x86_64 only");

        assertEquals(SslProvider.OPENSSL, ServerTls.provider(), String.valueOf(OpenSsl.unavailabilityCause()));
        assertEquals(true, OpenSsl.versionString().contains("BoringSSL"), OpenSsl.versionString());
    }
}
