package dev.ebb.server.command;

import dev.ebb.server.embedded.EbbExtension;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A plain socket speaking RESP, for tests that check reply bytes exactly (RESP2 vs RESP3 types,
 * verbatim strings) or whether the server closed the connection. {@link #reply()} reads exactly one
 * complete reply, however it is nested, and returns its bytes as Latin-1 text.
 */
public final class RespTestSocket implements Closeable {
    private static final int TIMEOUT_MS = 5000;

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RespTestSocket(EbbExtension ebb) throws IOException {
        this(ebb.host(), ebb.port());
    }

    public RespTestSocket(String host, int port) throws IOException {
        socket = new Socket(host, port);
        socket.setSoTimeout(TIMEOUT_MS);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    /** The local {@code ip:port} of this connection, as the server's {@code addr} field shows it. */
    String localAddress() {
        return socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort();
    }

    /** Sends {@code args} as one multibulk command. */
    public void send(String... args) throws IOException {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(bytes.length).append("\r\n").append(new String(bytes, StandardCharsets.ISO_8859_1))
                    .append("\r\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Sends {@code bytes} (Latin-1) as they are: malformed requests, inline commands. */
    void sendRaw(String bytes) throws IOException {
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Sends {@code args} and returns the reply. */
    public String call(String... args) throws IOException {
        send(args);
        return reply();
    }

    /** Reads one whole reply (nested aggregates included). */
    String reply() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        readValue(buf);
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    /** True if the server closes the connection without sending anything more. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** True if the server closes the connection within {@code millis}, sending nothing more. */
    boolean closedByServerWithin(long millis) throws IOException {
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            if (closedByServer()) {
                return true;
            }
        }
        return false;
    }

    private void readValue(ByteArrayOutputStream buf) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed before a reply");
        }
        buf.write(type);
        String line = readLine(buf);
        switch (type) {
            case '$', '=', '!' -> {
                int len = Integer.parseInt(line);
                if (len >= 0) {
                    buf.write(in.readNBytes(len + 2));
                }
            }
            case '*', '~', '>' -> {
                int n = Integer.parseInt(line);
                for (int i = 0; i < n; i++) {
                    readValue(buf);
                }
            }
            case '%', '|' -> {
                int n = Integer.parseInt(line);
                for (int i = 0; i < 2 * n; i++) {
                    readValue(buf);
                }
            }
            default -> {
                // simple types: the line was all
            }
        }
    }

    private String readLine(ByteArrayOutputStream buf) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new EOFException("connection closed inside a reply");
            }
            sb.append((char) b);
        }
        if (in.read() != '\n') {
            throw new IOException("CR without LF in reply");
        }
        buf.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        buf.write('\r');
        buf.write('\n');
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
