package dev.ebb.server.command;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.SafeEncoder;

/** Helpers of the sorted set command tests: raw commands and a compact text form of replies. */
final class ZSetTestSupport {
    private ZSetTestSupport() {
    }

    /** Sends {@code args} (name first) through Jedis and returns the raw reply. */
    static Object cmd(Jedis j, String... args) {
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        return j.sendCommand(() -> SafeEncoder.encode(args[0]), rest);
    }

    /**
     * A reply as text: bulk strings as themselves, integers as {@code :n}, nil as {@code nil},
     * arrays as {@code [a, b]}; so a whole reply is checked with one assertion.
     */
    static String text(Object reply) {
        if (reply == null) {
            return "nil";
        }
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof Long n) {
            return ":" + n;
        }
        if (reply instanceof List<?> list) {
            return list.stream().map(ZSetTestSupport::text).collect(Collectors.joining(", ", "[", "]"));
        }
        return String.valueOf(reply);
    }

    /** {@link #cmd} then {@link #text}. */
    static String run(Jedis j, String... args) {
        return text(cmd(j, args));
    }
}
