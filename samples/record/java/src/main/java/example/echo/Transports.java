package example.echo;

import io.a2a.server.TransportMetadata;

/**
 * The SDK checks at start-up that every binding the agent card lists is backed by a
 * TransportMetadata found with ServiceLoader (the SDK's Quarkus modules ship one per
 * binding). This agent mounts the transport handlers itself, so it declares them here.
 */
public final class Transports {
    private Transports() {
    }

    public static final class JsonRpc implements TransportMetadata {
        @Override
        public String getTransportProtocol() {
            return "JSONRPC";
        }
    }

    public static final class HttpJson implements TransportMetadata {
        @Override
        public String getTransportProtocol() {
            return "HTTP+JSON";
        }
    }

    public static final class Grpc implements TransportMetadata {
        @Override
        public String getTransportProtocol() {
            return "GRPC";
        }
    }
}
