package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The geohash arithmetic against values a real redis-server 7.2.4 produced (scores, coordinates,
 * distances and geohash strings of the same points), and its invariants.
 */
class GeoHashTest {

    @Test
    void interleaveShouldRoundTripThroughDeinterleave() {
        Random random = new Random(16);
        for (int i = 0; i < 10_000; i++) {
            long x = random.nextInt() & 0xFFFFFFFFL;
            long y = random.nextInt() & 0xFFFFFFFFL;

            long separated = GeoHash.deinterleave(GeoHash.interleave(x, y));

            assertEquals(x, separated & 0xFFFFFFFFL);
            assertEquals(y, separated >>> 32);
        }
    }

    @Test
    void scoreShouldBeRedisFiftyTwoBitGeohash() {
        assertEquals(3479099956230698L, GeoHash.score(13.361389, 38.115556));
        assertEquals(3479447370796909L, GeoHash.score(15.087269, 37.502669));
        assertEquals(3479030013248308L, GeoHash.score(13.583333, 37.316667));
    }

    @Test
    void decodeShouldGiveTheCentreOfTheCellAsRedisPrintsIt() {
        double[] palermo = GeoHash.decode(3479099956230698.0);

        assertEquals("13.36138933897018433", human(palermo[0]));
        assertEquals("38.11555639549629859", human(palermo[1]));
    }

    @Test
    void decodeShouldClampToTheMercatorLimits() {
        double[] corner = GeoHash.decode(GeoHash.score(180, 85.05112878));

        assertEquals("180", human(corner[0]));
        assertEquals("85.0511287799999991", human(corner[1]));
        double[] southWest = GeoHash.decode(GeoHash.score(-180, -85.05112878));
        assertEquals("-179.99999731779098511", human(southWest[0]));
        assertEquals("-85.05112751263942528", human(southWest[1]));
    }

    @Test
    void scoresGeoaddDidNotMakeShouldDecodeAsRedisOnX86() {
        // ZADD z -1 a 1e20 b 1e300 e 9.3e18 f -1e30 g inf h -inf i, then GEOPOS, in redis-server 7.2.4
        assertEquals("180 85.0511287799999991", position(-1));
        assertEquals("-179.99999731779098511 -85.05112751263942528", position(1e20));
        assertEquals("-179.99999731779098511 -85.05112751263942528", position(1e300));
        assertEquals("180 85.0511287799999991", position(9.3e18));
        assertEquals("180 -85.05112751263942528", position(-1e30));
        assertEquals("180 -85.05112751263942528", position(Double.NEGATIVE_INFINITY));
        assertEquals("-179.99999731779098511 -85.05112751263942528", position(Double.POSITIVE_INFINITY));
    }

    private static String position(double score) {
        double[] xy = GeoHash.decode(score);
        return human(xy[0]) + " " + human(xy[1]);
    }

    @Test
    void standardGeohashShouldMatchRedis() {
        assertEquals("sqc8b49rny0", GeoHash.standardGeohash(GeoHash.score(13.361389, 38.115556)));
        assertEquals("s0000000000", GeoHash.standardGeohash(GeoHash.score(0, 0)));
        assertEquals("pbzurypzje0", GeoHash.standardGeohash(GeoHash.score(179.9999, -85)));
    }

    @Test
    void distanceShouldBeRedisHaversine() {
        double[] palermo = GeoHash.decode(GeoHash.score(13.361389, 38.115556));
        double[] catania = GeoHash.decode(GeoHash.score(15.087269, 37.502669));

        double meters = GeoHash.distance(palermo[0], palermo[1], catania[0], catania[1]);

        assertEquals("166274.1516", GeoCommands.distanceText(meters));
        assertEquals("166.2742", GeoCommands.distanceText(meters / 1000));
        assertEquals("545518.8700", GeoCommands.distanceText(meters / 0.3048));
    }

    @Test
    void distanceWithinShouldDecideExactlyAsComparingTheFullDistance() {
        Random random = new Random(3);
        for (int i = 0; i < 200_000; i++) {
            double lon1 = random.nextDouble() * 360 - 180;
            double lat1 = random.nextDouble() * 170 - 85;
            double scale = Math.pow(10, -6 + random.nextInt(9));
            double lon2 = Math.max(-180, Math.min(180, lon1 + (random.nextDouble() - 0.5) * scale * 100));
            double lat2 = Math.max(-85, Math.min(85, lat1 + (random.nextDouble() - 0.5) * scale * 100));
            double d = GeoHash.distance(lon1, lat1, lon2, lat2);
            // limits at the distance itself, a hair either side, and random ones
            double[] limits = {d, Math.nextDown(d), Math.nextUp(d), d * (1 - 1e-12), d * 2 * random.nextDouble()};
            for (double limit : limits) {
                double expected = d > limit ? -1 : d;

                double actual = GeoHash.distanceWithin(lon1, lat1, lon2, lat2, limit, GeoHash.sureOutside(limit));

                assertEquals(expected, actual, () -> lon1 + "," + lat1 + " " + lon2 + "," + lat2 + " limit " + limit);
            }
        }
    }

    @Test
    void distanceOnOneMeridianShouldBeTheLatitudeArc() {
        double meters = GeoHash.distance(10, 0, 10, 1);

        assertEquals(GeoHash.EARTH_RADIUS_IN_METERS * Math.PI / 180, meters, 1e-6);
        assertEquals(meters, GeoHash.latDistance(0, 1));
    }

    @Test
    void distanceTextShouldRoundAsLlrintWithFourDecimals() {
        assertEquals("0.0000", GeoCommands.distanceText(0));
        assertEquals("0.0001", GeoCommands.distanceText(6.0642951598391699e-05));
        assertEquals("0.0000", GeoCommands.distanceText(0.00001));
        assertEquals("0.0100", GeoCommands.distanceText(0.01));
        assertEquals("1.0000", GeoCommands.distanceText(0.99995));
        assertEquals("12345.6789", GeoCommands.distanceText(12345.6789));
    }

    @Test
    void printfFShouldPrintTheExactBinaryValueToSixDecimals() {
        assertEquals("181.000000", GeoCommands.printfF(181));
        assertEquals("-85.051129", GeoCommands.printfF(-85.05112879));
        assertEquals("-180.000001", GeoCommands.printfF(-180.000001));
        assertEquals("inf", GeoCommands.printfF(Double.POSITIVE_INFINITY));
        assertEquals("-0.000000", GeoCommands.printfF(-0.0000001));
        assertEquals("100000000000000005250476025520442024870446858110815915491585411551180245798890819578637137"
                + "5080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788"
                + "0900593689532349707999450811190389676408800746527427801424945792587888200568428381156694"
                + "72196386865459400540160.000000", GeoCommands.printfF(1e300));
    }

    @Test
    void neighboursShouldWrapAroundTheAntimeridian() {
        int step = 4;
        long eastEdge = GeoHash.encode(-180, 180, GeoHash.LAT_MIN, GeoHash.LAT_MAX, 179.9, 0, step);
        long westEdge = GeoHash.encode(-180, 180, GeoHash.LAT_MIN, GeoHash.LAT_MAX, -179.9, 0, step);

        assertEquals(westEdge, GeoHash.neighbour(eastEdge, step, 1, 0));
        assertEquals(eastEdge, GeoHash.neighbour(westEdge, step, -1, 0));
        long north = GeoHash.neighbour(eastEdge, step, 0, 1);
        assertEquals(eastEdge, GeoHash.neighbour(north, step, 0, -1));
    }

    @Test
    void estimatedStepShouldShrinkWithRadiusAndTowardsThePoles() {
        assertEquals(26, GeoHash.estimateStepsByRadius(0, 0));
        assertEquals(1, GeoHash.estimateStepsByRadius(20_000_000, 0));
        int equator = GeoHash.estimateStepsByRadius(1000, 0);
        assertEquals(equator - 1, GeoHash.estimateStepsByRadius(1000, 70));
        assertEquals(equator - 2, GeoHash.estimateStepsByRadius(1000, -81));
    }

    @Test
    void searchBoxesShouldCoverTheBoundingBoxAwayFromThePoles() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            GeoHash.Shape shape = new GeoHash.Shape();
            shape.circle = true;
            shape.conversion = 1000;
            shape.radius = 1 + random.nextDouble() * 500;
            shape.lon = random.nextDouble() * 340 - 170;
            shape.lat = random.nextDouble() * 120 - 60;

            GeoHash.Boxes boxes = GeoHash.searchBoxes(shape);

            // every corner and edge midpoint of the bounding box lies in a cell that is scanned
            double[] lons = {shape.minLon, shape.lon, shape.maxLon};
            double[] lats = {shape.minLat, shape.lat, shape.maxLat};
            for (double lon : lons) {
                for (double lat : lats) {
                    long cell = GeoHash.encode(-180, 180, GeoHash.LAT_MIN, GeoHash.LAT_MAX, lon, lat, boxes.step());
                    assertTrue(contains(boxes.cells(), cell), () -> "uncovered " + lon + "," + lat);
                }
            }
        }
    }

    @Test
    void searchBoxesShouldExcludeNeighboursBeyondTheBoundingBox() {
        GeoHash.Shape shape = new GeoHash.Shape();
        shape.circle = true;
        shape.conversion = 1;
        shape.radius = 1;
        shape.lon = 13.361389;
        shape.lat = 38.115556;

        GeoHash.Boxes boxes = GeoHash.searchBoxes(shape);

        long scanned = java.util.Arrays.stream(boxes.cells()).filter(c -> c != GeoHash.EXCLUDED).count();
        assertTrue(scanned < 9, () -> "scanned " + scanned);
        assertNotEquals(GeoHash.EXCLUDED, boxes.cells()[0]);
    }

    @Test
    void boxShapeShouldTestHalfWidthAlongTheParallelAndHalfHeightAlongTheMeridian() {
        GeoHash.Shape box = new GeoHash.Shape();
        box.conversion = 1000;
        box.width = 200;
        box.height = 100;
        box.lon = 0;
        box.lat = 0;

        assertTrue(box.distanceIfInside(0.89, 0) >= 0);
        assertEquals(-1, box.distanceIfInside(0.91, 0));
        assertTrue(box.distanceIfInside(0, 0.44) >= 0);
        assertEquals(-1, box.distanceIfInside(0, 0.46));
    }

    private static boolean contains(long[] cells, long cell) {
        for (long c : cells) {
            if (c == cell) {
                return true;
            }
        }
        return false;
    }

    private static String human(double d) {
        return new String(LongDouble.of(d).toHumanBytes(), StandardCharsets.US_ASCII);
    }
}
