package dev.ebb.server.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Lua 5.1's syntax errors, worded as its compiler words them: {@code user_script:1: '=' expected
 * near '<eof>'}, {@code unexpected symbol near '@'}, {@code 'end' expected (to close 'if' at line
 * 1) near '<eof>'}, {@code unfinished string near ''abc'}, {@code malformed number near '1.2.3'}.
 * LuaJ's compiler (a Lua 5.2 one) finds the same errors but words them its own way ({@code syntax
 * error}, {@code unexpected symbol 286}) and names no token.
 *
 * <p>Used only once LuaJ has refused a script: this is a checking-only copy of the structure of
 * Lua 5.1's llex.c and lparser.c (a recursive descent over the same grammar, making the same checks
 * in the same order, with no code generation), so the first error it meets is the one Lua reports.
 * The limits Lua checks while generating code (too many locals, upvalues, syntax levels, constants)
 * are not modelled: for those, and for any script it finds no error in, the caller keeps LuaJ's
 * message. O(length of the script). Not thread-safe: one instance per check.
 */
final class Lua51Syntax {
    // Token kinds: single characters are their own code; these follow.
    private static final int FIRST_RESERVED = 257;
    private static final String[] RESERVED = {"and", "break", "do", "else", "elseif", "end", "false", "for",
        "function", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"};
    private static final int AND = 257, BREAK = 258, DO = 259, ELSE = 260, ELSEIF = 261, END = 262, FALSE = 263,
            FOR = 264, FUNCTION = 265, IF = 266, IN = 267, LOCAL = 268, NIL = 269, NOT = 270, OR = 271, REPEAT = 272,
            RETURN = 273, THEN = 274, TRUE = 275, UNTIL = 276, WHILE = 277, CONCAT = 278, DOTS = 279, EQ = 280,
            GE = 281, LE = 282, NE = 283, NUMBER = 284, NAME = 285, STRING = 286, EOS = 287;
    private static final String[] NAMES = {"..", "...", "==", ">=", "<=", "~=", "<number>", "<name>", "<string>", "<eof>"};
    private static final int EOZ = -1;

    /** A syntax error; its message is Lua's, position included. */
    private static final class SyntaxError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SyntaxError(String message) {
            super(message, null, false, false);
        }
    }

    private final byte[] src;
    private final String chunk;
    private int pos;
    private int current;
    private int line = 1;
    private int lastLine = 1;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    // The current token and the lookahead (token kind and text), as Lua's LexState.
    private int token;
    private String text;
    private int aheadToken = EOS;
    private String aheadText;
    private boolean hasAhead;
    // Per function: whether it is vararg; per block: whether it can be broken out of.
    private final Deque<Boolean> varargFunctions = new ArrayDeque<>();
    private final Deque<Integer> breakable = new ArrayDeque<>();
    private static final int PLAIN_BLOCK = 0;
    private static final int LOOP = 1;
    private static final int FUNCTION_BODY = 2;

    private Lua51Syntax(byte[] src, String chunk) {
        this.src = src;
        this.chunk = chunk;
        this.current = src.length > 0 ? src[0] & 0xff : EOZ;
    }

    /** Lua 5.1's message for the first syntax error of {@code src}, or null when it finds none. */
    static String firstError(byte[] src, String chunk) {
        Lua51Syntax s = new Lua51Syntax(src, chunk);
        try {
            s.skipShebang();
            s.next();
            s.varargFunctions.push(true);
            s.breakable.push(PLAIN_BLOCK);
            s.chunk();
            s.check(EOS);
            return null;
        } catch (SyntaxError e) {
            return e.getMessage();
        } catch (RuntimeException | StackOverflowError e) {
            return null; // nesting deeper than the Java stack: LuaJ's message stands
        }
    }

    private void skipShebang() {
        if (current == '#') {
            while (current != '\n' && current != '\r' && current != EOZ) {
                advance();
            }
        }
    }

    // ---- lexer (llex.c) ----

    private void advance() {
        pos++;
        current = pos < src.length ? src[pos] & 0xff : EOZ;
    }

    private void save(int c) {
        buffer.write(c);
    }

    private void saveAndNext() {
        save(current);
        advance();
    }

    private boolean isNewline() {
        return current == '\n' || current == '\r';
    }

    private void newline() {
        int old = current;
        advance();
        if (isNewline() && current != old) {
            advance();
        }
        line++;
    }

    private SyntaxError lexError(String message, int tok) {
        String near = tok == 0 ? "" : " near '" + tokenText(tok) + "'";
        return new SyntaxError(chunk + ":" + line + ": " + message + near);
    }

    /** What Lua prints for a token in "near '...'": the text read for names, strings and numbers. */
    private String tokenText(int tok) {
        if (tok == NAME || tok == STRING || tok == NUMBER) {
            return new String(buffer.toByteArray(), StandardCharsets.ISO_8859_1);
        }
        return token2str(tok);
    }

    private static String token2str(int tok) {
        if (tok < FIRST_RESERVED) {
            return String.valueOf((char) tok);
        }
        return tok <= WHILE ? RESERVED[tok - FIRST_RESERVED] : NAMES[tok - CONCAT];
    }

    private void next() {
        lastLine = line;
        if (hasAhead) {
            hasAhead = false;
            token = aheadToken;
            text = aheadText;
        } else {
            token = lex();
            text = tokenText(token);
        }
    }

    private void lookahead() {
        aheadToken = lex();
        aheadText = tokenText(aheadToken);
        hasAhead = true;
    }

    private int lex() {
        buffer.reset();
        while (true) {
            switch (current) {
                case '\n':
                case '\r':
                    newline();
                    continue;
                case '-':
                    advance();
                    if (current != '-') {
                        return '-';
                    }
                    advance();
                    if (current == '[') {
                        int sep = skipSep();
                        buffer.reset();
                        if (sep >= 0) {
                            longString(false, sep);
                            buffer.reset();
                            continue;
                        }
                    }
                    while (!isNewline() && current != EOZ) {
                        advance();
                    }
                    continue;
                case '[': {
                    int sep = skipSep();
                    if (sep >= 0) {
                        longString(true, sep);
                        return STRING;
                    } else if (sep == -1) {
                        return '[';
                    }
                    throw lexError("invalid long string delimiter", STRING);
                }
                case '=':
                    advance();
                    return current == '=' ? twoChar(EQ) : '=';
                case '<':
                    advance();
                    return current == '=' ? twoChar(LE) : '<';
                case '>':
                    advance();
                    return current == '=' ? twoChar(GE) : '>';
                case '~':
                    advance();
                    return current == '=' ? twoChar(NE) : '~';
                case '"':
                case '\'':
                    readString(current);
                    return STRING;
                case '.':
                    saveAndNext();
                    if (current == '.') {
                        saveAndNext();
                        if (current == '.') {
                            saveAndNext();
                            return DOTS;
                        }
                        return CONCAT;
                    }
                    if (!isDigit(current)) {
                        return '.';
                    }
                    readNumeral();
                    return NUMBER;
                case EOZ:
                    return EOS;
                default:
                    if (current == ' ' || current == '\t' || current == 0x0b || current == '\f') {
                        advance();
                        continue;
                    }
                    if (isDigit(current)) {
                        readNumeral();
                        return NUMBER;
                    }
                    if (isAlpha(current) || current == '_') {
                        do {
                            saveAndNext();
                        } while (isAlpha(current) || isDigit(current) || current == '_');
                        String word = new String(buffer.toByteArray(), StandardCharsets.ISO_8859_1);
                        for (int i = 0; i < RESERVED.length; i++) {
                            if (RESERVED[i].equals(word)) {
                                return FIRST_RESERVED + i;
                            }
                        }
                        return NAME;
                    }
                    int c = current;
                    advance();
                    return c;
            }
        }
    }

    private int twoChar(int tok) {
        advance();
        return tok;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAlpha(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private int skipSep() {
        int count = 0;
        int s = current;
        saveAndNext();
        while (current == '=') {
            saveAndNext();
            count++;
        }
        return current == s ? count : (-count) - 1;
    }

    private void longString(boolean isString, int sep) {
        saveAndNext();
        if (isNewline()) {
            newline();
        }
        while (true) {
            switch (current) {
                case EOZ:
                    throw lexError(isString ? "unfinished long string" : "unfinished long comment", EOS);
                case '[':
                    if (skipSep() == sep) {
                        saveAndNext();
                        if (sep == 0) {
                            throw lexError("nesting of [[...]] is deprecated", '[');
                        }
                    }
                    break;
                case ']':
                    if (skipSep() == sep) {
                        saveAndNext();
                        return;
                    }
                    break;
                case '\n':
                case '\r':
                    save('\n');
                    newline();
                    if (!isString) {
                        buffer.reset();
                    }
                    break;
                default:
                    if (isString) {
                        saveAndNext();
                    } else {
                        advance();
                    }
            }
        }
    }

    private void readString(int delimiter) {
        saveAndNext();
        while (current != delimiter) {
            switch (current) {
                case EOZ:
                    throw lexError("unfinished string", EOS);
                case '\n':
                case '\r':
                    throw lexError("unfinished string", STRING);
                case '\\': {
                    advance();
                    int c;
                    switch (current) {
                        case 'a': c = 7; break;
                        case 'b': c = '\b'; break;
                        case 'f': c = '\f'; break;
                        case 'n': c = '\n'; break;
                        case 'r': c = '\r'; break;
                        case 't': c = '\t'; break;
                        case 'v': c = 0x0b; break;
                        case '\n':
                        case '\r':
                            save('\n');
                            newline();
                            continue;
                        case EOZ:
                            continue;
                        default:
                            if (!isDigit(current)) {
                                saveAndNext();
                                continue;
                            }
                            c = 0;
                            int i = 0;
                            do {
                                c = 10 * c + (current - '0');
                                advance();
                            } while (++i < 3 && isDigit(current));
                            if (c > 255) {
                                throw lexError("escape sequence too large", STRING);
                            }
                            save(c);
                            continue;
                    }
                    save(c);
                    advance();
                    continue;
                }
                default:
                    saveAndNext();
            }
        }
        saveAndNext();
    }

    private void readNumeral() {
        do {
            saveAndNext();
        } while (isDigit(current) || current == '.');
        if (current == 'E' || current == 'e') {
            saveAndNext();
            if (current == '+' || current == '-') {
                saveAndNext();
            }
        }
        while (isAlpha(current) || isDigit(current) || current == '_') {
            saveAndNext();
        }
        byte[] b = buffer.toByteArray();
        if (LuaNumbers.parse(b, 0, b.length) == null) {
            throw lexError("malformed number", NUMBER);
        }
    }

    // ---- parser (lparser.c) ----

    private SyntaxError syntaxError(String message) {
        return new SyntaxError(chunk + ":" + line + ": " + message + " near '" + text + "'");
    }

    private SyntaxError expected(int tok) {
        return syntaxError("'" + token2str(tok) + "' expected");
    }

    private void check(int tok) {
        if (token != tok) {
            throw expected(tok);
        }
    }

    private void checkNext(int tok) {
        check(tok);
        next();
    }

    private boolean testNext(int tok) {
        if (token == tok) {
            next();
            return true;
        }
        return false;
    }

    private void checkMatch(int what, int who, int where) {
        if (!testNext(what)) {
            if (where == line) {
                throw expected(what);
            }
            throw syntaxError("'" + token2str(what) + "' expected (to close '" + token2str(who) + "' at line " + where + ")");
        }
    }

    private void checkName() {
        check(NAME);
        next();
    }

    private static boolean blockFollow(int tok) {
        return tok == ELSE || tok == ELSEIF || tok == END || tok == UNTIL || tok == EOS;
    }

    private void chunk() {
        boolean last = false;
        while (!last && !blockFollow(token)) {
            last = statement();
            testNext(';');
        }
    }

    private void block(boolean loop) {
        breakable.push(loop ? LOOP : PLAIN_BLOCK);
        chunk();
        breakable.pop();
    }

    private boolean statement() {
        int at = line;
        switch (token) {
            case IF:
                next();
                expr();
                checkNext(THEN);
                block(false);
                while (token == ELSEIF) {
                    next();
                    expr();
                    checkNext(THEN);
                    block(false);
                }
                if (testNext(ELSE)) {
                    block(false);
                }
                checkMatch(END, IF, at);
                return false;
            case WHILE:
                next();
                expr();
                checkNext(DO);
                block(true);
                checkMatch(END, WHILE, at);
                return false;
            case DO:
                next();
                block(false);
                checkMatch(END, DO, at);
                return false;
            case FOR:
                forStatement(at);
                return false;
            case REPEAT:
                next();
                block(true);
                checkMatch(UNTIL, REPEAT, at);
                expr();
                return false;
            case FUNCTION:
                next();
                checkName();
                while (token == '.') {
                    next();
                    checkName();
                }
                if (token == ':') {
                    next();
                    checkName();
                }
                body(at);
                return false;
            case LOCAL:
                next();
                if (testNext(FUNCTION)) {
                    checkName();
                    body(at);
                } else {
                    do {
                        checkName();
                    } while (testNext(','));
                    if (testNext('=')) {
                        exprList();
                    }
                }
                return false;
            case RETURN:
                next();
                if (!blockFollow(token) && token != ';') {
                    exprList();
                }
                return true;
            case BREAK:
                next();
                if (!inLoop()) {
                    throw syntaxError("no loop to break");
                }
                return true;
            default:
                int kind = primaryExpr();
                if (kind != CALL) {
                    assignment(kind);
                }
                return false;
        }
    }

    /** Whether a loop encloses the current position within the current function. */
    private boolean inLoop() {
        for (int b : breakable) {
            if (b != PLAIN_BLOCK) {
                return b == LOOP;
            }
        }
        return false;
    }

    private void forStatement(int at) {
        next();
        checkName();
        switch (token) {
            case '=':
                next();
                expr();
                checkNext(',');
                expr();
                if (testNext(',')) {
                    expr();
                }
                break;
            case ',':
            case IN:
                while (testNext(',')) {
                    checkName();
                }
                checkNext(IN);
                exprList();
                break;
            default:
                throw syntaxError("'=' or 'in' expected");
        }
        checkNext(DO);
        block(true);
        checkMatch(END, FOR, at);
    }

    private void body(int at) {
        checkNext('(');
        boolean vararg = false;
        if (token != ')') {
            do {
                if (token == NAME) {
                    next();
                } else if (token == DOTS) {
                    next();
                    vararg = true;
                } else {
                    throw syntaxError("<name> or '...' expected");
                }
            } while (!vararg && testNext(','));
        }
        checkNext(')');
        varargFunctions.push(vararg);
        breakable.push(FUNCTION_BODY);
        chunk();
        breakable.pop();
        varargFunctions.pop();
        checkMatch(END, FUNCTION, at);
    }

    private static final int OTHER = 0;
    private static final int VAR = 1;
    private static final int CALL = 2;

    private void assignment(int kind) {
        if (kind != VAR) {
            throw syntaxError("syntax error");
        }
        if (testNext(',')) {
            assignment(primaryExpr());
        } else {
            checkNext('=');
            exprList();
        }
    }

    private void exprList() {
        expr();
        while (testNext(',')) {
            expr();
        }
    }

    private int primaryExpr() {
        int kind;
        switch (token) {
            case NAME:
                next();
                kind = VAR;
                break;
            case '(': {
                int at = line;
                next();
                expr();
                checkMatch(')', '(', at);
                kind = OTHER;
                break;
            }
            default:
                throw syntaxError("unexpected symbol");
        }
        while (true) {
            switch (token) {
                case '.':
                    next();
                    checkName();
                    kind = VAR;
                    break;
                case '[':
                    next();
                    expr();
                    checkNext(']');
                    kind = VAR;
                    break;
                case ':':
                    next();
                    checkName();
                    funcArgs();
                    kind = CALL;
                    break;
                case '(':
                case STRING:
                case '{':
                    funcArgs();
                    kind = CALL;
                    break;
                default:
                    return kind;
            }
        }
    }

    private void funcArgs() {
        int at = line;
        switch (token) {
            case '(':
                if (at != lastLine) {
                    throw syntaxError("ambiguous syntax (function call x new statement)");
                }
                next();
                if (token != ')') {
                    exprList();
                }
                checkMatch(')', '(', at);
                return;
            case '{':
                constructor();
                return;
            case STRING:
                next();
                return;
            default:
                throw syntaxError("function arguments expected");
        }
    }

    private void constructor() {
        int at = line;
        checkNext('{');
        do {
            if (token == '}') {
                break;
            }
            if (token == NAME) {
                lookahead();
                if (aheadToken != '=') {
                    expr();
                } else {
                    next();
                    checkNext('=');
                    expr();
                }
            } else if (token == '[') {
                next();
                expr();
                checkNext(']');
                checkNext('=');
                expr();
            } else {
                expr();
            }
        } while (testNext(',') || testNext(';'));
        checkMatch('}', '{', at);
    }

    private void expr() {
        if (token == NOT || token == '-' || token == '#') {
            next();
            expr();
            return;
        }
        simpleExpr();
        while (isBinary(token)) {
            next();
            if (token == NOT || token == '-' || token == '#') {
                next();
                expr();
                return;
            }
            simpleExpr();
        }
    }

    private static boolean isBinary(int tok) {
        switch (tok) {
            case '+': case '-': case '*': case '/': case '%': case '^': case CONCAT: case NE: case EQ:
            case '<': case LE: case '>': case GE: case AND: case OR:
                return true;
            default:
                return false;
        }
    }

    private void simpleExpr() {
        switch (token) {
            case NUMBER:
            case STRING:
            case NIL:
            case TRUE:
            case FALSE:
                next();
                return;
            case DOTS:
                if (!varargFunctions.peek()) {
                    throw syntaxError("cannot use '...' outside a vararg function");
                }
                next();
                return;
            case '{':
                constructor();
                return;
            case FUNCTION: {
                int at = line;
                next();
                body(at);
                return;
            }
            default:
                primaryExpr();
        }
    }
}
