package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * LOLWUT [VERSION v] [args …]: Redis's computer art, chosen by version as redis-server 7.2.4
 * chooses it. Version 5 is Georg Nees's "Schotter" (a grid of squares, ever more rotated and
 * displaced down the rows) drawn on a pixel canvas and printed as Braille characters, two by four
 * pixels each; version 6 is a city skyline of three layers of buildings printed as ANSI-coloured
 * spaces. Any other version, and no version (7.2.4 is neither 5 nor 6), prints only
 * {@code Redis ver. 7.2.4}. The art is random, as in Redis; sizes are clamped to Redis's limits so
 * the command stays cheap. Replies are verbatim text in RESP3.
 */
final class LolwutCommand {
    private LolwutCommand() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(spec("lolwut", -1, READONLY | FAST, 0, 0, 0, LolwutCommand::lolwut)
                .doc(CommandGroup.SERVER, "5.0.0", "Displays computer art and the Redis version", "[VERSION version]")
                .complexity(""));
    }

    static void lolwut(Client c, byte[][] argv) {
        long version = 0;
        int first = 1;
        if (argv.length >= 3 && Arguments.is(argv[1], "version")) {
            if (!Arguments.isLongOrReply(c, argv[2])) {
                return;
            }
            version = Arguments.parseLong(argv[2]);
            first = 3;
        }
        // Redis prints the version as "%u.0.0" and looks at its first characters.
        long major = version & 0xffffffffL;
        String art;
        if (major == 5) {
            art = schotterOrReply(c, argv, first);
        } else if (major == 6) {
            art = skylineOrReply(c, argv, first);
        } else {
            art = "";
        }
        if (art != null) {
            c.reply().verbatim(art + (art.isEmpty() ? "" : "\n") + signature(major));
        }
    }

    private static String signature(long major) {
        String version = "Redis ver. " + Server.REDIS_VERSION + "\n";
        if (major == 5) {
            return "Georg Nees - schotter, plotter on paper, 1968. " + version;
        } else if (major == 6) {
            return "Dedicated to the 8 bit game developers of past and present.\n"
                    + "Original 8 bit image from Plaguemon by hikikomori. " + version;
        }
        return version;
    }

    /** The optional numeric arguments from {@code first} on, or null after replying an error. */
    private static long[] numbersOrReply(Client c, byte[][] argv, int first, long... defaults) {
        long[] values = defaults.clone();
        for (int i = 0; i < values.length && first + i < argv.length; i++) {
            if (!Arguments.isLongOrReply(c, argv[first + i])) {
                return null;
            }
            values[i] = Arguments.parseLong(argv[first + i]);
        }
        return values;
    }

    private static int clamp(long v, int max) {
        return (int) Math.max(1, Math.min(max, v));
    }

    // ---------------------------------------------------------------- version 5: Schotter

    private static String schotterOrReply(Client c, byte[][] argv, int first) {
        long[] args = numbersOrReply(c, argv, first, 66, 8, 12);
        if (args == null) {
            return null;
        }
        int columns = clamp(args[0], 1000);
        int perRow = clamp(args[1], 200);
        int perColumn = clamp(args[2], 200);
        Random random = ThreadLocalRandom.current();

        int width = columns * 2;
        int padding = width > 4 ? 2 : 0;
        float side = (float) (width - padding * 2) / perRow;
        Canvas canvas = new Canvas(width, (int) (side * perColumn + padding * 2), 0);
        for (int y = 0; y < perColumn; y++) {
            for (int x = 0; x < perRow; x++) {
                int cx = (int) (x * side + side / 2 + padding);
                int cy = (int) (y * side + side / 2 + padding);
                float angle = 0;
                if (y > 1) {
                    float turn = jitter(random, perColumn, y);
                    float dx = jitter(random, perColumn, y);
                    float dy = jitter(random, perColumn, y);
                    angle = random.nextBoolean() ? -turn : turn;
                    cx = (int) (cx + (random.nextBoolean() ? -dx : dx) * side / 3);
                    cy = (int) (cy + (random.nextBoolean() ? -dy : dy) * side / 3);
                }
                canvas.square(cx, cy, side, angle);
            }
        }
        return canvas.braille();
    }

    /** A random share of {@code row / rows}: how far down the grid the disorder has grown. */
    private static float jitter(Random random, int rows, int row) {
        return random.nextFloat() / rows * row;
    }

    // ---------------------------------------------------------------- version 6: skyline

    private static final int BLACK = 0;
    private static final int DARK_GRAY = 1;
    private static final int LIGHT_GRAY = 2;
    private static final int WHITE = 3;

    private static String skylineOrReply(Client c, byte[][] argv, int first) {
        long[] args = numbersOrReply(c, argv, first, 80, 20);
        if (args == null) {
            return null;
        }
        Canvas canvas = new Canvas(clamp(args[0], 1000), clamp(args[1], 1000), WHITE);
        Random random = ThreadLocalRandom.current();
        int h = canvas.height;
        // Two layers of windowless buildings, the lighter behind, then black ones with windows.
        for (int color = LIGHT_GRAY; color >= DARK_GRAY; color--) {
            for (int x = -10; x < canvas.width; ) {
                x += random.nextInt(8);
                int width = 10 + random.nextInt(9);
                int height = h / 2 + (color == LIGHT_GRAY ? random.nextInt(h) / 2 : random.nextInt(h) / 3);
                canvas.building(x, width, height, color, false, random);
                x += color == LIGHT_GRAY ? width / 2 : width + 1;
            }
        }
        for (int x = -10; x < canvas.width; ) {
            x += random.nextInt(8);
            int width = 5 + random.nextInt(14);
            if (width % 4 != 0) {
                width += width % 3;
            }
            canvas.building(x, width, h / 3 + random.nextInt(h) / 2, BLACK, true, random);
            x += width + 5;
        }
        return canvas.ansi();
    }

    /** A grid of pixels, each a small colour number; drawing outside it is ignored. */
    private static final class Canvas {
        final int width;
        final int height;
        final byte[] pixels;

        Canvas(int width, int height, int background) {
            this.width = width;
            this.height = height;
            this.pixels = new byte[width * height];
            java.util.Arrays.fill(pixels, (byte) background);
        }

        void set(int x, int y, int color) {
            if (x >= 0 && x < width && y >= 0 && y < height) {
                pixels[x + y * width] = (byte) color;
            }
        }

        int get(int x, int y) {
            return x >= 0 && x < width && y >= 0 && y < height ? pixels[x + y * width] : 0;
        }

        /** Bresenham's line from (x1, y1) to (x2, y2), both ends included. */
        void line(int x1, int y1, int x2, int y2) {
            int dx = Math.abs(x2 - x1);
            int dy = Math.abs(y2 - y1);
            int sx = x1 < x2 ? 1 : -1;
            int sy = y1 < y2 ? 1 : -1;
            int err = dx - dy;
            while (true) {
                set(x1, y1, 1);
                if (x1 == x2 && y1 == y2) {
                    return;
                }
                int e2 = err * 2;
                if (e2 > -dy) {
                    err -= dy;
                    x1 += sx;
                }
                if (e2 < dx) {
                    err += dx;
                    y1 += sy;
                }
            }
        }

        /** The outline of a square of side {@code side} centred on (x, y), turned by {@code angle} radians. */
        void square(int x, int y, float side, float angle) {
            double radius = Math.round(side / 1.4142135623);
            int[] px = new int[4];
            int[] py = new int[4];
            double k = Math.PI / 4 + angle;
            for (int j = 0; j < 4; j++, k += Math.PI / 2) {
                px[j] = (int) Math.round(Math.sin(k) * radius + x);
                py[j] = (int) Math.round(Math.cos(k) * radius + y);
            }
            for (int j = 0; j < 4; j++) {
                line(px[j], py[j], px[(j + 1) % 4], py[(j + 1) % 4]);
            }
        }

        /**
         * A building standing on the bottom row from column {@code x}: its roof two pixels narrower on
         * each side, and with {@code windows}, two-pixel-wide windows of a random gray every other row.
         */
        void building(int x, int w, int h, int color, boolean windows, Random random) {
            int bottom = height - 1;
            int top = bottom - h + 1;
            for (int y = bottom; y >= top; y--) {
                for (int px = x; px < x + w; px++) {
                    if (y == top && (px <= x + 1 || px >= x + w - 2)) {
                        continue;
                    }
                    int pixel = color;
                    if (windows && px > x + 1 && px < x + w - 2 && y > top + 1 && y < bottom - 1) {
                        int relX = px - (x + 1);
                        int relY = y - (top + 1);
                        if ((relX / 2) % 2 != 0 && relY % 2 != 0) {
                            pixel = relX % 2 != 0 ? get(px - 1, y) : DARK_GRAY + random.nextInt(2);
                        }
                    }
                    set(px, y, pixel);
                }
            }
        }

        /** Each two by four pixels as one Braille character (U+2800 plus the dot bits), rows joined by newlines. */
        String braille() {
            StringBuilder out = new StringBuilder();
            for (int y = 0; y < height; y += 4) {
                for (int x = 0; x < width; x += 2) {
                    int dots = bit(x, y, 0) | bit(x, y + 1, 1) | bit(x, y + 2, 2) | bit(x + 1, y, 3)
                            | bit(x + 1, y + 1, 4) | bit(x + 1, y + 2, 5) | bit(x, y + 3, 6) | bit(x + 1, y + 3, 7);
                    out.append((char) (0x2800 + dots));
                }
                if (y != height - 1) {
                    out.append('\n');
                }
            }
            return out.toString();
        }

        private int bit(int x, int y, int bit) {
            return get(x, y) != 0 ? 1 << bit : 0;
        }

        /** Each pixel as a space with ANSI foreground and background colours, rows joined by newlines. */
        String ansi() {
            String[] escapes = {"0;30;40m", "0;90;100m", "0;37;47m", "0;97;107m"};
            StringBuilder out = new StringBuilder();
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    out.append("\033[").append(escapes[get(x, y)]).append(" \033[0m");
                }
                if (y != height - 1) {
                    out.append('\n');
                }
            }
            return out.toString();
        }
    }
}
