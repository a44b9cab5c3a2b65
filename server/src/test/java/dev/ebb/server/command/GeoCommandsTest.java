package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.resp3Reply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.GeoCoordinate;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.GeoUnit;
import redis.clients.jedis.params.GeoAddParams;
import redis.clients.jedis.params.GeoRadiusParam;
import redis.clients.jedis.params.GeoRadiusStoreParam;
import redis.clients.jedis.params.GeoSearchParam;
import redis.clients.jedis.resps.GeoRadiusResponse;

/**
 * The geo commands through Jedis and raw RESP3, with the replies a real redis-server 7.2.4 gave
 * for the same points (Palermo and Catania of Redis's documentation); the full command-by-command
 * comparison is the conformance transcript {@code geo}.
 */
class GeoCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis client() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static void addSicily(Jedis j) {
        Map<String, GeoCoordinate> points = new LinkedHashMap<>();
        points.put("Palermo", new GeoCoordinate(13.361389, 38.115556));
        points.put("Catania", new GeoCoordinate(15.087269, 37.502669));
        points.put("Agrigento", new GeoCoordinate(13.583333, 37.316667));
        assertEquals(3, j.geoadd("Sicily", points));
    }

    @Test
    void geoaddShouldStoreGeohashScoresInAnOrdinarySortedSet() {
        try (Jedis j = client()) {
            addSicily(j);

            assertEquals("zset", j.type("Sicily"));
            assertEquals(3479099956230698.0, j.zscore("Sicily", "Palermo"));
            assertEquals(List.of("Agrigento", "Palermo", "Catania"), j.zrange("Sicily", 0, -1));
            assertEquals(0, j.geoadd("Sicily", GeoAddParams.geoAddParams().nx(),
                    Map.of("Palermo", new GeoCoordinate(0, 0))));
            assertEquals(1, j.geoadd("Sicily", GeoAddParams.geoAddParams().xx().ch(),
                    Map.of("Catania", new GeoCoordinate(15, 37), "nope", new GeoCoordinate(1, 1))));
            assertNull(j.zscore("Sicily", "nope"));
        }
    }

    @Test
    void geoaddShouldCheckEveryPairBeforeChangingAnything() {
        try (Jedis j = client()) {
            assertError("ERR invalid longitude,latitude pair 181.000000,0.000000",
                    () -> j.sendCommand(() -> "GEOADD".getBytes(), "g", "1", "1", "a", "181", "0", "b"));

            assertFalse(j.exists("g"));
            j.set("s", "x");
            assertError(Errors.WRONGTYPE, () -> j.geoadd("s", 1, 1, "a"));
        }
    }

    @Test
    void geodistGeoposAndGeohashShouldMatchRedis() {
        try (Jedis j = client()) {
            addSicily(j);

            assertEquals(166274.1516, j.geodist("Sicily", "Palermo", "Catania"));
            assertEquals(166.2742, j.geodist("Sicily", "Palermo", "Catania", GeoUnit.KM));
            assertEquals(103.3182, j.geodist("Sicily", "Palermo", "Catania", GeoUnit.MI));
            assertNull(j.geodist("Sicily", "Palermo", "nope"));
            List<GeoCoordinate> positions = j.geopos("Sicily", "Palermo", "nope");
            assertEquals(new GeoCoordinate(13.36138933897018433, 38.11555639549629859), positions.get(0));
            assertNull(positions.get(1));
            assertEquals(java.util.Arrays.asList("sqc8b49rny0", null), j.geohash("Sicily", "Palermo", "nope"));
        }
    }

    @Test
    void georadiusWithParamsShouldSortCountAndDecorate() {
        try (Jedis j = client()) {
            addSicily(j);

            List<GeoRadiusResponse> found = j.georadius("Sicily", 15, 37, 200, GeoUnit.KM,
                    GeoRadiusParam.geoRadiusParam().withDist().withCoord().withHash().sortAscending().count(2));

            assertEquals(2, found.size());
            assertEquals("Catania", found.get(0).getMemberByString());
            assertEquals(56.4413, found.get(0).getDistance());
            assertEquals(3479447370796909L, found.get(0).getRawScore());
            assertEquals(new GeoCoordinate(15.08726745843887329, 37.50266842333162032), found.get(0).getCoordinate());
            assertEquals("Agrigento", found.get(1).getMemberByString());
            assertEquals(130.4235, found.get(1).getDistance());
            assertEquals(List.of("Agrigento", "Palermo"), members(j.georadiusByMemberReadonly("Sicily", "Agrigento",
                    100, GeoUnit.KM, GeoRadiusParam.geoRadiusParam().sortAscending())));
        }
    }

    @Test
    void georadiusStoreShouldWriteScoresOrDistances() {
        try (Jedis j = client()) {
            addSicily(j);

            assertEquals(3, j.georadiusStore("Sicily", 15, 37, 200, GeoUnit.KM,
                    GeoRadiusParam.geoRadiusParam(), GeoRadiusStoreParam.geoRadiusStoreParam().store("hashes")));
            assertEquals(2, j.georadiusByMemberStore("Sicily", "Agrigento", 100, GeoUnit.KM,
                    GeoRadiusParam.geoRadiusParam(), GeoRadiusStoreParam.geoRadiusStoreParam().storeDist("dists")));

            assertEquals(3479099956230698.0, j.zscore("hashes", "Palermo"));
            assertEquals(0.0, j.zscore("dists", "Agrigento"));
            assertEquals(90.97775353799604, j.zscore("dists", "Palermo"));
            j.expire("hashes", 100);
            assertEquals(0, j.georadiusStore("Sicily", 15, 37, 1, GeoUnit.M,
                    GeoRadiusParam.geoRadiusParam(), GeoRadiusStoreParam.geoRadiusStoreParam().store("hashes")));
            assertFalse(j.exists("hashes"));
        }
    }

    @Test
    void geosearchShouldSearchCirclesAndBoxesFromMembersOrCoordinates() {
        try (Jedis j = client()) {
            addSicily(j);

            List<GeoRadiusResponse> circle = j.geosearch("Sicily", new GeoSearchParam()
                    .fromLonLat(15, 37).byRadius(200, GeoUnit.KM).withDist().desc());
            List<GeoRadiusResponse> box = j.geosearch("Sicily", new GeoSearchParam()
                    .fromMember("Agrigento").byBox(200, 50, GeoUnit.KM).asc());

            assertEquals(List.of("Palermo", "Agrigento", "Catania"), members(circle));
            assertEquals(190.4424, circle.get(0).getDistance());
            assertEquals(List.of("Agrigento"), members(box));
            assertEquals(3, j.geosearchStoreStoreDist("near", "Sicily", new GeoSearchParam()
                    .fromLonLat(15, 37).byRadius(200, GeoUnit.KM)));
            assertEquals(56.4412578701582, j.zscore("near", "Catania"));
            assertError("ERR exactly one of BYRADIUS and BYBOX can be specified for geosearch", () -> j.sendCommand(
                    () -> "geosearch".getBytes(), "Sicily", "fromlonlat", "15", "37", "asc", "withdist"));
            assertError("ERR COUNT must be > 0", () -> j.sendCommand(() -> "GEOSEARCH".getBytes(),
                    "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "COUNT", "0"));
        }
    }

    @Test
    void coordinatesShouldBeResp3DoublesAndDistancesBulkStrings() throws IOException {
        try (Jedis j = client()) {
            addSicily(j);
        }

        assertEquals("*2\r\n*2\r\n,13.36138933897018433\r\n,38.11555639549629859\r\n_\r\n",
                resp3Reply(ebb, "GEOPOS", "Sicily", "Palermo", "nope"));
        // COUNT 2 ANY: the first two found in scan order (Agrigento's cell, then Palermo), then sorted
        assertEquals("*2\r\n*4\r\n$9\r\nAgrigento\r\n$8\r\n130.4235\r\n:3479030013248308\r\n*2\r\n"
                + ",13.5833314061164856\r\n,37.31666804993816555\r\n*4\r\n$7\r\nPalermo\r\n$8\r\n190.4424\r\n"
                + ":3479099956230698\r\n*2\r\n,13.36138933897018433\r\n,38.11555639549629859\r\n",
                resp3Reply(ebb, "GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km",
                        "WITHDIST", "WITHHASH", "WITHCOORD", "ASC", "COUNT", "2", "ANY"));
        assertEquals("$11\r\n166274.1516\r\n", resp3Reply(ebb, "GEODIST", "Sicily", "Palermo", "Catania"));
    }

    @Test
    void searchesOfALargeSetShouldFindExactlyThePointsInsideTheShape() {
        Random random = new Random(42);
        List<double[]> points = new ArrayList<>();
        try (Jedis j = client()) {
            Map<String, GeoCoordinate> batch = new LinkedHashMap<>();
            for (int i = 0; i < 2000; i++) {
                double lon = 10 + random.nextDouble() * 10;
                double lat = 40 + random.nextDouble() * 10;
                batch.put("p" + i, new GeoCoordinate(lon, lat));
                double[] stored = GeoHash.decode(GeoHash.score(lon, lat));
                points.add(stored);
            }
            j.geoadd("many", batch);
            assertEquals("skiplist", j.objectEncoding("many"));

            for (int q = 0; q < 30; q++) {
                double lon = 11 + random.nextDouble() * 8;
                double lat = 41 + random.nextDouble() * 8;
                double radiusKm = 5 + random.nextDouble() * 200;
                TreeSet<String> expected = new TreeSet<>();
                for (int i = 0; i < points.size(); i++) {
                    if (GeoHash.distance(lon, lat, points.get(i)[0], points.get(i)[1]) <= radiusKm * 1000) {
                        expected.add("p" + i);
                    }
                }

                List<GeoRadiusResponse> found = j.geosearch("many",
                        new GeoSearchParam().fromLonLat(lon, lat).byRadius(radiusKm, GeoUnit.KM).withDist().asc());

                assertEquals(expected, new TreeSet<>(members(found)), "query " + q);
                for (int i = 1; i < found.size(); i++) {
                    assertTrue(found.get(i - 1).getDistance() <= found.get(i).getDistance());
                }
            }
        }
    }

    @Test
    void storeShouldReplaceTheDestinationAndItsTimeToLiveAndTouchWatchers() {
        try (Jedis j = client(); Jedis watcher = client()) {
            addSicily(j);
            j.set("dst", "a string");
            j.expire("dst", 1000);
            watcher.watch("dst");

            assertEquals(2, j.geosearchStore("dst", "Sicily", new GeoSearchParam()
                    .fromMember("Agrigento").byRadius(100, GeoUnit.KM)));

            assertEquals(-1, j.ttl("dst"));
            assertEquals(List.of("Agrigento", "Palermo"), j.zrange("dst", 0, -1));
            redis.clients.jedis.Transaction t = watcher.multi();
            t.get("x");
            assertNull(t.exec());
        }
    }

    @Test
    void aGeoSetShouldMoveAndRenameAsTheSortedSetItIs() {
        try (Jedis j = client()) {
            addSicily(j);

            j.rename("Sicily", "Island");
            assertEquals(1, j.move("Island", 1));
            j.select(1);

            assertEquals(166.2742, j.geodist("Island", "Palermo", "Catania", GeoUnit.KM));
            assertEquals(1, j.zrem("Island", "Palermo"));
            assertEquals(List.of("Catania"), members(j.georadius("Island", 15, 37, 100, GeoUnit.KM)));
        }
    }

    @Test
    void commandInfoShouldDeclareTheFamilyAsRedisDoes() {
        // arity, flags, first/last/step and ACL categories as redis-server 7.2.4 answers COMMAND INFO
        Map<String, String> redis = Map.of(
                "geoadd", "-5 [write, denyoom] 1 1 1 [@write, @geo, @slow]",
                "geodist", "-4 [readonly] 1 1 1 [@read, @geo, @slow]",
                "geohash", "-2 [readonly] 1 1 1 [@read, @geo, @slow]",
                "geopos", "-2 [readonly] 1 1 1 [@read, @geo, @slow]",
                "georadius", "-6 [write, denyoom, movablekeys] 1 1 1 [@write, @geo, @slow]",
                "georadius_ro", "-6 [readonly] 1 1 1 [@read, @geo, @slow]",
                "georadiusbymember", "-5 [write, denyoom, movablekeys] 1 1 1 [@write, @geo, @slow]",
                "georadiusbymember_ro", "-5 [readonly] 1 1 1 [@read, @geo, @slow]",
                "geosearch", "-7 [readonly] 1 1 1 [@read, @geo, @slow]",
                "geosearchstore", "-8 [write, denyoom] 1 2 1 [@write, @geo, @slow]");

        for (Map.Entry<String, String> e : redis.entrySet()) {
            CommandSpec spec = Commands.table().lookup(e.getKey().getBytes());
            String ebbInfo = spec.arity() + " " + List.of(CommandFlags.names(spec.flags())) + " " + spec.firstKey()
                    + " " + spec.lastKey() + " " + spec.keyStep() + " " + CommandDocs.aclCategories(spec);

            assertEquals(e.getValue(), ebbInfo, e.getKey());
        }
    }

    private static List<String> members(List<GeoRadiusResponse> found) {
        return found.stream().map(GeoRadiusResponse::getMemberByString).toList();
    }
}
