package dev.ebb.storage.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExpiryWarmUpTest {
    @Test
    void eachRoundShouldExpireEveryKeyAndFieldItMade() {
        long perRound = ExpiryWarmUp.KEYS + (long) ExpiryWarmUp.HASHES * ExpiryWarmUp.FIELDS
                + ExpiryWarmUp.LARGE_FIELDS;

        assertEquals(2 * perRound, ExpiryWarmUp.run(2));
    }
}
