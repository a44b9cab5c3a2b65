package dev.ebb.server.config;

import dev.ebb.server.config.ClientOutputBufferLimits.ClientClass;
import dev.ebb.server.config.ClientOutputBufferLimits.Limit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The value types with their own syntax: bind, save, client-output-buffer-limit, notify-keyspace-events. Error texts
 * are Redis 7's. All types are immutable and thread-safe.
 */
final class SpecialTypes {
    /** Redis's CONFIG_BINDADDR_MAX. */
    static final int MAX_BIND_ADDRESSES = 16;

    private SpecialTypes() {
    }

    /** {@code bind addr...}: up to 16 addresses; a single empty argument means none. */
    static final class Bind implements ValueType<List<String>> {
        @Override
        public List<String> parse(List<String> args, List<String> current) throws InvalidValueException {
            if (args.size() > MAX_BIND_ADDRESSES) {
                throw new InvalidValueException("Too many bind addresses specified.");
            }
            if (args.size() == 1 && args.get(0).isEmpty()) {
                return List.of();
            }
            return List.copyOf(args);
        }

        @Override
        public boolean multiArg() {
            return true;
        }

        @Override
        public String format(List<String> value) {
            return String.join(" ", value);
        }

        @Override
        public String fileForm(List<String> value) {
            return value.isEmpty() ? "\"\"" : String.join(" ", value);
        }
    }

    /**
     * {@code latency-tracking-info-percentiles 50 99 99.9}: percentiles from 0 to 100 for INFO latencystats, or
     * {@code ""} for none. Shown as Redis prints them: {@code %f} with trailing zeros trimmed.
     */
    static final class Percentiles implements ValueType<List<Double>> {
        private static final Pattern DECIMAL =
                Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

        @Override
        public List<Double> parse(List<String> args, List<Double> current) throws InvalidValueException {
            if (args.size() == 1 && args.get(0).isEmpty()) {
                return List.of();
            }
            List<Double> percentiles = new ArrayList<>(args.size());
            for (String arg : args) {
                if (!DECIMAL.matcher(arg).matches()) {
                    throw new InvalidValueException("Invalid latency-tracking-info-percentiles parameters");
                }
                double percentile = Double.parseDouble(arg);
                if (percentile < 0 || percentile > 100) {
                    throw new InvalidValueException(
                            "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]");
                }
                percentiles.add(percentile);
            }
            return List.copyOf(percentiles);
        }

        @Override
        public boolean multiArg() {
            return true;
        }

        @Override
        public String format(List<Double> value) {
            StringBuilder out = new StringBuilder();
            for (double percentile : value) {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(text(percentile));
            }
            return out.toString();
        }

        @Override
        public String fileForm(List<Double> value) {
            return value.isEmpty() ? "\"\"" : format(value);
        }

        /** As Redis's {@code sprintf("%f")} then trimDoubleString: {@code 50}, {@code 99.9}. */
        static String text(double percentile) {
            String fixed = String.format(Locale.ROOT, "%f", percentile);
            int end = fixed.length();
            while (fixed.charAt(end - 1) == '0') {
                end--;
            }
            if (fixed.charAt(end - 1) == '.') {
                end--;
            }
            return fixed.substring(0, end);
        }
    }

    /** {@code save <seconds> <changes> ...} or {@code save ""}; see {@link SavePoint}. */
    static final class Save implements ValueType<List<SavePoint>> {
        private static final String INVALID = "Invalid save parameters";

        @Override
        public List<SavePoint> parse(List<String> args, List<SavePoint> current) throws InvalidValueException {
            if (args.size() == 1 && args.get(0).isEmpty()) {
                return List.of();
            }
            if (args.size() % 2 != 0) {
                throw new InvalidValueException(INVALID);
            }
            List<SavePoint> points = new ArrayList<>();
            for (int i = 0; i < args.size(); i += 2) {
                Long seconds = parseCLong(args.get(i));
                Long changes = parseCLong(args.get(i + 1));
                if (seconds == null || changes == null || seconds < 1 || changes < 0) {
                    throw new InvalidValueException(INVALID);
                }
                points.add(new SavePoint(seconds, changes));
            }
            return List.copyOf(points);
        }

        @Override
        public boolean multiArg() {
            return true;
        }

        @Override
        public String format(List<SavePoint> value) {
            StringBuilder out = new StringBuilder();
            for (SavePoint point : value) {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(point.seconds()).append(' ').append(point.changes());
            }
            return out.toString();
        }

        @Override
        public String fileForm(List<SavePoint> value) {
            return value.isEmpty() ? "\"\"" : format(value);
        }

        /** One {@code save S C} line per point, or {@code save ""} when there are none. */
        @Override
        public List<RewriteLine> rewrite(String name, List<SavePoint> value, List<SavePoint> defaultValue) {
            boolean force = !value.equals(defaultValue);
            if (value.isEmpty()) {
                return List.of(new RewriteLine(name + " \"\"", force));
            }
            List<RewriteLine> lines = new ArrayList<>();
            for (SavePoint point : value) {
                lines.add(new RewriteLine(name + " " + point.seconds() + " " + point.changes(), force));
            }
            return lines;
        }
    }

    /**
     * {@code client-output-buffer-limit <class> <hard> <soft> <soft-seconds> ...}: any number of class groups; classes
     * not named keep their limits. All groups are checked before any is applied.
     */
    static final class OutputBufferLimits implements ValueType<ClientOutputBufferLimits> {
        @Override
        public ClientOutputBufferLimits parse(List<String> args, ClientOutputBufferLimits current)
                throws InvalidValueException {
            if (args.size() % 4 != 0) {
                throw new InvalidValueException("Wrong number of arguments in buffer limit configuration.");
            }
            ClientOutputBufferLimits result = current;
            for (int i = 0; i < args.size(); i += 4) {
                ClientClass clientClass = ClientClass.byName(args.get(i));
                if (clientClass == null) {
                    throw new InvalidValueException("Invalid client class specified in buffer limit configuration.");
                }
                Long hard = ConfigNumbers.parseMemory(args.get(i + 1));
                Long soft = ConfigNumbers.parseMemory(args.get(i + 2));
                Long softSeconds = parseCLong(args.get(i + 3));
                if (hard == null || soft == null || softSeconds == null || softSeconds < 0) {
                    throw new InvalidValueException(
                            "Error in hard, soft or soft_seconds setting in buffer limit configuration.");
                }
                result = result.with(clientClass, new Limit(hard, soft, softSeconds));
            }
            return result;
        }

        @Override
        public boolean multiArg() {
            return true;
        }

        @Override
        public String format(ClientOutputBufferLimits value) {
            StringBuilder out = new StringBuilder();
            for (ClientClass clientClass : ClientClass.values()) {
                Limit limit = value.limit(clientClass);
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(clientClass.replyName).append(' ').append(limit.hardLimitBytes()).append(' ')
                        .append(limit.softLimitBytes()).append(' ').append(limit.softLimitSeconds());
            }
            return out.toString();
        }

        @Override
        public String fileForm(ClientOutputBufferLimits value) {
            StringBuilder out = new StringBuilder();
            for (ClientClass clientClass : ClientClass.values()) {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(classFileForm(clientClass, value.limit(clientClass)));
            }
            return out.toString();
        }

        /** One line per class, each forced only if that class differs from its default, as in Redis. */
        @Override
        public List<RewriteLine> rewrite(String name, ClientOutputBufferLimits value,
                ClientOutputBufferLimits defaultValue) {
            List<RewriteLine> lines = new ArrayList<>();
            for (ClientClass clientClass : ClientClass.values()) {
                Limit limit = value.limit(clientClass);
                lines.add(new RewriteLine(name + " " + classFileForm(clientClass, limit),
                        !limit.equals(defaultValue.limit(clientClass)), clientClass.name()));
            }
            return lines;
        }

        /**
         * Pairs lines by client class, so a rewrite replaces each class's own line (Redis pairs them in order and may
         * write the normal limits over a line that held the replica ones).
         */
        @Override
        public String lineKey(List<String> args) {
            ClientClass clientClass = args.isEmpty() ? null : ClientClass.byName(args.get(0));
            return clientClass == null ? null : clientClass.name();
        }

        private static String classFileForm(ClientClass clientClass, Limit limit) {
            return clientClass.rewriteName + " " + ConfigNumbers.formatMemory(limit.hardLimitBytes()) + " "
                    + ConfigNumbers.formatMemory(limit.softLimitBytes()) + " " + limit.softLimitSeconds();
        }
    }

    /** {@code notify-keyspace-events <letters>}; see {@link NotifyKeyspaceEvents}. */
    static final class KeyspaceEvents extends ScalarTypes.SingleArg<Integer> {
        @Override
        Integer parseOne(String arg, Integer current) throws InvalidValueException {
            int flags = NotifyKeyspaceEvents.parse(arg);
            if (flags < 0) {
                throw new InvalidValueException(NotifyKeyspaceEvents.INVALID_CLASS);
            }
            return flags;
        }

        @Override
        public String format(Integer value) {
            return NotifyKeyspaceEvents.format(value);
        }

        @Override
        public String fileForm(Integer value) {
            return ConfigSyntax.quote(NotifyKeyspaceEvents.lossless(value));
        }
    }

    /**
     * C's {@code strtoll} used as Redis uses it for save points and soft-seconds: leading blanks and a sign are
     * allowed, the whole string must be consumed, and the empty string reads as 0 (a quirk Redis shares).
     *
     * @return the value, or {@code null} if there is trailing garbage or it overflows
     */
    static Long parseCLong(String text) {
        if (text.isEmpty()) {
            return 0L;
        }
        int i = 0;
        while (i < text.length() && (text.charAt(i) == ' ' || (text.charAt(i) >= '\t' && text.charAt(i) <= '\r'))) {
            i++;
        }
        int signEnd = i;
        if (signEnd < text.length() && (text.charAt(signEnd) == '+' || text.charAt(signEnd) == '-')) {
            signEnd++;
        }
        if (signEnd == text.length()) {
            return null;
        }
        for (int j = signEnd; j < text.length(); j++) {
            if (text.charAt(j) < '0' || text.charAt(j) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(text.substring(i));
        } catch (NumberFormatException overflow) {
            return null;
        }
    }

    /** {@code replicaof host port}, or {@code replicaof no one} / an empty value for none; shown as {@code host port}. */
    static final class ReplicaOf implements ValueType<List<String>> {
        @Override
        public List<String> parse(List<String> args, List<String> current) throws InvalidValueException {
            if (args.size() == 1 && args.get(0).isEmpty()) {
                return List.of();
            }
            if (args.size() != 2) {
                throw new InvalidValueException("wrong number of arguments");
            }
            if (args.get(0).equalsIgnoreCase("no") && args.get(1).equalsIgnoreCase("one")) {
                return List.of();
            }
            try {
                int port = Integer.parseInt(args.get(1));
                if (port < 0 || port > 65535) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new InvalidValueException("Invalid master port");
            }
            return List.copyOf(args);
        }

        @Override
        public boolean multiArg() {
            return true;
        }

        @Override
        public String format(List<String> value) {
            return String.join(" ", value);
        }

        @Override
        public String fileForm(List<String> value) {
            return value.isEmpty() ? "\"\"" : String.join(" ", value);
        }

        @Override
        public List<RewriteLine> rewrite(String name, List<String> value, List<String> defaultValue) {
            if (value.isEmpty()) {
                return List.of();
            }
            return List.of(new RewriteLine(name + " " + String.join(" ", value), true));
        }
    }
}
