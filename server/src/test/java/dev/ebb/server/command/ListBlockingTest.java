package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.Client;
import dev.ebb.server.embedded.EbbExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.util.KeyValue;

/**
 * BLPOP, BRPOP, BLMOVE, BRPOPLPUSH and BLMPOP: wake-up on push from another client, FIFO among
 * waiters, the job-queue pattern, disconnects, held input, and the no-block mode used inside
 * MULTI. Timeouts are driven by the manual clock ({@link ListBlockingTimeoutTest}) except where a
 * short real timeout is the subject.
 */
class ListBlockingTest {
    private static final long WAIT_LIMIT_MS = 10_000;
    private static final ExecutorService POOL = Executors.newCachedThreadPool();

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    /** Waits (bounded) until INFO reports {@code n} blocked clients. */
    static void awaitBlocked(EbbExtension server, int n) throws InterruptedException {
        try (Jedis info = new Jedis(server.host(), server.port())) {
            long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
            String line = "";
            while (System.currentTimeMillis() < deadline) {
                line = info.info("clients").lines().filter(l -> l.startsWith("blocked_clients:")).findFirst()
                        .orElse("");
                if (line.equals("blocked_clients:" + n)) {
                    return;
                }
                Thread.sleep(5);
            }
            throw new AssertionError("expected blocked_clients:" + n + " but INFO said " + line);
        }
    }

    @Test
    void blpopShouldAnswerAtOnceWhenAListHasElements() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("b", "1", "2");

            assertEquals(new KeyValue<>("b", "1"), j.blpop(0.0, "a", "b"));
            assertEquals(new KeyValue<>("b", "2"), j.brpop(0.0, "a", "b"));
            assertFalse(j.exists("b"));
        }
    }

    @Test
    void blpopShouldWakeWhenAnotherClientPushes() throws Exception {
        try (Jedis waiter = new Jedis(ebb.host(), ebb.port()); Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            Future<KeyValue<String, String>> result = POOL.submit(() -> waiter.blpop(0.0, "a", "q"));
            awaitBlocked(ebb, 1);

            assertEquals(2, producer.rpush("q", "job1", "job2"));

            assertEquals(new KeyValue<>("q", "job1"), result.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(List.of("job2"), producer.lrange("q", 0, -1));
            awaitBlocked(ebb, 0);
        }
    }

    @Test
    void waitersShouldBeServedInTheOrderTheyBlocked() throws Exception {
        List<Jedis> clients = new ArrayList<>();
        List<Future<KeyValue<String, String>>> results = new ArrayList<>();
        try (Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < 3; i++) {
                Jedis c = new Jedis(ebb.host(), ebb.port());
                clients.add(c);
                results.add(POOL.submit(() -> c.brpop(0.0, "q")));
                awaitBlocked(ebb, i + 1);
            }

            producer.lpush("q", "first", "second", "third");

            assertEquals("first", results.get(0).get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS).getValue());
            assertEquals("second", results.get(1).get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS).getValue());
            assertEquals("third", results.get(2).get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS).getValue());
        } finally {
            clients.forEach(Jedis::close);
        }
    }

    /**
     * The job-queue pattern: workers loop on BLPOP, a producer pushes N jobs one by one. Every job
     * arrives exactly once, each worker sees its jobs in push order, and every worker gets work.
     */
    @Test
    void queueWorkersShouldEachGetJobsExactlyOnceInOrder() throws Exception {
        int workers = 4;
        int jobs = 2000;
        List<List<Integer>> received = new ArrayList<>();
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            List<Integer> mine = Collections.synchronizedList(new ArrayList<>());
            received.add(mine);
            running.add(POOL.submit(() -> {
                try (Jedis worker = new Jedis(ebb.host(), ebb.port())) {
                    while (true) {
                        String job = worker.blpop(0.0, "queue").getValue();
                        if (job.equals("stop")) {
                            return null;
                        }
                        mine.add(Integer.parseInt(job));
                    }
                }
            }));
        }
        awaitBlocked(ebb, workers);
        try (Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < jobs; i++) {
                producer.rpush("queue", String.valueOf(i));
            }
            for (int w = 0; w < workers; w++) {
                producer.rpush("queue", "stop");
            }
        }
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }

        List<Integer> all = new ArrayList<>();
        for (List<Integer> mine : received) {
            for (int i = 1; i < mine.size(); i++) {
                assertTrue(mine.get(i - 1) < mine.get(i), "a worker got jobs out of order");
            }
            assertTrue(mine.size() >= jobs / workers / 10, "a worker starved: " + mine.size() + " jobs");
            all.addAll(mine);
        }
        Collections.sort(all);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            expected.add(i);
        }
        assertEquals(expected, all);
    }

    @Test
    void blmoveShouldMoveThePushedElementAndWakeTheNextWaiter() throws Exception {
        try (Jedis mover = new Jedis(ebb.host(), ebb.port()); Jedis reader = new Jedis(ebb.host(), ebb.port());
                Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            Future<String> moved = POOL.submit(() -> mover.blmove("src", "dst", ListDirection.RIGHT,
                    ListDirection.LEFT, 0));
            awaitBlocked(ebb, 1);
            Future<KeyValue<String, String>> read = POOL.submit(() -> reader.blpop(0.0, "dst"));
            awaitBlocked(ebb, 2);

            producer.rpush("src", "a", "b");

            assertEquals("b", moved.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(new KeyValue<>("dst", "b"), read.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(List.of("a"), producer.lrange("src", 0, -1));
            assertFalse(producer.exists("dst"));
        }
    }

    @Test
    void brpoplpushAndBlmpopShouldWakeOnPush() throws Exception {
        try (Jedis a = new Jedis(ebb.host(), ebb.port()); Jedis b = new Jedis(ebb.host(), ebb.port());
                Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            Future<String> moved = POOL.submit(() -> a.brpoplpush("s1", "d1", 0));
            awaitBlocked(ebb, 1);
            Future<KeyValue<String, List<String>>> popped =
                    POOL.submit(() -> b.blmpop(0, ListDirection.LEFT, 2, "x", "y"));
            awaitBlocked(ebb, 2);

            producer.rpush("s1", "m");
            producer.rpush("y", "1", "2", "3");

            assertEquals("m", moved.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(new KeyValue<>("y", List.of("1", "2")), popped.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(List.of("m"), producer.lrange("d1", 0, -1));
        }
    }

    @Test
    void renameOntoAWaitedKeyShouldWakeTheWaiter() throws Exception {
        try (Jedis waiter = new Jedis(ebb.host(), ebb.port()); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.rpush("staging", "ready");
            Future<KeyValue<String, String>> result = POOL.submit(() -> waiter.blpop(0.0, "q"));
            awaitBlocked(ebb, 1);

            other.rename("staging", "q");

            assertEquals(new KeyValue<>("q", "ready"), result.get(WAIT_LIMIT_MS, TimeUnit.MILLISECONDS));
            assertFalse(other.exists("q"));
        }
    }

    @Test
    void clientDisconnectingWhileBlockedShouldLeaveNoTrace() throws Exception {
        try (Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            try (Socket socket = new Socket(ebb.host(), ebb.port())) {
                socket.getOutputStream().write("BLPOP q 0\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                awaitBlocked(ebb, 1);
            }
            awaitBlocked(ebb, 0);

            producer.rpush("q", "kept");

            assertEquals(List.of("kept"), producer.lrange("q", 0, -1));
        }
    }

    @Test
    void commandsSentWhileBlockedShouldRunAfterTheBlockedOne() throws Exception {
        try (Socket socket = new Socket(ebb.host(), ebb.port()); Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("BLPOP q 0\r\nLLEN q\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitBlocked(ebb, 1);

            producer.rpush("q", "v", "w");

            String expected = "*2\r\n$1\r\nq\r\n$1\r\nv\r\n:1\r\n";
            assertEquals(expected, readExactly(socket.getInputStream(), expected.length()));
        }
    }

    @Test
    void timeoutArgumentsShouldBeCheckedAsRedis() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertError("ERR timeout is negative", () -> ListCommandsTest.send(j, "blpop", "l", "-1"));
            assertError("ERR timeout is not a float or out of range", () -> ListCommandsTest.send(j, "blpop", "l", "x"));
            assertError("ERR timeout is negative", () -> ListCommandsTest.send(j, "blmpop", "-1", "1", "l", "left"));
            assertError("ERR numkeys should be greater than 0",
                    () -> ListCommandsTest.send(j, "blmpop", "0", "0", "l", "left"));
            assertError("ERR numkeys should be greater than 0",
                    () -> ListCommandsTest.send(j, "blmpop", "x", "0", "l", "left"));
            assertError("ERR syntax error", () -> ListCommandsTest.send(j, "blmpop", "x", "1", "l", "up"));
            assertError("ERR syntax error", () -> ListCommandsTest.send(j, "blmove", "a", "b", "up", "left", "0"));
            assertError("ERR timeout is out of range", () -> ListCommandsTest.send(j, "brpop", "l", "inf"));
        }
    }

    @Test
    void shortRealTimeoutShouldAnswerNil() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertNull(j.blpop(0.05, "none"));
            assertNull(j.blmove("none", "d", ListDirection.LEFT, ListDirection.LEFT, 0.05));
        }
    }

    @Test
    void clientThatMayNotBlockShouldGetTheTimeoutReplyAtOnce() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.clientSetname("in-multi");
            ebb.server().runOnLoop(s -> {
                for (Client c : s.clients()) {
                    if (c.name() != null && new String(c.name(), StandardCharsets.UTF_8).equals("in-multi")) {
                        c.denyBlocking(true);
                    }
                }
            });

            assertNull(j.blpop(0.0, "none"));
            assertNull(j.blmove("none", "d", ListDirection.LEFT, ListDirection.LEFT, 0));
            assertNull(j.blmpop(0, ListDirection.LEFT, "none"));
            j.rpush("l", "x");
            assertEquals(new KeyValue<>("l", "x"), j.blpop(0.0, "l"));
        }
    }

    private static String readExactly(InputStream in, int n) throws Exception {
        byte[] buf = new byte[n];
        int read = 0;
        while (read < n) {
            int r = in.read(buf, read, n - read);
            if (r < 0) {
                break;
            }
            read += r;
        }
        return new String(buf, 0, read, StandardCharsets.US_ASCII);
    }
}
