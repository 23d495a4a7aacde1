package example.echo;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

import io.a2a.server.events.InMemoryQueueManager;
import io.a2a.server.events.MainEventBus;
import io.a2a.server.events.MainEventBusProcessor;
import io.a2a.server.requesthandlers.DefaultRequestHandler;
import io.a2a.server.requesthandlers.RequestHandler;
import io.a2a.server.tasks.InMemoryPushNotificationConfigStore;
import io.a2a.server.tasks.InMemoryTaskStore;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentInterface;
import io.a2a.spec.AgentSkill;
import io.a2a.transport.jsonrpc.handler.JSONRPCHandler;
import io.a2a.transport.rest.handler.RestHandler;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;

/**
 * A minimal echo agent on the a2a-java transport handlers, on 127.0.0.1.
 *
 * <pre>
 * java -cp CLASSPATH example.echo.EchoAgent --port P [--grpc-port G] --config plain|streaming|extcard --host NAME
 * </pre>
 *
 * --host is the public host name the card advertises (http://NAME/a2a/... and, with
 * gRPC, NAME:443); the recorder addresses the agent by it, one name per configuration,
 * because a2alint compares a card with the answers at the authorities it lists.
 *
 * The SDK's own servers are Quarkus modules; this agent instead mounts the SDK's
 * JSONRPCHandler and RestHandler on the JDK's built-in HTTP server (JSON-RPC at
 * /a2a/jsonrpc, HTTP+JSON under /a2a/rest, the card at /.well-known/agent-card.json) and
 * the SDK's GrpcHandler on grpc-java's Netty server when --grpc-port is given.
 *
 * Configurations (the card's capabilities): plain = streaming, push notifications and
 * the extended card all off; streaming = streaming on; extcard = the card declares an
 * extended card, but none is configured.
 */
public final class EchoAgent {
    static final String JSONRPC_PATH = "/a2a/jsonrpc";
    static final String REST_PATH = "/a2a/rest";
    static final String CARD_PATH = "/.well-known/agent-card.json";

    private EchoAgent() {
    }

    /** The card; its interfaces name {@code host}, never this machine's address or port. */
    static AgentCard card(String config, String host, boolean grpc) {
        String base = "http://" + host;
        List<AgentInterface> interfaces = new java.util.ArrayList<>();
        interfaces.add(new AgentInterface("JSONRPC", base + JSONRPC_PATH));
        interfaces.add(new AgentInterface("HTTP+JSON", base + REST_PATH));
        if (grpc) {
            interfaces.add(new AgentInterface("GRPC", host + ":443"));
        }
        return AgentCard.builder()
                .name("Echo agent (a2a-java)")
                .description("Echoes the text it receives; used to record real A2A traffic.")
                .version("1.0.0")
                .supportedInterfaces(interfaces)
                .capabilities(AgentCapabilities.builder()
                        .streaming(config.equals("streaming"))
                        .pushNotifications(false)
                        .extendedAgentCard(config.equals("extcard"))
                        .build())
                .defaultInputModes(List.of("text/plain"))
                .defaultOutputModes(List.of("text/plain"))
                .skills(List.of(AgentSkill.builder()
                        .id("echo")
                        .name("Echo")
                        .description("Repeats the text of the message.")
                        .tags(List.of("echo"))
                        .build()))
                .build();
    }

    public static void main(String[] args) throws Exception {
        Integer port = null;
        Integer grpcPort = null;
        String config = null;
        String host = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--grpc-port" -> grpcPort = Integer.parseInt(args[i + 1]);
                case "--config" -> config = args[i + 1];
                case "--host" -> host = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (port == null || config == null || host == null
                || !List.of("plain", "streaming", "extcard").contains(config)) {
            System.err.println("usage: EchoAgent --port P [--grpc-port G] --config plain|streaming|extcard --host NAME");
            System.exit(2);
        }

        AgentCard card = card(config, host, grpcPort != null);
        ExecutorService executor = Executors.newCachedThreadPool();

        // The SDK's in-memory wiring, as its CDI producers would assemble it.
        InMemoryTaskStore taskStore = new InMemoryTaskStore();
        InMemoryPushNotificationConfigStore pushStore = new InMemoryPushNotificationConfigStore();
        MainEventBus bus = new MainEventBus();
        InMemoryQueueManager queues = new InMemoryQueueManager(taskStore, bus);
        MainEventBusProcessor processor = new MainEventBusProcessor(bus, taskStore, event -> { }, queues);
        // Its start() is package-private (CDI calls it); run() is public, so give it a thread.
        Thread loop = new Thread(processor, "MainEventBusProcessor");
        loop.setDaemon(true);
        loop.start();
        RequestHandler requestHandler = DefaultRequestHandler.create(
                new EchoExecutor(), taskStore, queues, pushStore, processor, executor, executor);

        JSONRPCHandler jsonrpc = new JSONRPCHandler(card, requestHandler, executor);
        RestHandler rest = new RestHandler(card, requestHandler, executor);

        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        http.setExecutor(executor);
        http.createContext("/", new HttpRoutes(jsonrpc, rest, executor));
        http.start();

        if (grpcPort != null) {
            Server grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", grpcPort))
                    .addService(ServerInterceptors.intercept(
                            new EchoGrpcHandler(card, requestHandler, executor), new GrpcMetadataInterceptor()))
                    .build()
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(grpc::shutdownNow));
        }
        System.out.println("echo agent (a2a-java) listening on 127.0.0.1:" + port
                + (grpcPort != null ? ", gRPC on 127.0.0.1:" + grpcPort : "") + ", config " + config);
    }
}
