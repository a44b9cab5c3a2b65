package dev.ebb.server.config;

import dev.ebb.server.config.Directive.Mutability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CONFIG SET with Redis 7's semantics, run under the {@link ServerConfig} lock.
 *
 * <p>Phases, all or nothing:
 * <ol>
 *   <li>Resolve every name. The first problem in argument order wins: an unknown name
 *       ({@code Unknown option or number of arguments for CONFIG SET - 'x'}), an immutable or protected directive,
 *       or a name given twice ({@code duplicate parameter}); these quote the name as the client spelled it. As in
 *       Redis a directive and its alias are different names: both are applied, the later one winning.</li>
 *   <li>Parse every value into a copy of the snapshot; a bad value aborts with Redis's reason, naming the
 *       directive by the lowercase name used (so an alias stays an alias).</li>
 *   <li>Publish the copy, then run the listeners of the directives whose value actually changed, each listener
 *       once. If one refuses, the old snapshot is published again and the listeners that were due are re-run so
 *       that the old values are back in effect.</li>
 * </ol>
 * Cost: O(pairs^2) for the duplicate check (pairs are few) plus the parsing; one snapshot copy.
 */
final class ConfigSet {
    private ConfigSet() {
    }

    static void run(ServerConfig config, List<String> args) throws ConfigCommandException {
        if (args.isEmpty()) {
            throw new ConfigCommandException("ERR wrong number of arguments for 'config|set' command");
        }
        if (args.size() % 2 != 0) {
            throw new ConfigCommandException("ERR syntax error");
        }
        int pairs = args.size() / 2;
        Directive<?>[] targets = resolve(args, pairs);

        Object[] before = config.snapshot();
        Object[] after = before.clone();
        Map<Directive<?>, String> changed = new LinkedHashMap<>();
        for (int i = 0; i < pairs; i++) {
            assign(targets[i], args.get(2 * i + 1), after, ScalarTypes.lower(args.get(2 * i)));
        }
        for (int i = 0; i < pairs; i++) {
            if (!after[targets[i].index].equals(before[targets[i].index])) {
                changed.putIfAbsent(targets[i], ScalarTypes.lower(args.get(2 * i)));
            }
        }
        config.publish(after);
        applyListeners(config, before, changed);
    }

    private static Directive<?>[] resolve(List<String> args, int pairs) throws ConfigCommandException {
        Directive<?>[] targets = new Directive<?>[pairs];
        for (int i = 0; i < pairs; i++) {
            String name = args.get(2 * i);
            Directive<?> directive = Directives.lookup(name);
            if (directive == null) {
                throw new ConfigCommandException(
                        "ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
            }
            if (directive.mutability == Mutability.IMMUTABLE) {
                throw failed(name, "can't set immutable config");
            }
            if (directive.mutability == Mutability.PROTECTED) {
                throw failed(name, "can't set protected config");
            }
            for (int j = 0; j < i; j++) {
                if (args.get(2 * j).equalsIgnoreCase(name)) {
                    throw failed(name, "duplicate parameter");
                }
            }
            targets[i] = directive;
        }
        return targets;
    }

    private static <T> void assign(Directive<T> directive, String value, Object[] into, String usedName)
            throws ConfigCommandException {
        List<String> args = directive.type.multiArg() ? splitOnSpaces(value) : List.of(value);
        try {
            into[directive.index] = directive.type.parse(args, directive.cast(into[directive.index]));
        } catch (InvalidValueException e) {
            throw failed(usedName, e.reason());
        }
    }

    /** Splits a multi-argument value on single spaces, as Redis does; "" is no arguments, "a  b" has an empty one. */
    static List<String> splitOnSpaces(String value) {
        if (value.isEmpty()) {
            return List.of();
        }
        return List.of(value.split(" ", -1));
    }

    private static void applyListeners(ServerConfig config, Object[] before, Map<Directive<?>, String> changed)
            throws ConfigCommandException {
        Map<ConfigListener, String> due = new LinkedHashMap<>();
        for (Map.Entry<Directive<?>, String> entry : changed.entrySet()) {
            for (ConfigListener listener : config.listenersOf(entry.getKey())) {
                due.putIfAbsent(listener, entry.getValue());
            }
        }
        for (Map.Entry<ConfigListener, String> entry : due.entrySet()) {
            try {
                entry.getKey().onChange(config);
            } catch (ConfigApplyException e) {
                config.publish(before);
                restore(config, new ArrayList<>(due.keySet()));
                throw failed(entry.getValue(), e.getMessage());
            }
        }
    }

    private static void restore(ServerConfig config, List<ConfigListener> listeners) {
        for (ConfigListener listener : listeners) {
            try {
                listener.onChange(config);
            } catch (ConfigApplyException e) {
                ServerConfig.logRestoreFailure(listener, e);
            }
        }
    }

    private static ConfigCommandException failed(String name, String reason) {
        return new ConfigCommandException("ERR CONFIG SET failed (possibly related to argument '" + name + "') - "
                + reason);
    }
}
