package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A diskless full sync whose stream starts in the same TCP segment as the payload's end mark: the
 * replica stops the payload right after the 40-byte mark and applies what follows as the stream
 * (it used to take the stream bytes for payload and wait for the mark forever). The primary is a
 * scripted socket that answers the handshake and writes {@code $EOF:<mark>}, an empty RDB, the mark
 * and a SET in one write, as a promoted Redis or Ebb primary does when writes were buffered during
 * the sync.
 */
class DisklessEofMarkTest {
    private static final String MARK = "0123456789abcdef0123456789abcdef01234567";
    private static final String REPLID = "a".repeat(40);

    @TempDir
    Path dir;

    @Test
    void streamBytesRightAfterTheMarkShouldBeAppliedNotWrittenToThePayload() throws Exception {
        try (ServerSocket fake = new ServerSocket(0);
                EbbServer replica = EbbServer.start(ServerConfig.fromText(
                        "port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir + "\n"));
                Jedis j = new Jedis("127.0.0.1", replica.port())) {
            Thread primary = new Thread(() -> servePrimary(fake), "fake-primary");
            primary.setDaemon(true);
            primary.start();

            j.replicaof("127.0.0.1", fake.getLocalPort());

            await("the link to come up", 60, () -> "up".equals(info(j, "master_link_status")));
            await("the streamed SET to be applied", 60, () -> "v".equals(j.get("k")));
            assertEquals("27", info(j, "slave_repl_offset"));
        }
    }

    /** Answers PING, REPLCONF and PSYNC, then sends payload, mark and stream in one write. */
    private static void servePrimary(ServerSocket fake) {
        try (Socket s = fake.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                String command = readCommandName(in);
                if (command.equals("ping")) {
                    out.write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
                } else if (command.equals("psync")) {
                    ByteArrayOutputStream b = new ByteArrayOutputStream();
                    b.write(("+FULLRESYNC " + REPLID + " 0\r\n$EOF:" + MARK + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    b.write("REDIS0011".getBytes(StandardCharsets.US_ASCII));
                    b.write(0xFF);
                    b.write(new byte[8]);
                    b.write(MARK.getBytes(StandardCharsets.US_ASCII));
                    b.write("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.write(b.toByteArray());
                    out.flush();
                    while (in.read() >= 0) {
                        // REPLCONF ACKs until the replica goes away.
                    }
                    return;
                } else {
                    out.write("+OK\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
        } catch (java.io.IOException e) {
            // the replica closed the link
        }
    }

    /** Reads one RESP array command and returns its name in lower case. */
    private static String readCommandName(InputStream in) throws java.io.IOException {
        int count = Integer.parseInt(readLine(in).substring(1));
        String name = null;
        for (int i = 0; i < count; i++) {
            int len = Integer.parseInt(readLine(in).substring(1));
            byte[] arg = in.readNBytes(len + 2);
            if (i == 0) {
                name = new String(arg, 0, len, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
            }
        }
        return name;
    }

    private static String readLine(InputStream in) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new java.io.EOFException();
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }
}
