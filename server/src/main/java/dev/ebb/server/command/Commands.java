package dev.ebb.server.command;

/** Assembles the command table from every family's rows. */
public final class Commands {
    private static final CommandTable TABLE = CommandTable.of(
            ConnectionCommands.specs(),
            ClientCommands.specs(),
            ServerCommands.specs(),
            ReplicaOfCommands.specs(),
            PersistenceCommands.specs(),
            InfoCommand.specs(),
            CommandDocs.specs(),
            KeyCommands.specs(),
            DumpCommands.specs(),
            MigrateCommand.specs(),
            StringCommands.specs(),
            BitmapCommands.specs(),
            BitfieldCommands.specs(),
            HyperLogLogCommands.specs(),
            PubSubCommands.specs(),
            MonitorCommand.specs(),
            SlowlogCommands.specs(),
            LatencyCommands.specs(),
            LolwutCommand.specs(),
            TransactionCommands.specs(),
            ClusterCommands.specs(),
            ZSetCommands.specs(),
            ZSetBlockingCommands.specs(),
            GeoCommands.specs(),
            HashCommands.specs(),
            HashFieldExpiryCommands.specs(),
            SetCommands.specs(),
            ListCommands.specs(),
            ScriptingCommands.specs(),
            FunctionCommands.specs(),
            SortCommands.specs(),
            AclCommands.specs(),
            StreamCommands.specs(),
            StreamReadCommands.specs(),
            StreamGroupCommands.specs(),
            StreamInfoCommands.specs(),
            AofCommands.specs(),
            ReplicationCommands.specs());

    private Commands() {
    }

    /** The standard table, built and checked once. */
    public static CommandTable table() {
        return TABLE;
    }
}
