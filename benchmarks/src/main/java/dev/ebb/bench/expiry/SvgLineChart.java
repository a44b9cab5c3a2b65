package dev.ebb.bench.expiry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A minimal line chart written as standalone SVG text, so the benchmarks module draws its own
 * charts without a plotting tool: title, axis labels, "nice" ticks (1, 2, 2.5, 5 times a power of ten,
 * or powers of ten on a log scale), a grid, one coloured polyline per series and a legend.
 *
 * <p>Series longer than the plot is wide are reduced to one point per pixel column holding the
 * column's maximum, so spikes survive. Each series is drawn thinner than the previous one, so
 * series that coincide remain visible as a coloured edge. On a log scale, values below 1 are drawn at 1.
 * Output is deterministic (fixed number formatting), so equal data gives byte-equal files.
 */
final class SvgLineChart {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 440;
    private static final int LEFT = 80;
    private static final int RIGHT = 190;
    private static final int TOP = 44;
    private static final int BOTTOM = 56;
    private static final int TARGET_TICKS = 6;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f"};

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();

    SvgLineChart(String title, String xLabel, String yLabel, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logY = logY;
    }

    /** Adds a series; {@code xs} and {@code ys} are read when {@link #render} runs. */
    SvgLineChart add(String name, double[] xs, double[] ys) {
        if (xs.length != ys.length || xs.length == 0) {
            throw new IllegalArgumentException("a series needs as many x as y values, at least one: name=" + name
                    + ", xs=" + xs.length + ", ys=" + ys.length);
        }
        if (series.size() == COLOURS.length) {
            throw new IllegalStateException("at most " + COLOURS.length + " series: name=" + name);
        }
        series.add(new Series(name, xs, ys));
        return this;
    }

    String render() {
        if (series.isEmpty()) {
            throw new IllegalStateException("no series to draw: title=" + title);
        }
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        double maxY = 0;
        for (Series s : series) {
            for (int i = 0; i < s.xs.length; i++) {
                minX = Math.min(minX, s.xs[i]);
                maxX = Math.max(maxX, s.xs[i]);
                maxY = Math.max(maxY, s.ys[i]);
            }
        }
        if (maxX == minX) {
            maxX = minX + 1;
        }
        if (minX > 0 && minX <= (maxX - minX) / 20) {
            minX = 0;
        }
        Axis x = Axis.linear(minX, maxX, false);
        Axis y = logY ? Axis.log(maxY) : Axis.linear(0, maxY <= 0 ? 1 : maxY, true);
        StringBuilder svg = new StringBuilder(64 * 1024);
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(title)));
        drawGrid(svg, x, y);
        for (int i = 0; i < series.size(); i++) {
            drawSeries(svg, series.get(i), COLOURS[i], strokeWidth(i), x, y);
            drawLegendEntry(svg, series.get(i).name, COLOURS[i], i);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void drawGrid(StringBuilder svg, Axis x, Axis y) {
        int plotRight = WIDTH - RIGHT;
        int plotBottom = HEIGHT - BOTTOM;
        for (double tick : x.ticks) {
            double px = px(x, tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>%n",
                    px, TOP, px, plotBottom));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    px, plotBottom + 18, label(tick)));
        }
        for (double tick : y.ticks) {
            double py = py(y, tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>%n",
                    LEFT, py, plotRight, py));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 6, py + 4, label(tick)));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, plotRight - LEFT, plotBottom - TOP));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                (LEFT + plotRight) / 2, HEIGHT - 14, escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(18,%d) rotate(-90)\" text-anchor=\"middle\">"
                + "%s</text>%n", (TOP + plotBottom) / 2, escape(yLabel + (logY ? " (log scale)" : ""))));
    }

    /** Each series is drawn thinner than the one before, so a line hidden under a later one still shows. */
    private static double strokeWidth(int index) {
        return Math.max(1.1, 2.6 - 0.5 * index);
    }

    private void drawSeries(StringBuilder svg, Series s, String colour, double width, Axis x, Axis y) {
        int columns = WIDTH - RIGHT - LEFT;
        StringBuilder points = new StringBuilder(s.xs.length * 12);
        int column = -1;
        double columnMax = 0;
        for (int i = 0; i < s.xs.length; i++) {
            double px = px(x, s.xs[i]);
            int c = (int) Math.round(px - LEFT);
            if (s.xs.length > columns && c == column) {
                columnMax = Math.max(columnMax, s.ys[i]);
                continue;
            }
            if (column >= 0) {
                appendPoint(points, LEFT + column, py(y, columnMax));
            }
            column = c;
            columnMax = s.ys[i];
        }
        appendPoint(points, LEFT + column, py(y, columnMax));
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
                + "stroke-linejoin=\"round\" points=\"%s\"/>%n", colour, width, points.toString().trim()));
    }

    private void drawLegendEntry(StringBuilder svg, String name, String colour, int index) {
        int lx = WIDTH - RIGHT + 16;
        int ly = TOP + 10 + index * 20;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"%.1f\"/>%n", lx, ly, lx + 22, ly, colour, Math.max(2.5, strokeWidth(index))));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 28, ly + 4, escape(name)));
    }

    private static void appendPoint(StringBuilder points, double px, double py) {
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
    }

    private static double px(Axis x, double value) {
        return LEFT + (value - x.min) / (x.max - x.min) * (WIDTH - RIGHT - LEFT);
    }

    private double py(Axis y, double value) {
        double v = logY ? Math.log10(Math.max(1, value)) : value;
        double lo = logY ? Math.log10(y.min) : y.min;
        double hi = logY ? Math.log10(y.max) : y.max;
        return HEIGHT - BOTTOM - (v - lo) / (hi - lo) * (HEIGHT - BOTTOM - TOP);
    }

    /** Tick labels: integers with k / M suffixes, or one decimal below 10. */
    static String label(double value) {
        double abs = Math.abs(value);
        if (abs >= 1_000_000) {
            return trim(value / 1_000_000) + "M";
        }
        if (abs >= 1_000) {
            return trim(value / 1_000) + "k";
        }
        return trim(value);
    }

    private static String trim(double value) {
        String s = String.format(Locale.ROOT, "%.1f", value);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private record Series(String name, double[] xs, double[] ys) {
    }

    /** An axis range and its tick values. */
    private record Axis(double min, double max, double[] ticks) {
        /** Ticks at multiples of a nice step; the axis ends at {@code max}, or at the next tick if {@code roundUp}. */
        static Axis linear(double min, double max, boolean roundUp) {
            double step = niceStep((max - min) / TARGET_TICKS);
            double first = Math.ceil(min / step) * step;
            double top = roundUp ? Math.ceil(max / step) * step : max;
            int count = (int) Math.floor((top - first) / step + 1e-9) + 1;
            double[] ticks = new double[count];
            for (int i = 0; i < count; i++) {
                ticks[i] = first + i * step;
            }
            return new Axis(Math.min(min, first), top, ticks);
        }

        static Axis log(double max) {
            int decades = Math.max(1, (int) Math.ceil(Math.log10(Math.max(10, max))));
            double[] ticks = new double[decades + 1];
            for (int i = 0; i <= decades; i++) {
                ticks[i] = Math.pow(10, i);
            }
            return new Axis(1, ticks[decades], ticks);
        }

        /** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code raw}. */
        static double niceStep(double raw) {
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double fraction = raw / magnitude;
            double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
            return nice * magnitude;
        }
    }
}
