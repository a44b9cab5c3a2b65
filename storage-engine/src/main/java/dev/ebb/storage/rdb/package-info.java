/**
 * Redis's RDB format, version 11 (Redis 7.2), byte-compatible in both directions: pure values to
 * bytes and back over streams, no files, sockets or threads.
 *
 * <h2>API</h2>
 * <ul>
 *   <li>{@link dev.ebb.storage.rdb.RdbWriter}: {@code header(aux)}, {@code selectDb(db, size, expires)},
 *       {@code entry(key, value, expireAtMs, lruIdleSeconds, lfuFreq)}, {@code function(code)},
 *       {@code finish()}; options {@link dev.ebb.storage.rdb.RdbOptions} ({@code rdbcompression},
 *       {@code rdbchecksum}). Used by SAVE/BGSAVE, the AOF base file and full sync.</li>
 *   <li>{@link dev.ebb.storage.rdb.RdbReader#read}: streams a file of version 1 to 11 to an
 *       {@link dev.ebb.storage.rdb.RdbVisitor}; values come out in the encodings the caller's
 *       {@link dev.ebb.storage.rdb.RdbLimits} give them. Refuses truncated or corrupt input with an
 *       {@link dev.ebb.storage.rdb.RdbException} carrying Redis's text; callers load into fresh
 *       databases and swap on success.</li>
 *   <li>{@link dev.ebb.storage.rdb.DumpPayload}: DUMP / RESTORE payloads (value, RDB version,
 *       CRC-64).</li>
 * </ul>
 *
 * <h2>Inside</h2>
 * {@code RdbOutput}/{@code RdbInput} hold the primitives (lengths, the four string encodings,
 * CRC-64 as bytes pass); {@code ValueWriter}/{@code ValueReader} map Ebb's value classes to type
 * bytes; {@code ListpackWriter}/{@code ListpackReader}, {@code Intset} and {@code ZiplistReader} are
 * the embedded blob formats; {@code Lzf} wraps the {@code com.ning:compress-lzf} raw chunk codec
 * (the storage engine's one dependency besides Agrona).
 *
 * <h2>Not covered yet</h2>
 * Streams (RDB_TYPE_STREAM_LISTPACKS*: the switch points are {@code ValueWriter.typeOf},
 * {@code ValueReader.read} and the type check in {@code RdbReader}), modules, the zipmap hash
 * encoding of Redis 2.x files (type 9), and plain quicklist nodes for list elements of 1 GB or more
 * on the write side (read side supported).
 */
package dev.ebb.storage.rdb;
