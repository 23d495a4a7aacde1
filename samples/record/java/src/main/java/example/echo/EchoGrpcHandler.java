package example.echo;

import java.util.concurrent.Executor;

import io.a2a.server.requesthandlers.RequestHandler;
import io.a2a.spec.AgentCard;
import io.a2a.transport.grpc.handler.CallContextFactory;
import io.a2a.transport.grpc.handler.GrpcHandler;

/** The SDK's gRPC service, given the agent's card and request handler (no extended card). */
final class EchoGrpcHandler extends GrpcHandler {
    private final AgentCard card;
    private final RequestHandler requestHandler;
    private final Executor executor;

    EchoGrpcHandler(AgentCard card, RequestHandler requestHandler, Executor executor) {
        this.card = card;
        this.requestHandler = requestHandler;
        this.executor = executor;
    }

    @Override
    protected RequestHandler getRequestHandler() {
        return requestHandler;
    }

    @Override
    protected AgentCard getAgentCard() {
        return card;
    }

    @Override
    protected AgentCard getExtendedAgentCard() {
        return null;
    }

    @Override
    protected CallContextFactory getCallContextFactory() {
        return null; // the handler then builds its default context from the gRPC Context keys
    }

    @Override
    protected Executor getExecutor() {
        return executor;
    }
}
