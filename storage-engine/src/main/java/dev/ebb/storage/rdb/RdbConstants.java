package dev.ebb.storage.rdb;

/**
 * The numbers of Redis's RDB format (rdb.h), version 11 as Redis 7.2 writes it plus the hash types
 * of version 12 (Redis 7.4) for hashes with field TTLs: value type bytes, opcodes, length and string
 * encodings. Shared by the file reader and writer, DUMP payloads and
 * the AOF base file. Constants only; thread-safe.
 */
public final class RdbConstants {
    /** The version Ebb writes when no hash has field TTLs (Redis 7.2). */
    public static final int VERSION = 11;
    /** The version Ebb writes when a hash has field TTLs (Redis 7.4); the newest it reads. */
    public static final int VERSION_FIELD_TTLS = 12;
    /** The oldest version the reader accepts (Redis reads from 1). */
    public static final int MIN_VERSION = 1;

    public static final int TYPE_STRING = 0;
    public static final int TYPE_LIST = 1;
    public static final int TYPE_SET = 2;
    public static final int TYPE_ZSET = 3;
    public static final int TYPE_HASH = 4;
    public static final int TYPE_ZSET_2 = 5;
    public static final int TYPE_MODULE_PRE_GA = 6;
    public static final int TYPE_MODULE_2 = 7;
    public static final int TYPE_HASH_ZIPMAP = 9;
    public static final int TYPE_LIST_ZIPLIST = 10;
    public static final int TYPE_SET_INTSET = 11;
    public static final int TYPE_ZSET_ZIPLIST = 12;
    public static final int TYPE_HASH_ZIPLIST = 13;
    public static final int TYPE_LIST_QUICKLIST = 14;
    public static final int TYPE_STREAM_LISTPACKS = 15;
    public static final int TYPE_HASH_LISTPACK = 16;
    public static final int TYPE_ZSET_LISTPACK = 17;
    public static final int TYPE_LIST_QUICKLIST_2 = 18;
    public static final int TYPE_STREAM_LISTPACKS_2 = 19;
    public static final int TYPE_SET_LISTPACK = 20;
    public static final int TYPE_STREAM_LISTPACKS_3 = 21;
    /** Hashtable hash with field TTLs: min expiry (ms), count, then (ttl, field, value) per field. */
    public static final int TYPE_HASH_METADATA = 24;
    /** Listpack hash with field TTLs: min expiry (ms), then a listpack of field, value, ttl triplets. */
    public static final int TYPE_HASH_LISTPACK_EX = 25;

    /** Function library code (Redis 7.0 GA). */
    public static final int OPCODE_FUNCTION2 = 245;
    public static final int OPCODE_FUNCTION_PRE_GA = 246;
    public static final int OPCODE_MODULE_AUX = 247;
    /** LRU idle time in seconds, as a length, before the key it belongs to. */
    public static final int OPCODE_IDLE = 248;
    /** LFU counter, one byte, before the key it belongs to. */
    public static final int OPCODE_FREQ = 249;
    public static final int OPCODE_AUX = 250;
    public static final int OPCODE_RESIZEDB = 251;
    public static final int OPCODE_EXPIRETIME_MS = 252;
    public static final int OPCODE_EXPIRETIME = 253;
    public static final int OPCODE_SELECTDB = 254;
    public static final int OPCODE_EOF = 255;

    /** Quicklist node containers in TYPE_LIST_QUICKLIST_2. */
    static final int QUICKLIST_NODE_PLAIN = 1;
    static final int QUICKLIST_NODE_PACKED = 2;

    /** First two bits of a length byte: 6-bit, 14-bit, 32/64-bit, or a special string encoding. */
    static final int LEN_6BIT = 0;
    static final int LEN_14BIT = 1;
    static final int LEN_32BIT = 0x80;
    static final int LEN_64BIT = 0x81;
    static final int ENCVAL = 3;
    static final int ENC_INT8 = 0;
    static final int ENC_INT16 = 1;
    static final int ENC_INT32 = 2;
    static final int ENC_LZF = 3;

    /** A field's TTL written as 0 means none (both field-TTL hash types). */
    static final long FIELD_NO_TTL = 0;

    private RdbConstants() {
    }

    /** Whether {@code type} is a value type byte this version of the format defines. */
    public static boolean isValueType(int type) {
        return (type >= TYPE_STRING && type <= TYPE_ZSET_2) || type == TYPE_MODULE_2
                || (type >= TYPE_HASH_ZIPMAP && type <= TYPE_STREAM_LISTPACKS_3)
                || type == TYPE_HASH_METADATA || type == TYPE_HASH_LISTPACK_EX;
    }
}
