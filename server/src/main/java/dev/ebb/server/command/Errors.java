package dev.ebb.server.command;

import dev.ebb.resp.RespWriter;

/**
 * Redis's error replies, byte for byte as Redis 7 sends them (without the leading '-' and CRLF).
 * Texts that take a value are built by the static methods here, so every command words them the
 * same way.
 */
public final class Errors {
    public static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    public static final String SYNTAX = "ERR syntax error";
    public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    public static final String NOT_FLOAT = "ERR value is not a valid float";
    public static final String NO_SUCH_KEY = "ERR no such key";
    public static final String INDEX_OUT_OF_RANGE = "ERR index out of range";
    public static final String DB_INDEX_OUT_OF_RANGE = "ERR DB index is out of range";
    public static final String INCR_OVERFLOW = "ERR increment or decrement would overflow";
    public static final String INCR_NAN_OR_INF = "ERR increment would produce NaN or Infinity";
    public static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
    public static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
    public static final String BIT_OFFSET = "ERR bit offset is not an integer or out of range";
    public static final String BIT_VALUE = "ERR bit is not an integer or out of range";
    public static final String BIT_ARGUMENT = "ERR The bit argument must be 1 or 0.";
    public static final String BITOP_NOT_SINGLE_KEY = "ERR BITOP NOT must be called with a single source key.";
    public static final String BITFIELD_TYPE =
            "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";
    public static final String BITFIELD_OVERFLOW_TYPE = "ERR Invalid OVERFLOW type specified";
    public static final String BITFIELD_RO_GET_ONLY = "ERR BITFIELD_RO only supports the GET subcommand";
    public static final String SORT_NOT_DOUBLE = "ERR One or more scores can't be converted into double";
    public static final String SORT_BY_IN_CLUSTER = "ERR BY option of SORT denied in Cluster mode.";
    public static final String SORT_GET_IN_CLUSTER = "ERR GET option of SORT denied in Cluster mode.";
    public static final String DECREMENT_OVERFLOW = "ERR decrement would overflow";
    public static final String LCS_NOT_STRINGS = "ERR The specified keys must contain string values";
    public static final String LCS_LEN_AND_IDX = "ERR If you want both the length and indexes, please just use IDX.";
    public static final String LCS_TOO_MUCH_MEMORY =
            "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
    public static final String SAME_OBJECT = "ERR source and destination objects are the same";
    public static final String INVALID_EXPIRE_TIME = "ERR invalid expire time in '%s' command";
    // Hash field expiry (Redis 7.4: HEXPIRE, HTTL, HPERSIST …; Redis 8.0: HGETEX, HSETEX, HGETDEL).
    public static final String HFE_FIELDS_MISSING = "ERR Mandatory argument FIELDS is missing or not at the right position";
    public static final String HFE_NUMFIELDS_NOT_POSITIVE = "ERR Parameter `numFields` should be greater than 0";
    public static final String HFE_FIELDS_NOT_POSITIVE = "ERR Number of fields must be a positive integer";
    public static final String HFE_NUMFIELDS_MISMATCH = "ERR The `numfields` parameter must match the number of arguments";
    public static final String HFE_NEGATIVE_TIME = "ERR invalid expire time, must be >= 0";
    public static final String HFE_INVALID_FIELD_COUNT = "ERR invalid number of fields";
    public static final String HGETEX_ONE_EXPIRY = "ERR Only one of EX, PX, EXAT, PXAT or PERSIST arguments can be specified";
    public static final String HSETEX_ONE_EXPIRY = "ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified";
    public static final String HSETEX_ONE_CONDITION = "ERR Only one of FXX or FNX arguments can be specified";
    public static final String PROTOCOL_VERSION = "NOPROTO unsupported protocol version";
    public static final String NOAUTH = "NOAUTH Authentication required.";
    public static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    public static final String AOF_REWRITE_FAILED =
            "ERR Can't execute an AOF background rewriting. Please check the server logs for more information.";
    /** Redis's shared.bgsaveerr: writes refused after a failed background save. */
    public static final String MISCONF = "MISCONF Redis is configured to save RDB snapshots, but it's currently unable "
            + "to persist to disk. Commands that may modify the data set are disabled, because this instance is "
            + "configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). "
            + "Please check the Redis logs for details about the RDB error.";
    public static final String LOADING = "LOADING Redis is loading the dataset in memory";
    /** Redis's shared.roslaveerr: a write on a read-only replica. */
    public static final String READONLY_REPLICA = "READONLY You can't write against a read only replica.";
    /** Redis's shared.masterdownerr: the link is down under replica-serve-stale-data no. */
    public static final String MASTERDOWN =
            "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";
    public static final String INVALID_MASTER_PORT = "ERR Invalid master port";
    public static final String REPLICAOF_IN_CLUSTER = "ERR REPLICAOF not allowed in cluster mode.";
    public static final String UNBLOCKED_ROLE_CHANGE =
            "UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)";
    public static final String REPLICAOF_FAILING_OVER = "ERR REPLICAOF not allowed while failing over.";
    public static final String FAILOVER_IN_CLUSTER =
            "ERR FAILOVER not allowed in cluster mode. Use CLUSTER FAILOVER command instead.";
    public static final String FAILOVER_NOT_IN_PROGRESS = "ERR No failover in progress.";
    public static final String FAILOVER_TIMEOUT = "ERR FAILOVER timeout must be greater than 0";
    public static final String FAILOVER_IN_PROGRESS = "ERR FAILOVER already in progress.";
    public static final String FAILOVER_ON_REPLICA = "ERR FAILOVER is not valid when server is a replica.";
    public static final String FAILOVER_NO_REPLICAS = "ERR FAILOVER requires connected replicas.";
    public static final String FAILOVER_FORCE =
            "ERR FAILOVER with force option requires both a timeout and target HOST and IP.";
    public static final String FAILOVER_NOT_REPLICA = "ERR FAILOVER target HOST and PORT is not a replica.";
    public static final String FAILOVER_NOT_ONLINE = "ERR FAILOVER target replica is not online.";
    public static final String PSYNC_FAILOVER_ON_MASTER = "ERR PSYNC FAILOVER can't be sent to a master.";
    public static final String PSYNC_FAILOVER_REPLID = "ERR PSYNC FAILOVER replid must match my replid.";
    public static final String SYNC_WHILE_FAILING_OVER = "NOMASTERLINK Can't SYNC while failing over";
    public static final String BGSAVE_IN_PROGRESS = "ERR Background save already in progress";
    public static final String AOF_REWRITE_IN_PROGRESS = "ERR Background append only file rewriting already in progress";
    public static final String BGSAVE_CHILD_ACTIVE = "ERR Another child process is active (AOF?): can't BGSAVE right now."
            + " Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible.";
    public static final String MULTI_NESTED = "ERR MULTI calls can not be nested";
    public static final String INT_OUT_OF_RANGE =
            "ERR value is out of range, value must between -2147483648 and 2147483647";
    public static final String INVALID_CURSOR = "ERR invalid cursor";
    public static final String EXPIRE_NX_INCOMPATIBLE =
            "ERR NX and XX, GT or LT options at the same time are not compatible";
    public static final String EXPIRE_GT_LT_INCOMPATIBLE = "ERR GT and LT options at the same time are not compatible";
    public static final String TIMEOUT_NOT_INTEGER = "ERR timeout is not an integer or out of range";
    public static final String TIMEOUT_NEGATIVE = "ERR timeout is negative";
    public static final String NOREPLICAS = "NOREPLICAS Not enough good replicas to write.";
    public static final String WAIT_ON_REPLICA = "ERR WAIT cannot be used with replica instances. Please also note"
            + " that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to"
            + " replicas are just local and are not propagated.";
    public static final String RDB_ONLY_RANGE = "ERR value is out of range, value must between 0 and 1";
    public static final String LFU_NOT_SELECTED = "ERR An LFU maxmemory policy is not selected, access frequency not"
            + " tracked. Please note that when switching between policies at runtime LRU and LFU data will take some"
            + " time to adjust.";
    public static final String LFU_SELECTED = "ERR An LFU maxmemory policy is selected, idle time not tracked."
            + " Please note that when switching between policies at runtime LRU and LFU data will take some time"
            + " to adjust.";

    // Connection, CLIENT, COMMAND, SHUTDOWN (connection/client/server families).
    public static final String PROTOCOL_NOT_INTEGER = "ERR Protocol version is not an integer or out of range";
    public static final String HELLO_NOAUTH = "NOAUTH HELLO must be called with the client already authenticated,"
            + " otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and"
            + " select the RESP protocol version at the same time";
    public static final String AUTH_WITHOUT_PASSWORD = "ERR AUTH <password> called without any password configured"
            + " for the default user. Are you sure your configuration is correct?";
    public static final String CLIENT_NAME_CHARACTERS =
            "ERR Client names cannot contain spaces, newlines or special characters.";
    public static final String NO_SUCH_CLIENT = "ERR No such client";
    public static final String CLIENT_ID_NOT_POSITIVE = "ERR client-id should be greater than 0";
    public static final String CLIENT_UNBLOCK_REASON = "ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR";
    public static final String TRACKING_SINGLE_REDIRECT = "ERR A client can only redirect to a single other client";
    public static final String TRACKING_NO_REDIRECT_CLIENT = "ERR The client ID you want redirect to does not exist";
    public static final String TRACKING_PREFIX_NEEDS_BCAST = "ERR PREFIX option requires BCAST mode to be enabled";
    public static final String TRACKING_SWITCH_BCAST = "ERR You can't switch BCAST mode on/off before disabling"
            + " tracking for this client, and then re-enabling it with a different mode.";
    public static final String TRACKING_OPTIN_OPTOUT_BCAST = "ERR OPTIN and OPTOUT are not compatible with BCAST";
    public static final String TRACKING_OPTIN_AND_OPTOUT = "ERR You can't specify both OPTIN mode and OPTOUT mode";
    public static final String TRACKING_SWITCH_OPTIN_OPTOUT = "ERR You can't switch OPTIN/OPTOUT mode before"
            + " disabling tracking for this client, and then re-enabling it with a different mode.";
    public static final String CACHING_NOT_TRACKING = "ERR CLIENT CACHING can be called only when the client is in"
            + " tracking mode with OPTIN or OPTOUT mode enabled";
    public static final String CACHING_YES_NOT_OPTIN =
            "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.";
    public static final String CACHING_NO_NOT_OPTOUT =
            "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.";
    public static final String PAUSE_MODE = "ERR CLIENT PAUSE mode must be WRITE or ALL";

    /** CLIENT TRACKING ... PREFIX: {@code prefix} overlaps one the client already has. */
    public static String prefixOverlapsExisting(byte[] prefix, byte[] existing) {
        return "ERR Prefix '" + Arguments.text(prefix) + "' overlaps with an existing prefix '"
                + Arguments.text(existing) + "'. Prefixes for a single client must not overlap.";
    }

    /** CLIENT TRACKING ... PREFIX: two prefixes of the same command overlap. */
    public static String prefixOverlapsProvided(byte[] prefix, byte[] other) {
        return "ERR Prefix '" + Arguments.text(prefix) + "' overlaps with another provided prefix '"
                + Arguments.text(other) + "'. Prefixes for a single client must not overlap.";
    }
    /** The error a client blocked in BLPOP and friends receives from CLIENT UNBLOCK id ERROR. */
    public static final String UNBLOCKED = "UNBLOCKED client unblocked via CLIENT UNBLOCK";
    public static final String INVALID_CLIENT_ID = "ERR Invalid client ID";
    public static final String INVALID_COMMAND_SPECIFIED = "ERR Invalid command specified";
    public static final String COMMAND_HAS_NO_KEYS = "ERR The command has no key arguments";
    public static final String INVALID_NUMBER_OF_ARGUMENTS = "ERR Invalid number of arguments specified for command";
    public static final String INVALID_ARGUMENTS_FOR_COMMAND = "ERR Invalid arguments specified for command";
    public static final String NO_SHUTDOWN_IN_PROGRESS = "ERR No shutdown in progress.";
    public static final String SHUTDOWN_FAILED = "ERR Errors trying to SHUTDOWN. Check logs.";
    public static final String DEBUG_NOT_ALLOWED = "ERR DEBUG command not allowed. If the enable-debug-command option"
            + " is set to \"local\", you can run it from a local connection, otherwise you need to set this option"
            + " in the configuration file, and then restart the server.";

    // Transactions and cluster (TransactionCommands, ClusterCommands).
    public static final String EXEC_WITHOUT_MULTI = "ERR EXEC without MULTI";
    public static final String DISCARD_WITHOUT_MULTI = "ERR DISCARD without MULTI";
    public static final String WATCH_INSIDE_MULTI = "ERR WATCH inside MULTI is not allowed";
    public static final String NOT_ALLOWED_IN_MULTI = "ERR Command not allowed inside a transaction";
    public static final String EXECABORT = "EXECABORT Transaction discarded because of previous errors.";
    /** Prefix of a refused EXEC's error; the refusal's text follows without its "ERR ". */
    public static final String EXECABORT_BECAUSE = "EXECABORT Transaction discarded because of: ";
    public static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";
    public static final String CLUSTER_DOWN = "CLUSTERDOWN The cluster is down";
    public static final String CLUSTER_DOWN_READONLY = "CLUSTERDOWN The cluster is down and only accepts read commands";
    public static final String CLUSTER_DOWN_UNBOUND = "CLUSTERDOWN Hash slot not served";
    public static final String TRYAGAIN = "TRYAGAIN Multiple keys request during rehashing of slot";
    public static final String INVALID_OR_OUT_OF_RANGE_SLOT = "ERR Invalid or out of range slot";
    public static final String CLUSTER_CANT_FORGET_MYSELF = "ERR I tried hard but I can't forget myself...";
    public static final String CLUSTER_FLUSHSLOTS_NOT_EMPTY = "ERR DB must be empty to perform CLUSTER FLUSHSLOTS.";
    public static final String CLUSTER_RESET_WITH_KEYS =
            "ERR CLUSTER RESET can't be called with master nodes containing keys";
    public static final String CLUSTER_CONFIG_EPOCH_OTHERS =
            "ERR The user can assign a config epoch only when the node does not know any other node.";
    public static final String CLUSTER_CONFIG_EPOCH_NONZERO = "ERR Node config epoch is already non-zero";
    public static final String CLUSTER_SETSLOT_SYNTAX =
            "ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP";
    public static final String CLUSTER_DISABLED = "ERR This instance has cluster support disabled";
    public static final String SELECT_IN_CLUSTER = "ERR SELECT is not allowed in cluster mode";
    public static final String SWAPDB_IN_CLUSTER = "ERR SWAPDB is not allowed in cluster mode";
    public static final String MOVE_IN_CLUSTER = "ERR MOVE is not allowed in cluster mode";
    public static final String COPY_DB_IN_CLUSTER = "ERR Copying to another database is not allowed in cluster mode";
    public static final String INVALID_SLOT = "ERR Invalid slot";
    public static final String INVALID_SLOT_OR_NUMBER_OF_KEYS = "ERR Invalid slot or number of keys";
    // Sorted sets (ZSetCommands and its sibling classes).
    public static final String ZADD_XX_NX = "ERR XX and NX options at the same time are not compatible";
    public static final String ZADD_GT_LT_NX = "ERR GT, LT, and/or NX options at the same time are not compatible";
    public static final String ZADD_INCR_PAIR = "ERR INCR option supports a single increment-element pair";
    public static final String ZSET_NAN = "ERR resulting score is not a number (NaN)";
    public static final String ZSET_MIN_MAX_NOT_FLOAT = "ERR min or max is not a float";
    public static final String ZSET_LEX_RANGE = "ERR min or max not valid string range item";
    public static final String ZSET_WEIGHT_NOT_FLOAT = "ERR weight value is not a float";
    public static final String ZRANGE_LIMIT_WITHOUT_BY =
            "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    public static final String ZRANGE_BYLEX_WITHSCORES =
            "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
    public static final String NOT_POSITIVE = "ERR value is out of range, must be positive";
    public static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    public static final String COUNT_NOT_POSITIVE = "ERR count should be greater than 0";
    public static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";
    public static final String OUT_OF_RANGE = "ERR value is out of range";
    public static final String COUNT_OUT_OF_RANGE =
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807";
    // Hashes, sets and lists (HashCommands, SetCommands, ListCommands, BlockingKeys).
    public static final String HASH_VALUE_NOT_INTEGER = "ERR hash value is not an integer";
    public static final String HASH_VALUE_NOT_FLOAT = "ERR hash value is not a float";
    public static final String NAN_OR_INFINITY = "ERR value is NaN or Infinity";
    public static final String NUMKEYS_TOO_LARGE = "ERR Number of keys can't be greater than number of args";
    public static final String TIMEOUT_NOT_FLOAT = "ERR timeout is not a float or out of range";
    public static final String TIMEOUT_OUT_OF_RANGE = "ERR timeout is out of range";
    public static final String LPOS_RANK_ZERO = "ERR RANK can't be zero: use 1 to start from the first match, 2 from"
            + " the second ... or use negative to start from the end of the list";
    public static final String LPOS_COUNT_NEGATIVE = "ERR COUNT can't be negative";
    public static final String LPOS_MAXLEN_NEGATIVE = "ERR MAXLEN can't be negative";

    // HyperLogLog (HyperLogLogCommands).
    public static final String HLL_INVALID = "INVALIDOBJ Corrupted HLL object detected";
    public static final String HLL_NOT_AN_HLL = "WRONGTYPE Key is not a valid HyperLogLog string value.";
    public static final String HLL_NO_SUCH_KEY = "ERR The specified key does not exist";
    public static final String HLL_NOT_SPARSE = "ERR HLL encoding is not sparse";

    // DUMP, RESTORE and MIGRATE (DumpCommands, MigrateCommand).
    public static final String BUSYKEY = "BUSYKEY Target key name already exists.";
    public static final String RESTORE_TTL_NEGATIVE = "ERR Invalid TTL value, must be >= 0";
    public static final String RESTORE_IDLETIME_NEGATIVE = "ERR Invalid IDLETIME value, must be >= 0";
    public static final String RESTORE_FREQ_RANGE = "ERR Invalid FREQ value, must be >= 0 and <= 255";
    public static final String DUMP_PAYLOAD_WRONG = "ERR DUMP payload version or checksum are wrong";
    public static final String BAD_DATA_FORMAT = "ERR Bad data format";
    public static final String MIGRATE_KEYS_NEEDS_EMPTY_KEY = "ERR When using MIGRATE KEYS option, the key argument"
            + " must be set to the empty string";
    public static final String MIGRATE_CONNECT = "IOERR error or timeout connecting to the client";
    public static final String MIGRATE_READING = "IOERR error or timeout reading to target instance";
    public static final String MIGRATE_WRITING = "IOERR error or timeout writing to target instance";

    // Streams (Stream*Commands).
    public static final String STREAM_INVALID_ID = "ERR Invalid stream ID specified as stream command argument";
    public static final String STREAM_ID_TOO_SMALL =
            "ERR The ID specified in XADD is equal or smaller than the target stream top item";
    public static final String STREAM_ID_ZERO = "ERR The ID specified in XADD must be greater than 0-0";
    public static final String STREAM_EXHAUSTED =
            "ERR The stream has exhausted the last possible ID, unable to add more items";
    public static final String STREAM_MAXLEN_AND_MINID =
            "ERR syntax error, MAXLEN and MINID options at the same time are not compatible";
    public static final String STREAM_MAXLEN_NEGATIVE = "ERR The MAXLEN argument must be >= 0.";
    public static final String STREAM_LIMIT_NEGATIVE = "ERR The LIMIT argument must be >= 0.";
    public static final String STREAM_LIMIT_WITHOUT_STRATEGY =
            "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy";
    public static final String STREAM_XTRIM_WITHOUT_STRATEGY =
            "ERR syntax error, XTRIM must be called with a trimming strategy";
    public static final String STREAM_LIMIT_WITHOUT_APPROX =
            "ERR syntax error, LIMIT cannot be used without the special ~ option";
    public static final String STREAM_INVALID_START = "ERR invalid start ID for the interval";
    public static final String STREAM_INVALID_END = "ERR invalid end ID for the interval";
    public static final String STREAM_GROUP_ONLY_XREADGROUP =
            "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.";
    public static final String STREAM_NOACK_ONLY_XREADGROUP =
            "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.";
    public static final String STREAM_MISSING_GROUP = "ERR Missing GROUP option for XREADGROUP";
    public static final String STREAM_DOLLAR_IN_XREADGROUP = "ERR The $ ID is meaningless in the context of"
            + " XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID"
            + " to get new messages. The $ ID would just return an empty result set.";
    public static final String STREAM_GT_IN_XREAD = "ERR The > ID can be specified only when calling XREADGROUP"
            + " using the GROUP <group> <consumer> option.";
    public static final String STREAM_KEY_REQUIRED = "ERR The XGROUP subcommand requires the key to exist. Note"
            + " that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.";
    public static final String STREAM_BUSYGROUP = "BUSYGROUP Consumer Group name already exists";
    public static final String STREAM_ENTRIESREAD = "ERR value for ENTRIESREAD must be positive or -1";
    public static final String STREAM_ENTRIES_ADDED_NEGATIVE = "ERR entries_added must be positive";
    public static final String STREAM_XSETID_BELOW_GIVEN_MAX_DELETED =
            "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id";
    public static final String STREAM_XSETID_BELOW_MAX_DELETED =
            "ERR The ID specified in XSETID is smaller than current max_deleted_entry_id";
    public static final String STREAM_XSETID_BELOW_TOP =
            "ERR The ID specified in XSETID is smaller than the target stream top item";
    public static final String STREAM_XSETID_ENTRIES_ADDED =
            "ERR The entries_added specified in XSETID is smaller than the target stream length";
    public static final String XCLAIM_MIN_IDLE = "ERR Invalid min-idle-time argument for XCLAIM";
    public static final String XCLAIM_IDLE = "ERR Invalid IDLE option argument for XCLAIM";
    public static final String XCLAIM_TIME = "ERR Invalid TIME option argument for XCLAIM";
    public static final String XCLAIM_RETRYCOUNT = "ERR Invalid RETRYCOUNT option argument for XCLAIM";
    public static final String XAUTOCLAIM_MIN_IDLE = "ERR Invalid min-idle-time argument for XAUTOCLAIM";
    public static final String XAUTOCLAIM_COUNT = "ERR COUNT must be > 0";

    /** {@code ERR Unbalanced 'xread' list of streams: ...}, with '$' for XREAD and '>' for XREADGROUP. */
    public static String streamUnbalanced(String command, char symbol) {
        return "ERR Unbalanced '" + command + "' list of streams: for each stream key an ID or '" + symbol
                + "' must be specified.";
    }

    /** XREADGROUP's {@code NOGROUP No such key 'k' or consumer group 'g' in XREADGROUP with GROUP option}. */
    public static String noGroupXreadgroup(byte[] key, byte[] group) {
        return "NOGROUP No such key '" + printable(key) + "' or consumer group '" + printable(group)
                + "' in XREADGROUP with GROUP option";
    }

    /** XPENDING/XCLAIM/XAUTOCLAIM's {@code NOGROUP No such key 'k' or consumer group 'g'}. */
    public static String noGroup(byte[] key, byte[] group) {
        return "NOGROUP No such key '" + printable(key) + "' or consumer group '" + printable(group) + "'";
    }

    /** XGROUP/XINFO's {@code NOGROUP No such consumer group 'g' for key name 'k'}. */
    public static String noGroupForKey(byte[] group, byte[] key) {
        return "NOGROUP No such consumer group '" + printable(group) + "' for key name '" + printable(key) + "'";
    }

    /** {@code ERR Unrecognized XCLAIM option 'foo'}. */
    public static String xclaimOption(byte[] option) {
        return "ERR Unrecognized XCLAIM option '" + printable(option) + "'";
    }

    /** {@code ERR XREAD command is not allowed with BLOCK option from scripts}. */
    public static String streamBlockInScript(byte[] command) {
        return "ERR " + printable(command) + " command is not allowed with BLOCK option from scripts";
    }

    private Errors() {
    }

    /** {@code ERR wrong number of arguments for 'get' command} (full name, e.g. {@code config|get}). */
    /** A MONITOR client (a replica to Redis) ran a command that reads or writes keys. */
    public static final String MONITOR_KEYSPACE = "ERR Replica can't interact with the keyspace";

    /** A RESP2 client in subscribed mode ran something other than the subscribe family, PING, QUIT or RESET. */
    public static String onlySubscribeAllowed(String fullName) {
        return "ERR Can't execute '" + fullName
                + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";
    }

    public static String wrongArity(String fullName) {
        return "ERR wrong number of arguments for '" + fullName + "' command";
    }

    /** {@code ERR invalid expire time in 'set' command}. */
    public static String invalidExpireTime(String commandName) {
        return String.format(INVALID_EXPIRE_TIME, commandName);
    }

    /**
     * Redis's unknown-command error: the name (at most 128 bytes) and the first arguments, each
     * quoted and followed by a space, the whole argument list cut at 128 bytes.
     */
    public static String unknownCommand(byte[][] argv) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < argv.length && args.length() < 128; i++) {
            String arg = printable(argv[i]);
            int room = 128 - args.length();
            args.append('\'').append(arg, 0, Math.min(arg.length(), room)).append("' ");
        }
        String name = printable(argv[0]);
        if (name.length() > 128) {
            name = name.substring(0, 128);
        }
        return "ERR unknown command '" + name + "', with args beginning with: " + args;
    }

    /** {@code ERR at least 1 input key is needed for 'zunionstore' command} (ZUNION … ZINTERCARD). */
    public static String atLeastOneInputKey(String commandName) {
        return "ERR at least 1 input key is needed for '" + commandName + "' command";
    }

    /** {@code ERR Unsupported option foo} (EXPIRE and friends). */
    public static String unsupportedOption(byte[] option) {
        return "ERR Unsupported option " + printable(option);
    }

    /** {@code ERR Syntax error in HELLO option 'foo'}. */
    public static String helloSyntax(byte[] option) {
        return "ERR Syntax error in HELLO option '" + printable(option) + "'";
    }

    /** {@code ERR Unknown client type 'foo'} (CLIENT LIST / KILL TYPE). */
    public static String unknownClientType(byte[] type) {
        return "ERR Unknown client type '" + printable(type) + "'";
    }

    /** {@code ERR No such user 'bob'} (CLIENT KILL USER). */
    public static String noSuchUser(byte[] user) {
        return "ERR No such user '" + printable(user) + "'";
    }

    /** {@code ERR Unrecognized option 'foo'} (CLIENT SETINFO). */
    public static String unrecognizedOption(byte[] option) {
        return "ERR Unrecognized option '" + printable(option) + "'";
    }

    /** {@code ERR lib-name cannot contain spaces, newlines or special characters.}, spelled as the client did. */
    public static String clientAttributeCharacters(byte[] attribute) {
        return "ERR " + printable(attribute) + " cannot contain spaces, newlines or special characters.";
    }

    /** {@code ERR unknown subcommand or wrong number of arguments for 'foo'. Try CLIENT HELP.} */
    public static String unknownSubcommandOrArity(byte[] sub, String container) {
        return "ERR unknown subcommand or wrong number of arguments for '" + printable(sub) + "'. Try " + container
                + " HELP.";
    }

    /** {@code ERR Unknown PFDEBUG subcommand 'foo'}. */
    public static String pfdebugUnknownSubcommand(byte[] sub) {
        return "ERR Unknown PFDEBUG subcommand '" + printable(sub) + "'";
    }

    /** {@code ERR unknown subcommand 'foo'. Try CONFIG HELP.} */
    public static String unknownSubcommand(byte[] sub, String container) {
        String name = printable(sub);
        if (name.length() > 128) {
            name = name.substring(0, 128);
        }
        return "ERR unknown subcommand '" + name + "'. Try " + container.toUpperCase(java.util.Locale.ROOT)
                + " HELP.";
    }

    /**
     * A client's bytes as they go back in an error reply: up to the first NUL (Redis formats them
     * with {@code %s}), CR and LF as spaces, ASCII as itself and every other byte escaped so that
     * the reply carries the byte unchanged ({@link RespWriter#escapedByte}), whatever its encoding.
     */
    public static String printable(byte[] bytes) {
        char[] out = new char[bytes.length];
        int n = 0;
        for (byte b : bytes) {
            if (b == 0) {
                break;
            }
            out[n++] = b == '\r' || b == '\n' ? ' ' : RespWriter.escapedByte(b);
        }
        return new String(out, 0, n);
    }

    // ---- ACL (the rule reasons of ACL SETUSER live with the rules, in dev.ebb.server.acl) ----

    public static final String ACL_DEFAULT_USER_UNDELETABLE = "ERR The 'default' user cannot be removed";
    public static final String ACL_USERNAME_CHARACTERS = "ERR Usernames can't contain spaces or null characters";
    public static final String ACL_GENPASS_BITS = "ERR ACL GENPASS argument must be the number of bits for the output"
            + " password, a positive number up to 4096";
    public static final String ACL_SAVE_FAILED = "ERR There was an error trying to save the ACLs. Please check the"
            + " server logs for more information";

    /** {@code ERR Unknown category 'foo'} (ACL CAT). */
    public static String aclUnknownCategory(byte[] category) {
        return "ERR Unknown category '" + printable(category) + "'";
    }

    /** {@code ERR User 'foo' not found} (ACL DRYRUN). */
    public static String aclUserNotFound(byte[] user) {
        return "ERR User '" + printable(user) + "' not found";
    }

    /** {@code ERR Command 'foo' not found} (ACL DRYRUN). */
    public static String aclCommandNotFound(byte[] command) {
        return "ERR Command '" + printable(command) + "' not found";
    }
}
