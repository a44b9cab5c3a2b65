package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.zset.ScoreRange;
import dev.ebb.storage.zset.SortedSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The geo commands. A geo set is an ordinary sorted set whose scores are 52-bit geohashes
 * ({@link GeoHash}), so ZRANGE, ZREM, TYPE, MOVE, RENAME and keyspace events treat it as the
 * zset it is. GEOADD computes the scores and hands them to ZADD's writing half
 * ({@link ZSetCommands#addScores}); GEORADIUS, GEORADIUSBYMEMBER, their _RO forms, GEOSEARCH and
 * GEOSEARCHSTORE all go through {@link #searchGeneric}, which parses as Redis's
 * georadiusGeneric (same order of checks, so the same error wins), scans the nine cells of
 * {@link GeoHash#searchBoxes}, sorts by distance and replies or stores.
 *
 * <p>Numbers are printed as Redis prints them: distances with four decimals (llrint of the value
 * times 10^4), coordinates as the long double text of addReplyHumanLongDouble (RESP3: a double),
 * hashes as integers. Runs on the command loop thread only.
 */
final class GeoCommands {
    private static final int SORT_NONE = 0;
    private static final int SORT_ASC = 1;
    private static final int SORT_DESC = 2;

    private static final int RADIUS_COORDS = 1;
    private static final int RADIUS_MEMBER = 1 << 1;
    private static final int RADIUS_NOSTORE = 1 << 2;
    private static final int GEOSEARCH = 1 << 3;
    private static final int GEOSEARCHSTORE = 1 << 4;

    private static final String UNSUPPORTED_UNIT = "ERR unsupported unit provided. please use M, KM, FT, MI";
    private static final String CANNOT_DECODE_MEMBER = "ERR could not decode requested zset member";

    private GeoCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.GEO;
        String radiusOptions = " [WITHCOORD] [WITHDIST] [WITHHASH] [COUNT count [ANY]] [ASC | DESC]";
        KeySpec source = KeySpec.atIndex(1, "RO", "access");
        KeySpec store = KeySpec.afterKeyword("STORE", 6, "OW", "update");
        KeySpec storeDist = KeySpec.afterKeyword("STOREDIST", 6, "OW", "update");
        KeySpec storeByMember = KeySpec.afterKeyword("STORE", 5, "OW", "update");
        KeySpec storeDistByMember = KeySpec.afterKeyword("STOREDIST", 5, "OW", "update");
        String searchFrom = "<FROMMEMBER member | FROMLONLAT longitude latitude>"
                + " <BYRADIUS radius <M | KM | FT | MI> | BYBOX width height <M | KM | FT | MI>> [ASC | DESC]"
                + " [COUNT count [ANY]]";
        return List.of(
                spec("geoadd", -5, WRITE | DENYOOM, 1, 1, 1, GeoCommands::geoadd)
                        .keySpecs(KeySpec.atIndex(1, "RW", "update"))
                        .doc(g, "3.2.0", "Adds one or more members to a geospatial index. The key is created if it"
                                + " doesn't exist.", "key [NX | XX] [CH] longitude latitude member"
                                + " [longitude latitude member ...]"),
                spec("geodist", -4, READONLY, 1, 1, 1, GeoCommands::geodist)
                        .doc(g, "3.2.0", "Returns the distance between two members of a geospatial index.",
                                "key member1 member2 [M | KM | FT | MI]"),
                spec("geohash", -2, READONLY, 1, 1, 1, GeoCommands::geohash)
                        .doc(g, "3.2.0", "Returns members from a geospatial index as geohash strings.",
                                "key [member [member ...]]"),
                spec("geopos", -2, READONLY, 1, 1, 1, GeoCommands::geopos)
                        .doc(g, "3.2.0", "Returns the longitude and latitude of members from a geospatial index.",
                                "key [member [member ...]]"),
                spec("georadius", -6, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1, GeoCommands::georadius)
                        .keySpecs(source, store, storeDist)
                        .doc(g, "3.2.0", "Queries a geospatial index for members within a distance from a"
                                + " coordinate, optionally stores the result.", "key longitude latitude radius"
                                + " <M | KM | FT | MI>" + radiusOptions + " [STORE key | STOREDIST key]"),
                spec("georadius_ro", -6, READONLY, 1, 1, 1, GeoCommands::georadiusRo)
                        .doc(g, "3.2.10", "Returns members from a geospatial index that are within a distance from"
                                + " a coordinate.", "key longitude latitude radius <M | KM | FT | MI>"
                                + radiusOptions),
                spec("georadiusbymember", -5, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1,
                        GeoCommands::georadiusbymember)
                        .keySpecs(source, storeByMember, storeDistByMember)
                        .doc(g, "3.2.0", "Queries a geospatial index for members within a distance from a member,"
                                + " optionally stores the result.", "key member radius <M | KM | FT | MI>"
                                + radiusOptions + " [STORE key | STOREDIST key]"),
                spec("georadiusbymember_ro", -5, READONLY, 1, 1, 1, GeoCommands::georadiusbymemberRo)
                        .doc(g, "3.2.10", "Returns members from a geospatial index that are within a distance from"
                                + " a member.", "key member radius <M | KM | FT | MI>" + radiusOptions),
                spec("geosearch", -7, READONLY, 1, 1, 1, GeoCommands::geosearch)
                        .doc(g, "6.2.0", "Queries a geospatial index for members inside an area of a box or a"
                                + " circle.", "key " + searchFrom + " [WITHCOORD] [WITHDIST] [WITHHASH]"),
                spec("geosearchstore", -8, WRITE | DENYOOM, 1, 2, 1, GeoCommands::geosearchstore)
                        .keySpecs(KeySpec.atIndex(1, "OW", "update"), KeySpec.atIndex(2, "RO", "access"))
                        .doc(g, "6.2.0", "Queries a geospatial index for members inside an area of a box or a"
                                + " circle, optionally stores the result.", "destination source " + searchFrom
                                + " [STOREDIST]"));
    }

    // ---------------------------------------------------------------- GEOADD

    /**
     * GEOADD key [NX|XX] [CH] longitude latitude member [...]: every pair is checked before the key
     * is looked at (a bad one changes nothing), then the members are added as ZADD would.
     */
    static void geoadd(Client c, byte[][] argv) {
        int flags = 0;
        int first = 2;
        for (; first < argv.length; first++) {
            if (Arguments.is(argv[first], "nx")) {
                flags |= SortedSet.NX;
            } else if (Arguments.is(argv[first], "xx")) {
                flags |= SortedSet.XX;
            } else if (Arguments.is(argv[first], "ch")) {
                flags |= ZSetCommands.CH;
            } else {
                break;
            }
        }
        int elements = (argv.length - first) / 3;
        if ((argv.length - first) % 3 != 0 || elements == 0
                || ((flags & SortedSet.NX) != 0 && (flags & SortedSet.XX) != 0)) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        double[] scores = new double[elements];
        byte[][] members = new byte[elements][];
        double[] xy = new double[2];
        for (int i = 0; i < elements; i++) {
            int at = first + 3 * i;
            if (!lonLatOrReply(c, argv[at], argv[at + 1], xy)) {
                return;
            }
            scores[i] = GeoHash.score(xy[0], xy[1]);
            members[i] = argv[at + 2];
        }
        ZSetCommands.addScores(c, argv[1], members, scores, flags);
    }

    // ---------------------------------------------------------------- GEODIST / GEOHASH / GEOPOS

    /** GEODIST key member1 member2 [unit]: the unit is checked before the key. */
    static void geodist(Client c, byte[][] argv) {
        double toMeters = 1;
        if (argv.length == 5) {
            toMeters = unitOrReply(c, argv[4]);
            if (toMeters < 0) {
                return;
            }
        } else if (argv.length > 5) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        double score1 = v == null ? Double.NaN : ((SortedSet) v).score(argv[2]);
        double score2 = v == null ? Double.NaN : ((SortedSet) v).score(argv[3]);
        if (Double.isNaN(score1) || Double.isNaN(score2)) {
            c.reply().nullBulk();
            return;
        }
        double[] a = GeoHash.decode(score1);
        double[] b = GeoHash.decode(score2);
        c.reply().bulk(distanceText(GeoHash.distance(a[0], a[1], b[0], b[1]) / toMeters));
    }

    static void geohash(Client c, byte[][] argv) {
        ZSetSupport.replyPerMember(c, argv, false, (w, score) -> w.bulk(GeoHash.standardGeohash(score)));
    }

    static void geopos(Client c, byte[][] argv) {
        ZSetSupport.replyPerMember(c, argv, true, (w, score) -> {
            double[] xy = GeoHash.decode(score);
            w.arrayHeader(2);
            coordinate(w, xy[0]);
            coordinate(w, xy[1]);
        });
    }

    // ---------------------------------------------------------------- searches

    static void georadius(Client c, byte[][] argv) {
        searchGeneric(c, argv, 1, RADIUS_COORDS);
    }

    static void georadiusRo(Client c, byte[][] argv) {
        searchGeneric(c, argv, 1, RADIUS_COORDS | RADIUS_NOSTORE);
    }

    static void georadiusbymember(Client c, byte[][] argv) {
        searchGeneric(c, argv, 1, RADIUS_MEMBER);
    }

    static void georadiusbymemberRo(Client c, byte[][] argv) {
        searchGeneric(c, argv, 1, RADIUS_MEMBER | RADIUS_NOSTORE);
    }

    static void geosearch(Client c, byte[][] argv) {
        searchGeneric(c, argv, 1, GEOSEARCH);
    }

    static void geosearchstore(Client c, byte[][] argv) {
        searchGeneric(c, argv, 2, GEOSEARCH | GEOSEARCHSTORE);
    }

    /** One point found by a search. */
    private record Found(byte[] member, double score, double lon, double lat, double distance) {
    }

    /**
     * The routine of every search command. {@code source} is the argv index of the geo set;
     * {@code flags} say which command's arguments to accept. The checks run in Redis's order: the
     * key's type, the fixed centre and radius of GEORADIUS*, each option left to right (a member
     * that is missing, a bad number or unit answers at once), then the combinations.
     */
    private static void searchGeneric(Client c, byte[][] argv, int source, int flags) {
        Object v = ZSetSupport.lookupRead(c, argv[source]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        SortedSet set = (SortedSet) v;
        byte[] storeKey = null;
        boolean storeDist = false;
        GeoHash.Shape shape = new GeoHash.Shape();
        double[] xy = new double[2];
        int base;
        if ((flags & RADIUS_COORDS) != 0) {
            base = 6;
            shape.circle = true;
            if (!lonLatOrReply(c, argv[2], argv[3], xy) || !radiusOrReply(c, argv[4], argv[5], shape)) {
                return;
            }
        } else if ((flags & RADIUS_MEMBER) != 0) {
            base = 5;
            // with no key Redis only parses the options, to know which empty reply to give
            if (set != null) {
                shape.circle = true;
                if (!memberPositionOrReply(c, set, argv[2], xy) || !radiusOrReply(c, argv[3], argv[4], shape)) {
                    return;
                }
            }
        } else {
            base = 2;
            if ((flags & GEOSEARCHSTORE) != 0) {
                base = 3;
                storeKey = argv[1];
            }
        }
        boolean withDist = false;
        boolean withHash = false;
        boolean withCoord = false;
        boolean fromMember = false;
        boolean fromLonLat = false;
        boolean byRadius = false;
        boolean byBox = false;
        boolean any = false;
        int sort = SORT_NONE;
        long count = 0;
        boolean search = (flags & GEOSEARCH) != 0;
        boolean storeAllowed = (flags & (RADIUS_NOSTORE | GEOSEARCH)) == 0;
        int n = argv.length;
        for (int i = base; i < n; i++) {
            byte[] a = argv[i];
            if (Arguments.is(a, "withdist")) {
                withDist = true;
            } else if (Arguments.is(a, "withhash")) {
                withHash = true;
            } else if (Arguments.is(a, "withcoord")) {
                withCoord = true;
            } else if (Arguments.is(a, "any")) {
                any = true;
            } else if (Arguments.is(a, "asc")) {
                sort = SORT_ASC;
            } else if (Arguments.is(a, "desc")) {
                sort = SORT_DESC;
            } else if (Arguments.is(a, "count") && i + 1 < n) {
                try {
                    count = Arguments.parseLong(argv[i + 1]);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return;
                }
                if (count <= 0) {
                    c.reply().error("ERR COUNT must be > 0");
                    return;
                }
                i++;
            } else if (Arguments.is(a, "store") && i + 1 < n && storeAllowed) {
                storeKey = argv[++i];
                storeDist = false;
            } else if (Arguments.is(a, "storedist") && i + 1 < n && storeAllowed) {
                storeKey = argv[++i];
                storeDist = true;
            } else if (Arguments.is(a, "storedist") && (flags & GEOSEARCHSTORE) != 0) {
                storeDist = true;
            } else if (Arguments.is(a, "frommember") && i + 1 < n && search && !fromLonLat) {
                if (set != null && !memberPositionOrReply(c, set, argv[i + 1], xy)) {
                    return;
                }
                fromMember = true;
                i++;
            } else if (Arguments.is(a, "fromlonlat") && i + 2 < n && search && !fromMember) {
                if (!lonLatOrReply(c, argv[i + 1], argv[i + 2], xy)) {
                    return;
                }
                fromLonLat = true;
                i += 2;
            } else if (Arguments.is(a, "byradius") && i + 2 < n && search && !byBox) {
                if (!radiusOrReply(c, argv[i + 1], argv[i + 2], shape)) {
                    return;
                }
                shape.circle = true;
                byRadius = true;
                i += 2;
            } else if (Arguments.is(a, "bybox") && i + 3 < n && search && !byRadius) {
                if (!boxOrReply(c, argv[i + 1], argv[i + 2], argv[i + 3], shape)) {
                    return;
                }
                shape.circle = false;
                byBox = true;
                i += 3;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        String name = new String(argv[0], StandardCharsets.ISO_8859_1);
        if (storeKey != null && (withDist || withHash || withCoord)) {
            c.reply().error("ERR " + ((flags & GEOSEARCHSTORE) != 0 ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS")
                    + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
            return;
        }
        if (search && !(fromMember || fromLonLat)) {
            c.reply().error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + name);
            return;
        }
        if (search && !(byRadius || byBox)) {
            c.reply().error("ERR exactly one of BYRADIUS and BYBOX can be specified for " + name);
            return;
        }
        if (any && count == 0) {
            c.reply().error("ERR the ANY argument requires COUNT argument");
            return;
        }
        if (set == null) {
            if (storeKey != null) {
                deleteStoreKey(c, storeKey);
                c.reply().integer(0);
            } else {
                c.reply().emptyArray();
            }
            return;
        }
        if (count != 0 && sort == SORT_NONE && !any) {
            sort = SORT_ASC;
        }
        shape.lon = xy[0];
        shape.lat = xy[1];
        List<Found> found = membersInShape(set, shape, any ? count : 0);
        if (found.isEmpty() && storeKey == null) {
            c.reply().emptyArray();
            return;
        }
        if (sort != SORT_NONE) {
            Comparator<Found> byDistance = Comparator.comparingDouble(Found::distance);
            found.sort(sort == SORT_ASC ? byDistance : byDistance.reversed());
        }
        int returned = (int) (count == 0 || found.size() < count ? found.size() : count);
        if (storeKey == null) {
            replyFound(c, found, returned, shape.conversion, withDist, withHash, withCoord);
        } else {
            store(c, storeKey, found, returned, shape.conversion, storeDist,
                    search ? "geosearchstore" : "georadiusstore");
        }
    }

    /**
     * The points of {@code set} inside {@code shape}, in the order Redis finds them: cell by cell
     * (skipping a cell equal to the last one scanned), ascending score within a cell, stopping
     * once {@code limit} are found (0: no limit; COUNT … ANY).
     */
    private static List<Found> membersInShape(SortedSet set, GeoHash.Shape shape, long limit) {
        GeoHash.Boxes boxes = GeoHash.searchBoxes(shape);
        long[] cells = boxes.cells();
        List<Found> found = new ArrayList<>();
        double[] point = new double[2];
        int lastProcessed = 0;
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] == GeoHash.EXCLUDED) {
                continue;
            }
            if (lastProcessed != 0 && cells[i] == cells[lastProcessed]) {
                continue;
            }
            if (limit != 0 && found.size() >= limit) {
                break;
            }
            ScoreRange range = new ScoreRange(boxes.minScore(i), false, boxes.maxScore(i), true);
            set.visitScoreRange(range, false, 0, -1, (member, score) -> {
                if (limit != 0 && found.size() >= limit) {
                    return;
                }
                GeoHash.decode(score, point);
                double distance = shape.distanceIfInside(point[0], point[1]);
                if (distance >= 0) {
                    found.add(new Found(member, score, point[0], point[1], distance));
                }
            });
            lastProcessed = i;
        }
        return found;
    }

    private static void replyFound(Client c, List<Found> found, int returned, double conversion,
            boolean withDist, boolean withHash, boolean withCoord) {
        int options = (withDist ? 1 : 0) + (withHash ? 1 : 0) + (withCoord ? 1 : 0);
        RespWriter w = c.reply();
        w.arrayHeader(returned);
        for (int i = 0; i < returned; i++) {
            Found f = found.get(i);
            if (options > 0) {
                w.arrayHeader(options + 1);
            }
            w.bulk(f.member());
            if (withDist) {
                w.bulk(distanceText(f.distance() / conversion));
            }
            if (withHash) {
                w.integer((long) f.score());
            }
            if (withCoord) {
                w.arrayHeader(2);
                coordinate(w, f.lon());
                coordinate(w, f.lat());
            }
        }
    }

    /**
     * STORE / STOREDIST / GEOSEARCHSTORE: a new sorted set of the first {@code returned} points,
     * scored by geohash or by distance in the unit, replacing {@code key} (and its time to live);
     * with nothing found the key is deleted.
     */
    private static void store(Client c, byte[] key, List<Found> found, int returned, double conversion,
            boolean storeDist, String event) {
        if (returned == 0) {
            deleteStoreKey(c, key);
            c.reply().integer(0);
            return;
        }
        long maxMemberLength = 0;
        for (int i = 0; i < returned; i++) {
            maxMemberLength = Math.max(maxMemberLength, found.get(i).member().length);
        }
        SortedSet result = ZSetSupport.create(c, returned, maxMemberLength);
        long maxEntries = ZSetSupport.maxEntries(c);
        long maxValue = ZSetSupport.maxValue(c);
        for (int i = 0; i < returned; i++) {
            Found f = found.get(i);
            result.add(f.member(), storeDist ? f.distance() / conversion : f.score(), 0, maxEntries, maxValue);
        }
        ZSetSupport.storeResult(c, key, result, event);
        c.reply().integer(returned);
    }

    private static void deleteStoreKey(Client c, byte[] key) {
        c.db().expireIfNeeded(key, c.server().nowMs());
        if (c.db().delete(key) != null) {
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
        }
    }

    // ---------------------------------------------------------------- arguments

    /**
     * Parses a longitude and latitude into {@code xy}; replies {@code ERR value is not a valid
     * float} or Redis's {@code ERR invalid longitude,latitude pair %f,%f} and returns false.
     */
    private static boolean lonLatOrReply(Client c, byte[] lon, byte[] lat, double[] xy) {
        xy[0] = ZSetSupport.scoreOrReply(c, lon);
        if (Double.isNaN(xy[0])) {
            return false;
        }
        xy[1] = ZSetSupport.scoreOrReply(c, lat);
        if (Double.isNaN(xy[1])) {
            return false;
        }
        if (xy[0] < GeoHash.LON_MIN || xy[0] > GeoHash.LON_MAX || xy[1] < GeoHash.LAT_MIN
                || xy[1] > GeoHash.LAT_MAX) {
            c.reply().error("ERR invalid longitude,latitude pair " + printfF(xy[0]) + "," + printfF(xy[1]));
            return false;
        }
        return true;
    }

    /** The position of {@code member} into {@code xy}; replies Redis's decode error if absent. */
    private static boolean memberPositionOrReply(Client c, SortedSet set, byte[] member, double[] xy) {
        double score = set.score(member);
        if (Double.isNaN(score)) {
            c.reply().error(CANNOT_DECODE_MEMBER);
            return false;
        }
        double[] point = GeoHash.decode(score);
        xy[0] = point[0];
        xy[1] = point[1];
        return true;
    }

    /** {@code radius unit} into the shape. */
    private static boolean radiusOrReply(Client c, byte[] radius, byte[] unit, GeoHash.Shape shape) {
        double r = ZSetSupport.parseScore(radius);
        if (Double.isNaN(r)) {
            c.reply().error("ERR need numeric radius");
            return false;
        }
        if (r < 0) {
            c.reply().error("ERR radius cannot be negative");
            return false;
        }
        shape.radius = r;
        shape.conversion = unitOrReply(c, unit);
        return shape.conversion >= 0;
    }

    /** {@code width height unit} into the shape. */
    private static boolean boxOrReply(Client c, byte[] width, byte[] height, byte[] unit, GeoHash.Shape shape) {
        double w = ZSetSupport.parseScore(width);
        if (Double.isNaN(w)) {
            c.reply().error("ERR need numeric width");
            return false;
        }
        double h = ZSetSupport.parseScore(height);
        if (Double.isNaN(h)) {
            c.reply().error("ERR need numeric height");
            return false;
        }
        if (h < 0 || w < 0) {
            c.reply().error("ERR height or width cannot be negative");
            return false;
        }
        shape.width = w;
        shape.height = h;
        shape.conversion = unitOrReply(c, unit);
        return shape.conversion >= 0;
    }

    /** Meters per unit (m, km, ft, mi, any case), or -1 after replying Redis's error. */
    private static double unitOrReply(Client c, byte[] unit) {
        if (Arguments.is(unit, "m")) {
            return 1;
        } else if (Arguments.is(unit, "km")) {
            return 1000;
        } else if (Arguments.is(unit, "ft")) {
            return 0.3048;
        } else if (Arguments.is(unit, "mi")) {
            return 1609.34;
        }
        c.reply().error(UNSUPPORTED_UNIT);
        return -1;
    }

    // ---------------------------------------------------------------- number text

    /**
     * A distance as Redis's fixedpoint_d2string with four decimals: the value times 10^4 rounded
     * to the nearest integer (ties to even, llrint), then written with the point put back.
     */
    static String distanceText(double d) {
        if (d == 0) {
            return "0.0000";
        }
        long scaled = (long) Math.rint(d * 10000.0);
        long magnitude = Math.abs(scaled);
        StringBuilder sb = new StringBuilder(24);
        if (scaled < 0) {
            sb.append('-');
        }
        sb.append(magnitude / 10000).append('.');
        String fraction = Long.toString(magnitude % 10000);
        sb.append("0000", fraction.length(), 4).append(fraction);
        return sb.toString();
    }

    /** A coordinate as addReplyHumanLongDouble: RESP2 the long double text as a bulk, RESP3 a double. */
    private static void coordinate(RespWriter w, double d) {
        byte[] text = LongDouble.of(d).toHumanBytes();
        if (w.protocol() == 3) {
            byte[] line = new byte[text.length + 3];
            line[0] = ',';
            System.arraycopy(text, 0, line, 1, text.length);
            line[line.length - 2] = '\r';
            line[line.length - 1] = '\n';
            w.raw(line);
        } else {
            w.bulk(text);
        }
    }

    /** C's {@code %f}: the exact binary value rounded to six decimals; "inf" and "-inf" for infinities. */
    static String printfF(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String text = new java.math.BigDecimal(d).setScale(6, java.math.RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        return negative && !text.startsWith("-") ? "-" + text : text;
    }
}
