package dev.ebb.server.config;

/**
 * What the command line asks for: start the server with a configuration, or print something and exit with 0
 * ({@code --help}, {@code --version}). Invalid configuration is not a request but a {@link ConfigException}.
 */
public sealed interface StartupRequest permits StartupRequest.StartServer, StartupRequest.PrintAndExit {

    /** Start the server with {@code config}. */
    record StartServer(ServerConfig config) implements StartupRequest {
    }

    /** Print {@code text} to standard output and exit with status 0. */
    record PrintAndExit(String text) implements StartupRequest {
    }
}
