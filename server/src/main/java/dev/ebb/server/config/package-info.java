/**
 * Configuration: the directive table, the redis.conf-syntax parser, the {@code ebb-server} command line and the
 * CONFIG GET / SET / REWRITE operations.
 *
 * <p>Entry points: {@link dev.ebb.server.config.ServerCli#parse(String[])} for {@code main};
 * {@link dev.ebb.server.config.ServerConfig} for everything the running server reads or changes. Names, aliases,
 * defaults, value syntax and error texts follow Redis 7.2 (checked against a real redis-server); where Ebb differs
 * on purpose the code says so. Nothing here depends on the rest of the server.
 */
package dev.ebb.server.config;
