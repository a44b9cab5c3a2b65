package dev.ebb.storage;

/** Keys rendered for exception messages. Stateless. */
final class KeyText {
    private static final int PRINTABLE_KEY_LIMIT = 64;

    private KeyText() {
    }

    /** Up to 64 bytes of {@code key} for messages, non-printable bytes as {@code \xNN}. */
    static String printable(byte[] key) {
        StringBuilder sb = new StringBuilder(Math.min(key.length, PRINTABLE_KEY_LIMIT) + 8);
        int n = Math.min(key.length, PRINTABLE_KEY_LIMIT);
        for (int i = 0; i < n; i++) {
            int b = key[i] & 0xff;
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        if (key.length > n) {
            sb.append("...(").append(key.length).append(" bytes)");
        }
        return sb.toString();
    }
}
