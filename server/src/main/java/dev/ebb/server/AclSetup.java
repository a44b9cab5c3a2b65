package dev.ebb.server;

import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclFile;
import dev.ebb.server.acl.User;
import dev.ebb.server.command.CommandTable;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.ConfigUser;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ACL's place in the server: the users a server starts with ({@code requirepass}, then the
 * config's {@code user} lines or the {@code aclfile}), and what a change to a user does to the
 * connections authenticated as it. Loop thread only (start-up excepted).
 */
final class AclSetup {
    private AclSetup() {
    }

    /**
     * The ACL of a new server. As in Redis, {@code requirepass} is the default user's password; a
     * {@code user} line resets the user it names before applying its rules.
     *
     * @throws IllegalArgumentException with Redis's fatal error text
     */
    static Acl create(ServerConfig config, CommandTable commands) {
        Acl acl = new Acl(commands, config.aclPubsubAllChannels());
        acl.requirepass(config.requirepass());
        if (!config.users().isEmpty() && !config.aclfile().isEmpty()) {
            throw new IllegalArgumentException(AclFile.BOTH_CONFIGURED);
        }
        for (ConfigUser line : config.users()) {
            List<String> rules = new ArrayList<>();
            rules.add("reset");
            rules.addAll(line.rules());
            try {
                acl.setUser(line.name(), rules);
            } catch (Acl.RuleFailure e) {
                throw new IllegalArgumentException(ConfigException.at(line.location(), e.reason()).getMessage());
            }
        }
        if (!config.aclfile().isEmpty()) {
            try {
                AclFile.load(acl, config.dir().resolve(Path.of(config.aclfile())));
            } catch (AclFile.LoadException e) {
                throw new IllegalArgumentException("Aborting Redis startup because of ACL errors: " + e.getMessage());
            }
        }
        config.currentUsers(() -> {
            List<String> lines = new ArrayList<>();
            acl.users().forEach(u -> lines.add(Acl.describe(u)));
            return lines;
        });
        return acl;
    }

    /**
     * After {@code u} changed or was removed: its connections are closed if it was removed or
     * disabled; otherwise those subscribed to channels or patterns it may no longer use are closed,
     * as Redis's ACLKillPubsubClientsIfNeeded. The client running the command is closed once its
     * reply is written.
     */
    static void userChanged(Server server, User u, boolean removed) {
        if (u == server.acl().defaultUser()) {
            // The default user's password decides what unauthenticated connections may send.
            server.clients().forEach(Client::refreshDecoderAuth);
        }
        boolean all = removed || !u.enabled();
        List<Client> victims = new ArrayList<>();
        for (Client c : server.clients()) {
            if (c.user() != u) {
                continue;
            }
            if (all || (c.subscriptions().active() && !server.acl().maySubscribe(u,
                    c.subscriptions().channelNames(), c.subscriptions().patternNames()))) {
                victims.add(c);
            }
        }
        for (Client c : victims) {
            if (c == server.currentClient()) {
                c.closeAfterReply();
            } else {
                c.kill();
            }
        }
    }
}
