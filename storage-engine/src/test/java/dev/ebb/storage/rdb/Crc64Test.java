package dev.ebb.storage.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Crc64Test {

    @Test
    void checkValueShouldMatchRedisCrc64Test() {
        byte[] input = "123456789".getBytes(StandardCharsets.US_ASCII);

        assertEquals(0xe9c6d914c4b8d9caL, Crc64.of(input));
    }

    @Test
    void dumpPayloadChecksumShouldMatchOneWrittenByRedis() {
        // redis-server 7.2.4: SET k "This is a test of the emergency broadcast system." then DUMP k
        // gives type 0, length 49, the text, RDB version 11 (0b 00) and this CRC-64, little-endian.
        byte[] text = "This is a test of the emergency broadcast system.".getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[2 + text.length + 2];
        body[0] = 0x00;
        body[1] = (byte) text.length;
        System.arraycopy(text, 0, body, 2, text.length);
        body[body.length - 2] = 0x0b;
        body[body.length - 1] = 0x00;

        assertEquals(0xb74029bd68b358e2L, Crc64.of(body));
    }

    @Test
    void slicedPathShouldAgreeWithBytewiseUpdatesAtEveryLengthAndSplit() {
        Random random = new Random(42);
        byte[] data = new byte[300];
        random.nextBytes(data);

        for (int len = 0; len <= data.length; len += 7) {
            long bytewise = 0;
            for (int i = 0; i < len; i++) {
                bytewise = Crc64.update(bytewise, data, i, 1);
            }
            int split = len / 3;
            long twoParts = Crc64.update(Crc64.update(0, data, 0, split), data, split, len - split);

            assertEquals(bytewise, Crc64.update(0, data, 0, len), "len=" + len);
            assertEquals(bytewise, twoParts, "len=" + len);
        }
    }
}
