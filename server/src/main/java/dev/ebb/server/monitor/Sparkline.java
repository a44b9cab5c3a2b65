package dev.ebb.server.monitor;

/**
 * The ASCII sparkline LATENCY GRAPH draws, as Redis's sparkline.c renders it with its fill option:
 * each sample is a column, {@code rows} rows high; a column's height is its value's share of the
 * sequence's range (min to max) in steps of a third of a row, drawn with {@code _ o #} for the top
 * of the column and {@code |} below it, and each column's label is written vertically underneath
 * it after one blank row. Sequences longer than {@code columns} are drawn in several bands.
 *
 * <p>Costs: O(samples × (rows + longest label)) characters. Not thread-safe: one per graph.
 */
final class Sparkline {
    private static final String FILL = "_o#";
    private static final int LABEL_MARGIN_TOP = 1;

    private final double[] values;
    private final String[] labels;
    private int length;
    private int labelCount;
    private double min;
    private double max;

    Sparkline(int capacity) {
        values = new double[capacity];
        labels = new String[capacity];
    }

    /** Adds a sample; an empty label is no label. */
    void add(double value, String label) {
        if (length == 0) {
            min = value;
            max = value;
        } else if (value < min) {
            min = value;
        } else if (value > max) {
            max = value;
        }
        values[length] = value;
        labels[length] = label == null || label.isEmpty() ? null : label;
        if (labels[length] != null) {
            labelCount++;
        }
        length++;
    }

    /** Appends the graph, in bands of at most {@code columns} samples, each {@code rows} high. */
    void render(StringBuilder out, int columns, int rows) {
        for (int from = 0; from < length; from += columns) {
            if (from != 0) {
                out.append('\n');
            }
            renderRange(out, rows, from, Math.min(columns, length - from));
        }
    }

    private void renderRange(StringBuilder out, int rows, int offset, int len) {
        double range = max - min == 0 ? 1 : max - min;
        int steps = FILL.length() * rows;
        char[] line = new char[len];
        for (int row = 0; ; row++) {
            boolean more = false;
            java.util.Arrays.fill(line, ' ');
            for (int j = 0; j < len; j++) {
                int at = offset + j;
                if (row < rows) {
                    int step = (int) ((values[at] - min) * steps / range);
                    step = Math.max(0, Math.min(steps - 1, step));
                    int charIndex = step - (rows - row - 1) * FILL.length();
                    more = true;
                    if (charIndex >= 0 && charIndex < FILL.length()) {
                        line[j] = FILL.charAt(charIndex);
                    } else if (charIndex >= FILL.length()) {
                        line[j] = '|';
                    }
                } else {
                    if (labelCount > 0 && row - rows < LABEL_MARGIN_TOP) {
                        more = true;
                        break;
                    }
                    String label = labels[at];
                    int labelChar = row - rows - LABEL_MARGIN_TOP;
                    if (label != null && label.length() > labelChar) {
                        more = true;
                        line[j] = label.charAt(labelChar);
                    }
                }
            }
            if (!more) {
                return;
            }
            out.append(line).append('\n');
        }
    }
}
