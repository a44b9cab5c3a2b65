package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client blocked in BLPOP, BLMOVE or BZPOPMIN that resets its connection (SO_LINGER 0, then
 * close) just before another client pushes is never served: the element stays in the source key, or
 * goes to a live waiter queued behind the dead one. With io-threads 1 the reset and the push are read
 * in one epoll batch (Netty closes the channel at once but reports it inactive in a later task); with
 * io-threads 2 the push may reach the loop from another IO thread before the reset is read at all.
 * Every race is checked, none may lose an element.
 */
class BlockedDisconnectRaceTest {
    private static final int RACES = 25;
    private static final long WAIT_LIMIT_MS = 10_000;

    @ParameterizedTest(name = "io-threads {0}, {1}")
    @CsvSource({"1, blpop", "1, blmove", "1, bzpopmin", "2, blpop", "2, blmove", "2, bzpopmin"})
    void aResetClientShouldNeverBeServedThePushedElement(int ioThreads, String command) throws Exception {
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nio-threads " + ioThreads + "\n"));
                RespTestSocket pusher = new RespTestSocket("127.0.0.1", server.port())) {
            List<String> lost = new ArrayList<>();
            for (int race = 0; race < RACES; race++) {
                Socket waiter = blockedWaiter(server, pusher, command);

                waiter.close();
                push(pusher, command, "e" + race);

                awaitBlocked(pusher, 0);
                String left = pusher.call(command.equals("bzpopmin") ? "ZCARD" : "LLEN", "src");
                if (!left.equals(":1\r\n")) {
                    lost.add("race " + race + ": " + left.trim());
                }
                pusher.call("DEL", "src", "dst");
            }

            assertEquals(List.of(), lost, "elements served to a reset client");
        }
    }

    @ParameterizedTest(name = "io-threads {0}")
    @ValueSource(ints = {1, 2})
    void aLiveWaiterBehindAResetOneShouldGetTheElement(int ioThreads) throws Exception {
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nio-threads " + ioThreads + "\n"));
                RespTestSocket pusher = new RespTestSocket("127.0.0.1", server.port());
                RespTestSocket live = new RespTestSocket("127.0.0.1", server.port())) {
            for (int race = 0; race < RACES; race++) {
                Socket dead = blockedWaiter(server, pusher, "blpop");
                live.send("BLPOP", "src", "0");
                awaitBlocked(pusher, 2);

                dead.close();
                push(pusher, "blpop", "e" + race);

                assertEquals("*2\r\n$3\r\nsrc\r\n$" + ("e" + race).length() + "\r\ne" + race + "\r\n", live.reply());
                awaitBlocked(pusher, 0);
                assertEquals(":0\r\n", pusher.call("LLEN", "src"));
            }
        }
    }

    /** A connection that will reset when closed, blocked in {@code command} on key "src". */
    private static Socket blockedWaiter(EbbServer server, RespTestSocket observer, String command) throws Exception {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoLinger(true, 0);
        String[] argv;
        switch (command) {
            case "blpop":
                argv = new String[] {"BLPOP", "src", "0"};
                break;
            case "blmove":
                argv = new String[] {"BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"};
                break;
            default:
                argv = new String[] {"BZPOPMIN", "src", "0"};
                break;
        }
        OutputStream out = s.getOutputStream();
        out.write(multibulk(argv));
        out.flush();
        awaitBlocked(observer, 1);
        return s;
    }

    private static void push(RespTestSocket pusher, String command, String element) throws IOException {
        String reply = command.equals("bzpopmin") ? pusher.call("ZADD", "src", "1", element)
                : pusher.call("LPUSH", "src", element);
        assertEquals(":1\r\n", reply);
    }

    /** Polls INFO until it reports {@code n} blocked clients, for at most 10 s. */
    private static void awaitBlocked(RespTestSocket observer, int n) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        String info = "";
        while (System.currentTimeMillis() < deadline) {
            info = observer.call("INFO", "clients");
            if (info.contains("\r\nblocked_clients:" + n + "\r\n")) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("expected blocked_clients:" + n + " but INFO said " + info);
    }

    private static byte[] multibulk(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
