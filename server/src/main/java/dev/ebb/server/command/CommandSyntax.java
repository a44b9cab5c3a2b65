package dev.ebb.server.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a command's syntax line, written as the Redis docs write it, into the argument tree that
 * COMMAND DOCS replies (and redis-cli turns into its hints and HELP pages). Ebb keeps no copy of
 * Redis's JSON command files: the tree is derived from the one syntax string of each spec.
 *
 * <h2>Grammar</h2>
 * <pre>
 *   sequence    := item*
 *   item        := WORD | '[' alternation ']' | '&lt;' alternation '&gt;'
 *   alternation := sequence ('|' sequence)*
 * </pre>
 * A WORD without lower-case letters ({@code NX}, {@code LIB-NAME}, {@code *}, {@code 0}) is a
 * literal token; any other word ({@code key}, {@code unix-time-seconds}, {@code ip:port}) names a
 * value. {@code [ ]} is optional, {@code < >} only groups. Repetition is written as Redis writes
 * it: {@code X [X ...]} (the bracket repeats the items just before it, which become one argument
 * flagged {@code multiple}); a bracket ending in {@code ...} that repeats nothing before it
 * ({@code [arg ...]}) is itself an optional, multiple argument.
 *
 * <h2>Tree (Redis's shapes)</h2>
 * <ul>
 *   <li>A token with one value after it is that value with a {@code token}: {@code EX seconds}
 *       is {@code {name: seconds, type: integer, token: EX}}; a token alone is a
 *       {@code pure-token} named after it; a token followed by several values, or by one repeated
 *       value ({@code ID client-id [client-id ...]}), is a {@code block} named after the token;
 *       a token followed by a {@code < >} group gives the group its token
 *       ({@code FILTERBY <MODULE m | ACLCAT c>}).</li>
 *   <li>A group with alternatives is a {@code oneof}; a group of several arguments is a
 *       {@code block}. Redis names such groups by hand ({@code condition}, {@code expiration});
 *       here the name is the members' names joined by {@code _} ({@code nx_xx}), as Redis itself
 *       names some ({@code normal_master_replica_pubsub}).</li>
 *   <li>A repeated group that starts with a token ({@code [GET pattern [GET pattern ...]]}) is
 *       also {@code multiple_token}.</li>
 * </ul>
 *
 * <h2>Value types</h2>
 * Redis's JSON files state each value's type; a syntax line does not, so the type is inferred:
 * {@code key} when the value sits at one of the spec's key positions (first/last/step, counted
 * while the line is still a run of required words) or its name is {@code key} or ends in
 * {@code key}; {@code unix-time} for names starting {@code unix-time}; {@code pattern} for
 * {@code pattern}; {@code integer} and {@code double} for the names in {@link #INTEGER_NAMES} and
 * {@link #DOUBLE_NAMES} ({@code increment} is a double in commands whose name ends in
 * {@code float}, {@code timeout} a double in blocking commands, as in Redis); {@code string}
 * otherwise. The inference can be wrong for an unusual name; the type is advice for clients, not
 * used for parsing.
 *
 * <p>Costs: O(length of the line) per parse; callers cache the result per spec. Stateless and
 * thread-safe.
 */
final class CommandSyntax {
    static final String KEY = "key";
    static final String STRING = "string";
    static final String INTEGER = "integer";
    static final String DOUBLE = "double";
    static final String PATTERN = "pattern";
    static final String UNIX_TIME = "unix-time";
    static final String PURE_TOKEN = "pure-token";
    static final String ONEOF = "oneof";
    static final String BLOCK = "block";

    private static final Set<String> INTEGER_NAMES = Set.of(
            "count", "offset", "index", "start", "end", "stop", "numkeys", "seconds", "milliseconds", "db",
            "destination-db", "index1", "index2", "port", "client-id", "maxage", "numreplicas", "cursor", "rank",
            "len", "ttl", "protover", "decrement");
    private static final Set<String> DOUBLE_NAMES = Set.of(
            "score", "weight", "longitude", "latitude", "radius", "width", "height");
    private static final String ELLIPSIS = "...";

    private CommandSyntax() {
    }

    /** One argument of the tree. Immutable. */
    static final class Argument {
        final String name;
        final String type;
        final String token;
        final boolean optional;
        final boolean multiple;
        final boolean multipleToken;
        final List<Argument> arguments;

        Argument(String name, String type, String token, boolean optional, boolean multiple, boolean multipleToken,
                List<Argument> arguments) {
            this.name = name;
            this.type = type;
            this.token = token;
            this.optional = optional;
            this.multiple = multiple;
            this.multipleToken = multipleToken;
            this.arguments = Collections.unmodifiableList(arguments);
        }

        Argument withToken(String newToken) {
            return new Argument(name, type, newToken, optional, multiple, multipleToken, arguments);
        }

        Argument withFlags(boolean optionalFlag, boolean multipleFlag) {
            boolean isMultiple = multiple || multipleFlag;
            return new Argument(name, type, token, optional || optionalFlag, isMultiple,
                    multipleToken || (multipleFlag && token != null), arguments);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(name).append(':').append(type);
            if (token != null) {
                sb.append(" token=").append(token);
            }
            if (optional) {
                sb.append(" optional");
            }
            if (multiple) {
                sb.append(" multiple");
            }
            if (multipleToken) {
                sb.append(" multiple_token");
            }
            if (!arguments.isEmpty()) {
                sb.append(' ').append(arguments);
            }
            return sb.toString();
        }
    }

    /**
     * The argument tree of {@code spec}'s syntax line.
     *
     * @throws IllegalArgumentException if the line is not well formed (unbalanced brackets, a
     *     stray {@code |}), naming the command and the line
     */
    static List<Argument> arguments(CommandSpec spec) {
        String syntax = spec.syntax();
        try {
            Parser parser = new Parser(lex(syntax));
            List<Node> nodes = parser.sequence();
            if (!parser.atEnd()) {
                throw new IllegalArgumentException("unexpected '" + parser.peek() + "'");
            }
            return new Converter(spec).sequence(nodes, true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad syntax line for command " + spec.fullName() + ": syntax="
                    + syntax + " (" + e.getMessage() + ")", e);
        }
    }

    static List<String> lex(String syntax) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = syntax.length();
        while (i < n) {
            char ch = syntax.charAt(i);
            if (Character.isWhitespace(ch)) {
                i++;
            } else if (ch == '[' || ch == ']' || ch == '<' || ch == '>' || ch == '|') {
                out.add(String.valueOf(ch));
                i++;
            } else if (syntax.startsWith(ELLIPSIS, i)) {
                out.add(ELLIPSIS);
                i += ELLIPSIS.length();
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(syntax.charAt(i)) && "[]<>|".indexOf(syntax.charAt(i)) < 0
                        && !syntax.startsWith(ELLIPSIS, i)) {
                    i++;
                }
                out.add(syntax.substring(start, i));
            }
        }
        return out;
    }

    /** A parsed item: a word, or a group of alternatives; {@code repeated} when {@code X [X ...]}. */
    private static final class Node {
        final String word;
        final List<List<Node>> alternatives;
        final boolean optional;
        final boolean repeated;

        private Node(String word, List<List<Node>> alternatives, boolean optional, boolean repeated) {
            this.word = word;
            this.alternatives = alternatives;
            this.optional = optional;
            this.repeated = repeated;
        }

        static Node word(String word) {
            return new Node(word, null, false, false);
        }

        static Node group(List<List<Node>> alternatives, boolean optional) {
            return new Node(null, alternatives, optional, false);
        }

        Node repeat() {
            return new Node(word, alternatives, optional, true);
        }

        boolean isWord() {
            return word != null;
        }

        boolean isToken() {
            return word != null && word.equals(word.toUpperCase(Locale.ROOT));
        }

        boolean isValue() {
            return word != null && !isToken();
        }

        /** Canonical text, for recognising {@code X [X ...]}. */
        @Override
        public String toString() {
            if (word != null) {
                return repeated ? word + "+" : word;
            }
            StringBuilder sb = new StringBuilder(optional ? "[" : "<");
            for (int i = 0; i < alternatives.size(); i++) {
                if (i > 0) {
                    sb.append('|');
                }
                sb.append(alternatives.get(i));
            }
            return sb.append(optional ? "]" : ">").append(repeated ? "+" : "").toString();
        }
    }

    /** Recursive descent over the lexemes; recognises repetition as it closes each bracket. */
    private static final class Parser {
        private final List<String> lexemes;
        private int pos;

        Parser(List<String> lexemes) {
            this.lexemes = lexemes;
        }

        boolean atEnd() {
            return pos == lexemes.size();
        }

        String peek() {
            return lexemes.get(pos);
        }

        List<Node> sequence() {
            List<Node> seq = new ArrayList<>();
            while (!atEnd()) {
                String lexeme = peek();
                if (lexeme.equals("]") || lexeme.equals(">") || lexeme.equals("|")) {
                    break;
                }
                pos++;
                if (lexeme.equals("[")) {
                    bracket(seq);
                } else if (lexeme.equals("<")) {
                    seq.add(Node.group(alternation(">"), false));
                } else {
                    seq.add(Node.word(lexeme));
                }
            }
            return seq;
        }

        private List<List<Node>> alternation(String close) {
            List<List<Node>> alternatives = new ArrayList<>();
            alternatives.add(sequence());
            while (!atEnd() && peek().equals("|")) {
                pos++;
                alternatives.add(sequence());
            }
            if (atEnd() || !peek().equals(close)) {
                throw new IllegalArgumentException("missing '" + close + "'");
            }
            pos++;
            for (List<Node> alternative : alternatives) {
                if (alternative.isEmpty()) {
                    throw new IllegalArgumentException("empty alternative");
                }
            }
            return alternatives;
        }

        /** After '[': an optional group, or the repetition of what precedes it. */
        private void bracket(List<Node> seq) {
            List<List<Node>> alternatives = alternation("]");
            List<Node> last = alternatives.get(alternatives.size() - 1);
            boolean ellipsis = last.get(last.size() - 1).isWord() && last.get(last.size() - 1).word.equals(ELLIPSIS);
            if (!ellipsis) {
                seq.add(Node.group(alternatives, true));
                return;
            }
            last.remove(last.size() - 1);
            if (last.isEmpty()) {
                throw new IllegalArgumentException("nothing to repeat before '...'");
            }
            if (alternatives.size() == 1 && endsWith(seq, last)) {
                int k = last.size();
                List<Node> repeated = new ArrayList<>(seq.subList(seq.size() - k, seq.size()));
                seq.subList(seq.size() - k, seq.size()).clear();
                seq.add(k == 1 ? repeated.get(0).repeat() : Node.group(List.of(repeated), false).repeat());
            } else if (alternatives.size() > 1 && !seq.isEmpty() && !seq.get(seq.size() - 1).isWord()
                    && seq.get(seq.size() - 1).alternatives.toString().equals(alternatives.toString())) {
                seq.set(seq.size() - 1, seq.get(seq.size() - 1).repeat());
            } else {
                seq.add(Node.group(alternatives, true).repeat());
            }
        }

        private static boolean endsWith(List<Node> seq, List<Node> tail) {
            if (tail.size() > seq.size()) {
                return false;
            }
            List<Node> end = seq.subList(seq.size() - tail.size(), seq.size());
            return end.toString().equals(tail.toString());
        }
    }

    /** Builds the Redis-shaped tree from the parsed items, binding tokens to what follows them. */
    private static final class Converter {
        private final CommandSpec spec;

        Converter(CommandSpec spec) {
            this.spec = spec;
        }

        List<Argument> sequence(List<Node> nodes, boolean topLevel) {
            List<Argument> out = new ArrayList<>();
            int position = 1;
            boolean positionKnown = topLevel;
            int i = 0;
            while (i < nodes.size()) {
                Node node = nodes.get(i);
                positionKnown &= node.isWord() && !node.repeated;
                if (node.isWord() && node.word.equals(ELLIPSIS)) {
                    throw new IllegalArgumentException("'...' repeats nothing");
                }
                if (node.isToken()) {
                    int j = i + 1;
                    while (j < nodes.size() && nodes.get(j).isValue()) {
                        j++;
                    }
                    if (j == i + 1 && j < nodes.size() && !nodes.get(j).isWord() && !nodes.get(j).optional) {
                        out.add(group(nodes.get(j), node.word));
                        i += 2;
                        positionKnown = false;
                        continue;
                    }
                    List<Argument> values = new ArrayList<>();
                    for (int k = i + 1; k < j; k++) {
                        values.add(value(nodes.get(k), false));
                    }
                    Argument arg;
                    if (values.isEmpty()) {
                        arg = new Argument(node.word.toLowerCase(Locale.ROOT), PURE_TOKEN, node.word, false, false,
                                false, List.of());
                    } else if (values.size() == 1 && !values.get(0).multiple) {
                        arg = values.get(0).withToken(node.word);
                    } else {
                        arg = new Argument(node.word.toLowerCase(Locale.ROOT), BLOCK, node.word, false, false, false,
                                values);
                    }
                    out.add(arg.withFlags(false, node.repeated));
                    position += j - i;
                    i = j;
                } else if (node.isValue()) {
                    out.add(value(node, positionKnown && isKeyPosition(position)));
                    position++;
                    i++;
                } else {
                    out.add(group(node, null));
                    i++;
                }
            }
            return out;
        }

        private Argument value(Node node, boolean atKeyPosition) {
            return new Argument(node.word, valueType(node.word, atKeyPosition), null, false, node.repeated, false,
                    List.of());
        }

        private Argument group(Node node, String token) {
            Argument arg;
            if (node.alternatives.size() == 1) {
                List<Argument> members = sequence(node.alternatives.get(0), false);
                if (members.size() == 1 && (token == null || members.get(0).token == null)) {
                    arg = token == null ? members.get(0) : members.get(0).withToken(token);
                } else {
                    arg = new Argument(token != null ? token.toLowerCase(Locale.ROOT) : joinedName(members), BLOCK,
                            token, false, false, false, members);
                }
            } else {
                List<Argument> branches = new ArrayList<>();
                for (List<Node> alternative : node.alternatives) {
                    List<Argument> members = sequence(alternative, false);
                    branches.add(members.size() == 1 ? members.get(0)
                            : new Argument(joinedName(members), BLOCK, null, false, false, false, members));
                }
                arg = new Argument(token != null ? token.toLowerCase(Locale.ROOT) : joinedName(branches), ONEOF,
                        token, false, false, false, branches);
            }
            return arg.withFlags(node.optional, node.repeated);
        }

        private boolean isKeyPosition(int position) {
            int first = spec.firstKey();
            int last = spec.lastKey();
            if (first <= 0 || position < first) {
                return false;
            }
            if (last >= 0 && position > last) {
                return false;
            }
            return (position - first) % spec.keyStep() == 0;
        }

        private String valueType(String name, boolean atKeyPosition) {
            if (atKeyPosition || name.equals(KEY) || name.endsWith(KEY)) {
                return KEY;
            }
            if (name.startsWith(UNIX_TIME)) {
                return UNIX_TIME;
            }
            if (name.equals(PATTERN)) {
                return PATTERN;
            }
            if (name.equals("increment")) {
                return spec.name().endsWith("float") ? DOUBLE : INTEGER;
            }
            if (name.equals("timeout")) {
                return spec.has(CommandFlags.BLOCKING) ? DOUBLE : INTEGER;
            }
            if (INTEGER_NAMES.contains(name)) {
                return INTEGER;
            }
            if (DOUBLE_NAMES.contains(name)) {
                return DOUBLE;
            }
            return STRING;
        }

        private static String joinedName(List<Argument> members) {
            StringBuilder sb = new StringBuilder();
            for (Argument member : members) {
                if (sb.length() > 0) {
                    sb.append('_');
                }
                sb.append(member.name);
            }
            return sb.toString();
        }
    }
}
