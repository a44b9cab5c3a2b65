package dev.ebb.bench.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class SvgLineChartTest {

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static String texts(Document doc) {
        StringBuilder all = new StringBuilder();
        NodeList texts = doc.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            all.append(texts.item(i).getTextContent()).append('|');
        }
        return all.toString();
    }

    @Test
    void renderShouldGiveWellFormedSvgWithOneLinePerSeriesAndALegend() throws Exception {
        SvgLineChart chart = new SvgLineChart("Stale keys <test>", "time (s)", "keys", false)
                .add("sampling", new double[] {0, 1, 2}, new double[] {0, 1500, 700})
                .add("exact", new double[] {0, 1, 2}, new double[] {0, 3, 1});

        Document doc = parse(chart.render());

        assertEquals(2, doc.getElementsByTagName("polyline").getLength());
        String texts = texts(doc);
        assertTrue(texts.contains("Stale keys <test>|"), texts);
        assertTrue(texts.contains("sampling|") && texts.contains("exact|"), texts);
        assertTrue(texts.contains("|1.5k|"), texts);
    }

    @Test
    void renderShouldBeDeterministic() {
        double[] xs = {0, 10, 20, 30};
        double[] ys = {5, 50, 500, 5000};

        String first = new SvgLineChart("t", "x", "y", true).add("a", xs, ys).render();
        String second = new SvgLineChart("t", "x", "y", true).add("a", xs, ys).render();

        assertEquals(first, second);
    }

    @Test
    void logScaleShouldTickAtPowersOfTen() throws Exception {
        Document doc = parse(new SvgLineChart("t", "x", "y", true)
                .add("a", new double[] {0, 1}, new double[] {0, 25_000}).render());

        String texts = texts(doc);

        assertTrue(texts.contains("|1|10|100|1k|10k|100k|"), texts);
        assertTrue(texts.contains("y (log scale)"), texts);
    }

    @Test
    void longSeriesShouldBeReducedToOnePointPerPixelColumnKeepingPeaks() throws Exception {
        int n = 100_000;
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = i;
            ys[i] = i == 54_321 ? 1000 : 1;
        }

        Document doc = parse(new SvgLineChart("t", "x", "y", false).add("a", xs, ys).render());
        String points = doc.getElementsByTagName("polyline").item(0).getAttributes().getNamedItem("points")
                .getTextContent();

        int count = points.split(" ").length;
        assertTrue(count <= 700, "points: " + count);
        assertTrue(points.contains(",44.0"), "the peak reaches the top of the plot: " + points.substring(0, 200));
    }

    @Test
    void addShouldRejectSeriesOfUnequalLength() {
        SvgLineChart chart = new SvgLineChart("t", "x", "y", false);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> chart.add("a", new double[] {1, 2}, new double[] {1}));

        assertEquals("a series needs as many x as y values, at least one: name=a, xs=2, ys=1", e.getMessage());
    }

    @Test
    void labelShouldAbbreviateThousandsAndMillions() {
        assertEquals("0", SvgLineChart.label(0));
        assertEquals("2.5", SvgLineChart.label(2.5));
        assertEquals("20k", SvgLineChart.label(20_000));
        assertEquals("1.5M", SvgLineChart.label(1_500_000));
    }
}
