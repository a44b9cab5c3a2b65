# Sourced by the scripts that run Ebb beside the reference redis-server: where each binary is.
# EBB_JAR (default server/target/ebb-server.jar), REDIS_SERVER (default the 7.2.4 reference),
# REDIS_CLI, REDIS_BENCHMARK (default the reference's, else the one on PATH), JAVA_OPTS (default
# -XX:+UseParallelGC). Exits with status 2 when the jar is not built.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ebb_jar=${EBB_JAR:-$root/server/target/ebb-server.jar}
redis_server=${REDIS_SERVER:-/work/shared/reference/redis-7.2.4/redis-server}
cli=${REDIS_CLI:-redis-cli}
bench=${REDIS_BENCHMARK:-$(dirname "$redis_server")/redis-benchmark}
command -v "$bench" >/dev/null 2>&1 || bench=redis-benchmark
java_opts=${JAVA_OPTS:--XX:+UseParallelGC}
[ -f "$ebb_jar" ] || { echo "no $ebb_jar: build it with mvn -o -q -pl server -am package -DskipTests" >&2; exit 2; }
