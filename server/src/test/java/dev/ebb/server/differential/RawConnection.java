package dev.ebb.server.differential;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A socket speaking RESP that returns each reply as a {@link Reply} tree, bytes kept as Latin-1 text. */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    Reply call(List<String> args) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.ISO_8859_1);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            b.writeBytes(bytes);
            b.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.write(b.toByteArray());
        out.flush();
        return read();
    }

    private Reply read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed");
        }
        String line = line();
        switch (type) {
            case '$', '=', '!' -> {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return new Reply((char) type, line, List.of());
                }
                byte[] body = in.readNBytes(len + 2);
                return new Reply((char) type, new String(body, 0, len, StandardCharsets.ISO_8859_1), List.of());
            }
            case '*', '~', '>', '%', '|' -> {
                int n = Integer.parseInt(line);
                int items = type == '%' || type == '|' ? 2 * n : n;
                List<Reply> children = new ArrayList<>(Math.max(0, items));
                for (int i = 0; i < items; i++) {
                    children.add(read());
                }
                return new Reply((char) type, line, children);
            }
            default -> {
                return new Reply((char) type, line, List.of());
            }
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new EOFException("connection closed inside a reply");
            }
            sb.append((char) b);
        }
        in.read();
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** One reply: its type byte, its text (a length or count for aggregates) and its elements. */
    record Reply(char type, String text, List<Reply> children) {
        /** The reply with every aggregate's elements in sorted order (pairs kept together in maps). */
        Reply unordered(boolean pairs) {
            if (children.isEmpty()) {
                return this;
            }
            List<List<Reply>> groups = new ArrayList<>();
            int step = pairs || type == '%' ? 2 : 1;
            for (int i = 0; i + step <= children.size(); i += step) {
                groups.add(children.subList(i, i + step));
            }
            groups.sort(Comparator.comparing(Object::toString));
            List<Reply> sorted = new ArrayList<>();
            groups.forEach(sorted::addAll);
            return new Reply(type, text, sorted);
        }

        @Override
        public String toString() {
            if (children.isEmpty()) {
                return type + text;
            }
            return type + text + children;
        }
    }
}
