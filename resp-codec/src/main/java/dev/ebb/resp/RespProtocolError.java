package dev.ebb.resp;

/**
 * The last thing a {@link RespDecoder} emits on a connection whose input broke the protocol; after it
 * the decoder discards all input, and the server should reply (when {@code reply}) and close.
 *
 * @param message the full error line without the leading {@code '-'} and the CRLF, for example
 *                {@code "ERR Protocol error: invalid bulk length"}; when {@code reply} is false it is
 *                a description for the log, not a reply
 * @param reply   true when Redis answers with {@code message} before closing; false when it closes
 *                silently (the client reached {@code client-query-buffer-limit})
 */
public record RespProtocolError(String message, boolean reply) {
}
