package dev.ebb.server.command;

/**
 * The arithmetic of the geo commands, as Redis 7.2's geohash.c and geohash_helper.c define it, so
 * that scores, coordinates and distances agree with Redis's bit for bit.
 *
 * <p><b>Scores.</b> A point is stored in a sorted set under a 52-bit score: longitude and
 * latitude are each scaled to a 26-bit cell index over [-180, 180] and [-85.05112878,
 * 85.05112878] (the Web Mercator limits, so the poles cannot be stored), and the two indexes are
 * interleaved, latitude in the even bits and longitude in the odd ones. Decoding gives the centre
 * of the cell, so a point comes back within about 0.6 m of where it was put. A prefix of the
 * interleaved bits is a coarser cell, and every point of a cell of {@code step} bits per axis has
 * a score in one contiguous range: that is what makes a sorted set a spatial index.
 *
 * <p><b>Search.</b> {@link #searchBoxes} picks a step at which a cell is about as large as the
 * search radius, takes the cell of the centre and its eight neighbours, and drops the neighbours
 * the search's bounding box cannot reach; each remaining cell is one score range to scan, and
 * every point found is then tested exactly against the circle or box ({@link Shape#distanceIfInside}).
 * The neighbours of a cell at the antimeridian wrap around (the bit arithmetic is modular), while
 * at the latitude limits they wrap to the other side and are excluded by the bounding box test.
 * Cost: nine range look-ups, O(log n) each, plus one distance per candidate.
 *
 * <p><b>Distance.</b> The haversine on a sphere of Redis's radius, 6372797.560856 m; two points on
 * one meridian take the shortcut Redis takes (the latitude difference times the radius).
 *
 * <p>Pure functions on primitives; stateless and thread-safe.
 */
final class GeoHash {
    /** Bits per axis of a stored score (26 x 2 = 52, exact in a double). */
    static final int STEP_MAX = 26;
    static final double LON_MIN = -180;
    static final double LON_MAX = 180;
    static final double LAT_MIN = -85.05112878;
    static final double LAT_MAX = 85.05112878;
    /** Redis's earth radius in meters (the quadratic mean radius of WGS-84). */
    static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double MERCATOR_MAX = 20037726.37;
    private static final double D_R = Math.PI / 180.0;
    /** A neighbour excluded from the search (a real cell of step 1..26 is never negative). */
    static final long EXCLUDED = -1;

    private GeoHash() {
    }

    // ---------------------------------------------------------------- bits

    /** Interleaves the low 32 bits of x (even bits) and y (odd bits). */
    static long interleave(long xlo, long ylo) {
        long x = xlo & 0xFFFFFFFFL;
        long y = ylo & 0xFFFFFFFFL;
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        y = (y | (y << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
        y = (y | (y << 8)) & 0x00FF00FF00FF00FFL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y << 4)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x << 2)) & 0x3333333333333333L;
        y = (y | (y << 2)) & 0x3333333333333333L;
        x = (x | (x << 1)) & 0x5555555555555555L;
        y = (y | (y << 1)) & 0x5555555555555555L;
        return x | (y << 1);
    }

    /** The inverse of {@link #interleave}: even bits in the low 32 bits, odd bits in the high 32. */
    static long deinterleave(long interleaved) {
        long x = interleaved;
        long y = interleaved >>> 1;
        x = x & 0x5555555555555555L;
        y = y & 0x5555555555555555L;
        x = (x | (x >>> 1)) & 0x3333333333333333L;
        y = (y | (y >>> 1)) & 0x3333333333333333L;
        x = (x | (x >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x >>> 4)) & 0x00FF00FF00FF00FFL;
        y = (y | (y >>> 4)) & 0x00FF00FF00FF00FFL;
        x = (x | (x >>> 8)) & 0x0000FFFF0000FFFFL;
        y = (y | (y >>> 8)) & 0x0000FFFF0000FFFFL;
        x = (x | (x >>> 16)) & 0x00000000FFFFFFFFL;
        y = (y | (y >>> 16)) & 0x00000000FFFFFFFFL;
        return x | (y << 32);
    }

    // ---------------------------------------------------------------- encode / decode

    /**
     * The cell of {@code step} bits per axis holding the point, over the given ranges, or
     * {@link #EXCLUDED} if the point lies outside them or outside the Mercator limits.
     */
    static long encode(double lonMin, double lonMax, double latMin, double latMax, double lon, double lat, int step) {
        if (lon > LON_MAX || lon < LON_MIN || lat > LAT_MAX || lat < LAT_MIN
                || lat < latMin || lat > latMax || lon < lonMin || lon > lonMax) {
            return EXCLUDED;
        }
        double latOffset = (lat - latMin) / (latMax - latMin) * (1L << step);
        double lonOffset = (lon - lonMin) / (lonMax - lonMin) * (1L << step);
        return interleave((long) latOffset, (long) lonOffset);
    }

    /** The 52-bit score of a point inside the Mercator limits (GEOADD). */
    static long score(double lon, double lat) {
        return encode(LON_MIN, LON_MAX, LAT_MIN, LAT_MAX, lon, lat, STEP_MAX);
    }

    /** The cell {@code bits} of {@code step} bits per axis as {lon min, lon max, lat min, lat max}. */
    static double[] area(long bits, int step) {
        return area(LON_MIN, LON_MAX, LAT_MIN, LAT_MAX, bits, step);
    }

    private static double[] area(double lonMin, double lonMax, double latMin, double latMax, long bits, int step) {
        long separated = deinterleave(bits);
        long ilat = separated & 0xFFFFFFFFL;
        long ilon = separated >>> 32;
        double cells = 1L << step;
        double latScale = latMax - latMin;
        double lonScale = lonMax - lonMin;
        // (ilat + 1) is unsigned 32-bit arithmetic in Redis: it wraps
        return new double[] {
            lonMin + (ilon * 1.0 / cells) * lonScale,
            lonMin + (((ilon + 1) & 0xFFFFFFFFL) * 1.0 / cells) * lonScale,
            latMin + (ilat * 1.0 / cells) * latScale,
            latMin + (((ilat + 1) & 0xFFFFFFFFL) * 1.0 / cells) * latScale,
        };
    }

    /**
     * The point a sorted set score stands for: the centre of its 26-bit cell, clamped to the
     * Mercator limits, as {lon, lat}. Any score decodes (a score that GEOADD did not make gives
     * whatever its bits say, as in Redis).
     */
    static double[] decode(double score) {
        double[] xy = new double[2];
        decode(score, xy);
        return xy;
    }

    /** As {@link #decode(double)} into {@code xy} (a search decodes every candidate: no allocation). */
    static void decode(double score, double[] xy) {
        long separated = deinterleave(scoreBits(score));
        long ilat = separated & 0xFFFFFFFFL;
        long ilon = separated >>> 32;
        double cells = 1L << STEP_MAX;
        double lonScale = LON_MAX - LON_MIN;
        double latScale = LAT_MAX - LAT_MIN;
        // the same expressions as area(), so the same roundings
        double lonMin = LON_MIN + (ilon * 1.0 / cells) * lonScale;
        double lonMax = LON_MIN + (((ilon + 1) & 0xFFFFFFFFL) * 1.0 / cells) * lonScale;
        double latMin = LAT_MIN + (ilat * 1.0 / cells) * latScale;
        double latMax = LAT_MIN + (((ilat + 1) & 0xFFFFFFFFL) * 1.0 / cells) * latScale;
        xy[0] = Math.max(LON_MIN, Math.min(LON_MAX, (lonMin + lonMax) / 2));
        xy[1] = Math.max(LAT_MIN, Math.min(LAT_MAX, (latMin + latMax) / 2));
    }

    /**
     * C's (uint64_t) conversion of a score as x86-64 code does it, for sorted sets that ZADD
     * filled: below 2^63 a truncation (negative values wrap; the invalid result of cvttsd2si is
     * Long.MIN_VALUE, which Java's saturation gives too), from 2^63 the truncation of the score
     * less 2^63 with the top bit flipped, which is 0 from 2^64 and for infinity.
     */
    static long scoreBits(double score) {
        if (score >= 0x1p63) {
            double rest = score - 0x1p63;
            return rest >= 0x1p63 ? 0 : (long) rest ^ Long.MIN_VALUE;
        }
        return (long) score;
    }

    /**
     * The standard 11-character geohash of a score (GEOHASH): the point re-encoded over latitude
     * [-90, 90], 52 bits in ten base-32 characters, and a last character '0' for the bits Redis
     * does not have.
     */
    static String standardGeohash(double score) {
        double[] xy = decode(score);
        long bits = encode(-180, 180, -90, 90, xy[0], xy[1], STEP_MAX);
        String alphabet = "0123456789bcdefghjkmnpqrstuvwxyz";
        char[] text = new char[11];
        for (int i = 0; i < 10; i++) {
            text[i] = alphabet.charAt((int) ((bits >>> (52 - (i + 1) * 5)) & 0x1f));
        }
        text[10] = '0';
        return new String(text);
    }

    // ---------------------------------------------------------------- neighbours

    private static long moveX(long bits, int step, int d) {
        long x = bits & 0xaaaaaaaaaaaaaaaaL;
        long y = bits & 0x5555555555555555L;
        long zz = 0x5555555555555555L >>> (64 - step * 2);
        if (d > 0) {
            x = x + (zz + 1);
        } else {
            x = x | zz;
            x = x - (zz + 1);
        }
        x &= 0xaaaaaaaaaaaaaaaaL >>> (64 - step * 2);
        return x | y;
    }

    private static long moveY(long bits, int step, int d) {
        long x = bits & 0xaaaaaaaaaaaaaaaaL;
        long y = bits & 0x5555555555555555L;
        long zz = 0xaaaaaaaaaaaaaaaaL >>> (64 - step * 2);
        if (d > 0) {
            y = y + (zz + 1);
        } else {
            y = y | zz;
            y = y - (zz + 1);
        }
        y &= 0x5555555555555555L >>> (64 - step * 2);
        return x | y;
    }

    /** The neighbour of a cell {@code dx} cells east and {@code dy} cells north (each -1, 0 or 1). */
    static long neighbour(long bits, int step, int dx, int dy) {
        long moved = dx == 0 ? bits : moveX(bits, step, dx);
        return dy == 0 ? moved : moveY(moved, step, dy);
    }

    // ---------------------------------------------------------------- search

    /**
     * The step whose cells are about as large as {@code rangeMeters} at latitude {@code lat}, one
     * or two steps coarser towards the poles, within 1..26.
     */
    static int estimateStepsByRadius(double rangeMeters, double lat) {
        if (rangeMeters == 0) {
            return 26;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2;
        if (lat > 66 || lat < -66) {
            step--;
            if (lat > 80 || lat < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(26, step));
    }

    /**
     * The nine cells of a search, in Redis's order (centre, N, S, E, W, NE, NW, SE, SW), each a
     * cell of {@code step} bits per axis or {@link #EXCLUDED}. Immutable once built.
     */
    record Boxes(int step, long[] cells) {
        /** The lowest score inside cell {@code i}: its bits aligned to 52 bits. */
        long minScore(int i) {
            return cells[i] << (52 - step * 2);
        }

        /** The lowest score past cell {@code i} (exclusive bound): the next cell's aligned bits. */
        long maxScore(int i) {
            return (cells[i] + 1) << (52 - step * 2);
        }
    }

    /**
     * The cells to scan for {@code shape}, as Redis's geohashCalculateAreasByShapeWGS84: the step
     * estimated from the radius (or half-diagonal of a box), one step coarser if a side neighbour
     * does not reach the bounding box, then the neighbours on each side the centre cell already
     * covers up to the box's edge dropped. Fills the shape's bounds.
     */
    static Boxes searchBoxes(Shape shape) {
        shape.computeBounds();
        double radiusMeters = shape.circle ? shape.radius
                : Math.sqrt((shape.width / 2) * (shape.width / 2) + (shape.height / 2) * (shape.height / 2));
        radiusMeters *= shape.conversion;
        int steps = estimateStepsByRadius(radiusMeters, shape.lat);
        long[] cells = cellAndNeighbours(score(shape.lon, shape.lat, steps), steps);
        // If a neighbour does not reach the bounding box's edge, one step coarser cells are needed.
        double[] north = area(cells[1], steps);
        double[] south = area(cells[2], steps);
        double[] east = area(cells[3], steps);
        double[] west = area(cells[4], steps);
        boolean decrease = north[3] < shape.maxLat || south[2] > shape.minLat
                || east[1] < shape.maxLon || west[0] > shape.minLon;
        if (steps > 1 && decrease) {
            steps--;
            cells = cellAndNeighbours(score(shape.lon, shape.lat, steps), steps);
        }
        double[] area = area(cells[0], steps);
        if (steps >= 2) {
            if (area[2] < shape.minLat) {
                exclude(cells, 2, 7, 8); // south, south-east, south-west
            }
            if (area[3] > shape.maxLat) {
                exclude(cells, 1, 5, 6); // north, north-east, north-west
            }
            if (area[0] < shape.minLon) {
                exclude(cells, 4, 8, 6); // west, south-west, north-west
            }
            if (area[1] > shape.maxLon) {
                exclude(cells, 3, 7, 5); // east, south-east, north-east
            }
        }
        return new Boxes(steps, cells);
    }

    private static long score(double lon, double lat, int step) {
        return encode(LON_MIN, LON_MAX, LAT_MIN, LAT_MAX, lon, lat, step);
    }

    private static long[] cellAndNeighbours(long cell, int step) {
        return new long[] {
            cell,
            neighbour(cell, step, 0, 1),
            neighbour(cell, step, 0, -1),
            neighbour(cell, step, 1, 0),
            neighbour(cell, step, -1, 0),
            neighbour(cell, step, 1, 1),
            neighbour(cell, step, -1, 1),
            neighbour(cell, step, 1, -1),
            neighbour(cell, step, -1, -1),
        };
    }

    private static void exclude(long[] cells, int a, int b, int c) {
        cells[a] = EXCLUDED;
        cells[b] = EXCLUDED;
        cells[c] = EXCLUDED;
    }

    // ---------------------------------------------------------------- distance

    private static double degRad(double ang) {
        return ang * D_R;
    }

    private static double radDeg(double ang) {
        return ang / D_R;
    }

    /** Meters along a meridian between two latitudes. */
    static double latDistance(double lat1, double lat2) {
        return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2) - degRad(lat1));
    }

    /** Great-circle meters between two points (haversine), as Redis's geohashGetDistance. */
    static double distance(double lon1, double lat1, double lon2, double lat2) {
        return distanceWithin(lon1, lat1, lon2, lat2, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /**
     * {@link #distance}, or -1 when it exceeds {@code limit} meters. {@code sureOutside} is
     * {@link #sureOutside}{@code (limit)}: a haversine term above it means farther than the limit
     * for certain, and the arcsine (Java's costs about three times glibc's, and a search computes
     * one per candidate) is skipped. Any distance returned is the one {@link #distance} gives.
     */
    static double distanceWithin(double lon1, double lat1, double lon2, double lat2, double limit,
            double sureOutside) {
        double v = Math.sin((degRad(lon2) - degRad(lon1)) / 2);
        double d;
        if (v == 0.0) {
            d = latDistance(lat1, lat2);
        } else {
            double lat1r = degRad(lat1);
            double lat2r = degRad(lat2);
            double u = Math.sin((lat2r - lat1r) / 2);
            double a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
            if (a > sureOutside) {
                return -1;
            }
            d = 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
        }
        return d > limit ? -1 : d;
    }

    /**
     * The haversine term a (sin^2 of half the central angle) beyond which a distance is certainly
     * more than {@code limit} meters: sin^2(limit / 2R) raised by a relative 1e-9, which moves the
     * distance far more than the few ulps the float arithmetic can (the distance grows at least
     * half as fast as a, relatively). Infinite (no shortcut) for limits of a quarter of the
     * circumference or more.
     */
    static double sureOutside(double limit) {
        double halfAngle = limit / (2.0 * EARTH_RADIUS_IN_METERS);
        if (!(halfAngle < Math.PI / 4)) {
            return Double.POSITIVE_INFINITY;
        }
        double s = Math.sin(halfAngle);
        return s * s * (1 + 1e-9);
    }

    /**
     * A search area: a circle of {@code radius} or an axis-aligned box of {@code width} x
     * {@code height} (in the unit, {@code conversion} meters each) around {@code lon, lat}.
     * Mutable while a command builds it; confined to the command loop thread.
     */
    static final class Shape {
        boolean circle;
        double lon;
        double lat;
        double conversion;
        double radius;
        double width;
        double height;
        double minLon;
        double minLat;
        double maxLon;
        double maxLat;
        /** {@link GeoHash#sureOutside} of the radius or half width, worked out at the first point. */
        double sureOutside = Double.NaN;

        /**
         * The bounding box in degrees; the longitude span is taken at the latitude edge nearer the
         * pole, where a meter is more degrees.
         */
        void computeBounds() {
            double h = conversion * (circle ? radius : height / 2);
            double w = conversion * (circle ? radius : width / 2);
            double latDelta = radDeg(h / EARTH_RADIUS_IN_METERS);
            double lonDeltaTop = radDeg(w / EARTH_RADIUS_IN_METERS / Math.cos(degRad(lat + latDelta)));
            double lonDeltaBottom = radDeg(w / EARTH_RADIUS_IN_METERS / Math.cos(degRad(lat - latDelta)));
            boolean southern = lat < 0;
            minLon = southern ? lon - lonDeltaBottom : lon - lonDeltaTop;
            maxLon = southern ? lon + lonDeltaBottom : lon + lonDeltaTop;
            minLat = lat - latDelta;
            maxLat = lat + latDelta;
        }

        /**
         * The distance in meters from the centre to the point, or -1 if the point is outside: for
         * a box, outside means more than half the height along the meridian or more than half the
         * width along the point's parallel.
         */
        double distanceIfInside(double pointLon, double pointLat) {
            if (circle) {
                double limit = radius * conversion;
                if (Double.isNaN(sureOutside)) {
                    sureOutside = sureOutside(limit);
                }
                return distanceWithin(lon, lat, pointLon, pointLat, limit, sureOutside);
            }
            if (latDistance(pointLat, lat) > height * conversion / 2) {
                return -1;
            }
            double halfWidth = width * conversion / 2;
            if (Double.isNaN(sureOutside)) {
                sureOutside = sureOutside(halfWidth);
            }
            if (distanceWithin(pointLon, pointLat, lon, pointLat, halfWidth, sureOutside) < 0) {
                return -1;
            }
            return distance(lon, lat, pointLon, pointLat);
        }
    }
}
