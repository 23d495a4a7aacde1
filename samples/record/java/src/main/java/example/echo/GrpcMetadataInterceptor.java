package example.echo;

import io.a2a.transport.grpc.context.GrpcContextKeys;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Puts the call's metadata where GrpcHandler looks for it (the SDK's gRPC Context keys),
 * as the SDK's Quarkus gRPC module does: the whole metadata, the method, the peer, and
 * the values of the SDK's version and extensions headers (x-a2a-version,
 * x-a2a-extensions) when the client sent them.
 */
final class GrpcMetadataInterceptor implements ServerInterceptor {
    private static final Metadata.Key<String> VERSION =
            Metadata.Key.of("x-a2a-version", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> EXTENSIONS =
            Metadata.Key.of("x-a2a-extensions", Metadata.ASCII_STRING_MARSHALLER);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        String bare = call.getMethodDescriptor().getBareMethodName();
        Object peer = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        Context context = Context.current()
                .withValue(GrpcContextKeys.METADATA_KEY, headers)
                .withValue(GrpcContextKeys.GRPC_METHOD_NAME_KEY, call.getMethodDescriptor().getFullMethodName())
                .withValue(GrpcContextKeys.METHOD_NAME_KEY, bare == null ? null : GrpcContextKeys.METHOD_MAPPING.get(bare))
                .withValue(GrpcContextKeys.PEER_INFO_KEY, peer == null ? "unknown" : peer.toString());
        String version = headers.get(VERSION);
        if (version != null) {
            context = context.withValue(GrpcContextKeys.VERSION_HEADER_KEY, version);
        }
        String extensions = headers.get(EXTENSIONS);
        if (extensions != null) {
            context = context.withValue(GrpcContextKeys.EXTENSIONS_HEADER_KEY, extensions);
        }
        return Contexts.interceptCall(context, call, headers, next);
    }
}
