package dev.ebb.server.script;

import dev.ebb.server.Client;
import dev.ebb.server.ScriptDispatch;
import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclLog;
import dev.ebb.server.Server;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import io.netty.buffer.ByteBuf;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis} table scripts see: {@code call}, {@code pcall}, {@code error_reply},
 * {@code status_reply}, {@code sha1hex}, {@code log}, {@code setresp}, the {@code LOG_*} levels and
 * the replication no-ops Redis 7 keeps for old scripts.
 *
 * <p>{@code redis.call} checks the call as Redis does (at least one argument, arguments are strings
 * or numbers, a known command with the right arity, not a no-script command, no write from a
 * read-only script), runs it as the script client in the caller's database, and reads the reply
 * back into a Lua value ({@link RespToLua}). A failing call raises the error table
 * {@code {err=...}}; {@code redis.pcall} returns it instead. Loop thread only.
 */
final class RedisLib {
    private static final Logger LOG = LoggerFactory.getLogger("dev.ebb.script");
    private static final String NO_ARGUMENTS = "ERR Please specify at least one argument for this redis lib call";
    private static final String BAD_ARGUMENT = "ERR Lua redis lib command arguments must be strings or integers";
    private static final String UNKNOWN_COMMAND = "ERR Unknown Redis command called from script";
    private static final String WRONG_ARITY = "ERR Wrong number of args calling Redis command from script";
    private static final String NOT_ALLOWED = "ERR This Redis command is not allowed from script";
    private static final String WRONG_REPLY_ARGUMENTS = "ERR wrong number or type of arguments";
    private static final String WRITE_IN_READ_ONLY = "ERR Write commands are not allowed from read-only scripts.";
    private static final String NON_LOCAL_KEY = "ERR Script attempted to access a non local key in a cluster node";
    private static final String SCRIPT_CROSS_SLOT =
            "ERR Script attempted to access keys that do not hash to the same slot";

    private final Server server;
    private final Client scriptClient;
    private Client caller;
    private boolean readOnly;
    private boolean wrote;
    // Cluster mode: whether the script may touch keys of several slots, and the slot of those it
    // touched so far (its declared keys' first), as Redis's scriptVerifyClusterState.
    private boolean allowCrossSlot;
    private int slot;

    RedisLib(Server server, Client scriptClient) {
        this.server = server;
        this.scriptClient = scriptClient;
    }

    /**
     * Prepares for a script run by {@code caller}: its database, RESP2 replies, no writes yet.
     * {@code allowCrossSlot} is false for a function without the {@code allow-cross-slot-keys}
     * flag: in cluster mode its commands must then keep to one slot.
     */
    void begin(Client caller, boolean readOnly, boolean allowCrossSlot) {
        this.caller = caller;
        this.readOnly = readOnly;
        this.wrote = false;
        this.allowCrossSlot = allowCrossSlot;
        this.slot = HashSlots.NO_KEYS;
        scriptClient.select(caller.db());
        scriptClient.user(caller.user());
        scriptClient.protocol(2);
    }

    void end() {
        caller = null;
        scriptClient.reply().release();
    }

    /** The protocol the running script asked for with {@code redis.setresp}: 2 or 3. */
    int resp() {
        return scriptClient.protocol();
    }

    /** True once the running script has called a write command (it can then no longer be killed). */
    boolean wrote() {
        return wrote;
    }

    boolean running() {
        return caller != null;
    }

    /**
     * Records the slot of a function's declared keys, which its commands must keep to in cluster
     * mode unless it has the {@code allow-cross-slot-keys} flag.
     */
    void declaredKeys(byte[][] keys) {
        if (keys.length > 0) {
            slot = HashSlots.slot(keys[0]);
        }
    }

    /**
     * The {@code redis} table a function library sees while FUNCTION LOAD runs it, as Redis 7's:
     * {@code register_function} (given), {@code log} and its levels, the version; nothing else.
     */
    static LuaTable loadTimeLibrary(LuaValue registerFunction) {
        LuaTable redis = new LuaTable();
        redis.rawset("register_function", registerFunction);
        redis.rawset("log", new Log());
        logLevels(redis);
        version(redis);
        return redis;
    }

    /** The {@code redis} table functions see when they run: EVAL's, less {@code replicate_commands}. */
    LuaTable functionLibrary() {
        LuaTable redis = library();
        redis.rawset("replicate_commands", LuaValue.NIL);
        return redis;
    }

    private static void logLevels(LuaTable redis) {
        redis.rawset("LOG_DEBUG", 0);
        redis.rawset("LOG_VERBOSE", 1);
        redis.rawset("LOG_NOTICE", 2);
        redis.rawset("LOG_WARNING", 3);
    }

    private static void version(LuaTable redis) {
        redis.rawset("REDIS_VERSION", Server.REDIS_VERSION);
        redis.rawset("REDIS_VERSION_NUM", versionNumber(Server.REDIS_VERSION));
    }

    LuaTable library() {
        LuaTable redis = new LuaTable();
        redis.rawset("call", new Call(true));
        redis.rawset("pcall", new Call(false));
        redis.rawset("error_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (!oneString(args)) {
                    return RespToLua.tableWith(RespToLua.ERR, LuaValue.valueOf(WRONG_REPLY_ARGUMENTS));
                }
                // As Redis's luaPushErrorBuff: the first word is the error code, and a text of one
                // word gets the generic code ERR in front.
                String s = args.arg1().tojstring();
                String text = s.startsWith("-") ? s.substring(1) : s;
                return RespToLua.tableWith(RespToLua.ERR, LuaValue.valueOf(text.indexOf(' ') < 0 ? "ERR " + text : text));
            }
        });
        redis.rawset("status_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (!oneString(args)) {
                    return RespToLua.tableWith(RespToLua.ERR, LuaValue.valueOf(WRONG_REPLY_ARGUMENTS));
                }
                return RespToLua.tableWith(RespToLua.OK, args.arg1());
            }
        });
        redis.rawset("sha1hex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw new ReplyError("ERR wrong number of arguments");
                }
                // Redis reads the argument with lua_tolstring: a number as its text, anything
                // else that is not a string (nil, a boolean, a table) as the empty string.
                LuaValue v = args.arg1();
                byte[] body = v.isstring() ? Scripting.bytes(v.strvalue()) : new byte[0];
                return LuaValue.valueOf(Scripting.sha1hex(body));
            }
        });
        redis.rawset("log", new Log());
        redis.rawset("setresp", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw new ReplyError("ERR redis.setresp() requires one argument.");
                }
                LuaValue n = args.arg1().tonumber();
                int version = n.isnil() ? 0 : n.toint();
                if (version != 2 && version != 3) {
                    throw new ReplyError("ERR RESP version must be 2 or 3.");
                }
                scriptClient.protocol(version);
                return NONE;
            }
        });
        redis.rawset("replicate_commands", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return TRUE;
            }
        });
        redis.rawset("set_repl", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return NONE;
            }
        });
        logLevels(redis);
        redis.rawset("REPL_NONE", 0);
        redis.rawset("REPL_AOF", 1);
        redis.rawset("REPL_SLAVE", 2);
        redis.rawset("REPL_REPLICA", 2);
        redis.rawset("REPL_ALL", 3);
        version(redis);
        return redis;
    }

    private static int versionNumber(String version) {
        String[] parts = version.split("\\.");
        return (Integer.parseInt(parts[0]) << 16) | (Integer.parseInt(parts[1]) << 8) | Integer.parseInt(parts[2]);
    }

    /**
     * Runs one command for the script. Returns the reply as a Lua value; an error (from the checks
     * or from the command) is returned as an error table with {@code failed} telling which.
     */
    private LuaValue dispatch(Varargs args) {
        int n = args.narg();
        if (n == 0) {
            return error(NO_ARGUMENTS);
        }
        byte[][] argv = new byte[n][];
        for (int i = 0; i < n; i++) {
            LuaValue a = args.arg(i + 1);
            int type = a.type();
            if (type != LuaValue.TSTRING && type != LuaValue.TNUMBER) {
                return error(BAD_ARGUMENT);
            }
            // A number goes as Redis writes it (fpconv_dtoa, shortest round trip: 2^53 is
            // 9007199254740992), not as Lua's %.14g.
            argv[i] = type == LuaValue.TNUMBER
                    ? LuaNumbers.shortest(a.todouble()).getBytes(java.nio.charset.StandardCharsets.US_ASCII)
                    : Scripting.bytes(a.strvalue());
        }
        CommandSpec spec = server.commands().lookup(argv[0]);
        if (spec == null) {
            return error(UNKNOWN_COMMAND);
        }
        if (!spec.subcommands().isEmpty() && (argv.length > 1 || spec.handler() == null)) {
            if (argv.length < 2) {
                return error(WRONG_ARITY);
            }
            CommandSpec sub = spec.subcommand(argv[1]);
            if (sub == null) {
                return error(Errors.unknownSubcommand(argv[1], Errors.printable(argv[0])));
            }
            spec = sub;
        }
        if (!spec.arityAccepts(argv.length)) {
            return error(WRONG_ARITY);
        }
        if (spec.has(CommandFlags.NOSCRIPT)) {
            return error(NOT_ALLOWED);
        }
        if (!caller.user().unrestricted()) {
            int result = server.acl().check(caller.user(), spec, argv);
            if (result != Acl.OK) {
                int position = server.acl().errorPosition();
                server.logAclDenial(scriptClient, result, AclLog.Context.LUA, spec, argv, position);
                return error("ERR ACL failure in script: " + Acl.message(result, caller.user(), spec, argv[position], false));
            }
        }
        if (spec.has(CommandFlags.WRITE)) {
            if (readOnly) {
                return error(WRITE_IN_READ_ONLY);
            }
            if (server.primaryLink().active() && server.config().replication().replicaReadOnly()
                    && !caller.hasFlag(Client.FLAG_MASTER)) {
                return error(dev.ebb.server.command.Errors.READONLY_REPLICA);
            }
            wrote = true;
        }
        if (server.clusterEnabled()) {
            String refused = clusterRefusal(spec, argv);
            if (refused != null) {
                return error(refused);
            }
        }
        ScriptDispatch.call(scriptClient, spec, argv);
        ByteBuf reply = scriptClient.reply().take();
        LuaValue result;
        try {
            result = RespToLua.read(reply);
        } finally {
            reply.release();
        }
        if (result.istable() && result.rawget(RespToLua.ERR).isstring()) {
            result.rawset(RespToLua.COUNTED, LuaValue.TRUE);
        }
        return result;
    }

    /**
     * Redis's cluster rule for a script's command (scriptVerifyClusterState): its own keys in one
     * slot that this node serves (no redirection, the cluster up), and, unless the script may cross
     * slots, the slot of every key the script touched before. Null if the command may run.
     */
    private String clusterRefusal(CommandSpec spec, byte[][] argv) {
        int s = ScriptDispatch.keySlot(spec, argv);
        if (s == HashSlots.CROSS_SLOT) {
            return NON_LOCAL_KEY;
        }
        if (s == HashSlots.NO_KEYS) {
            return null;
        }
        String route = ScriptDispatch.clusterRoute(server, spec, argv, s);
        if (route != null) {
            if (route.equals(Errors.CLUSTER_DOWN_READONLY)) {
                return "ERR Script attempted to execute a write command while the cluster is down and readonly";
            }
            return route.equals(Errors.CLUSTER_DOWN) ? "ERR Script attempted to execute a command while the cluster is down"
                    : NON_LOCAL_KEY;
        }
        if (allowCrossSlot) {
            return null;
        }
        if (slot == HashSlots.NO_KEYS) {
            slot = s;
        } else if (slot != s) {
            return SCRIPT_CROSS_SLOT;
        }
        return null;
    }

    /**
     * Whether {@code error_reply} / {@code status_reply} got what Redis accepts: exactly one
     * argument, a string (a number is refused). Otherwise they return, not raise, the error table
     * {@code ERR wrong number or type of arguments}.
     */
    private static boolean oneString(Varargs args) {
        return args.narg() == 1 && args.arg1().type() == LuaValue.TSTRING;
    }

    private static LuaTable error(String message) {
        return RespToLua.tableWith(RespToLua.ERR, LuaValue.valueOf(message));
    }

    /** {@code redis.call} (raising) and {@code redis.pcall} (returning the error table). */
    private final class Call extends VarArgFunction {
        private final boolean raise;

        Call(boolean raise) {
            this.raise = raise;
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaValue result = dispatch(args);
            if (raise && result.istable() && result.rawget(RespToLua.ERR).isstring()) {
                throw new ReplyError(result.rawget(RespToLua.ERR).tojstring(),
                        result.rawget(RespToLua.COUNTED).toboolean());
            }
            return result;
        }
    }

    /** {@code redis.log(level, message, ...)}: the arguments joined by spaces, at the slf4j level. */
    private static final class Log extends VarArgFunction {
        @Override
        public Varargs invoke(Varargs args) {
            if (args.narg() < 2) {
                throw new ReplyError("ERR redis.log() requires two arguments or more.");
            }
            if (!args.arg1().isnumber()) {
                throw new ReplyError("ERR First argument must be a number (log level).");
            }
            int level = args.arg1().toint();
            if (level < 0 || level > 3) {
                throw new ReplyError("ERR Invalid debug level.");
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 2; i <= args.narg(); i++) {
                if (i > 2) {
                    sb.append(' ');
                }
                sb.append(args.arg(i).tojstring());
            }
            String message = sb.toString();
            switch (level) {
                case 0: LOG.debug(message); break;
                case 1: LOG.info(message); break;
                case 2: LOG.info(message); break;
                default: LOG.warn(message);
            }
            return NONE;
        }
    }
}
