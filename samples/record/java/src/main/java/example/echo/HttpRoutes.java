package example.echo;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonSyntaxException;
import com.google.protobuf.MessageOrBuilder;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import io.a2a.grpc.utils.JSONRPCUtils;
import io.a2a.grpc.utils.ProtoUtils.ToProto;
import io.a2a.jsonrpc.common.json.IdJsonMappingException;
import io.a2a.jsonrpc.common.json.InvalidParamsJsonMappingException;
import io.a2a.jsonrpc.common.json.JsonMappingException;
import io.a2a.jsonrpc.common.json.JsonProcessingException;
import io.a2a.jsonrpc.common.json.MethodNotFoundJsonMappingException;
import io.a2a.jsonrpc.common.wrappers.A2AErrorResponse;
import io.a2a.jsonrpc.common.wrappers.A2ARequest;
import io.a2a.jsonrpc.common.wrappers.A2AResponse;
import io.a2a.jsonrpc.common.wrappers.CancelTaskRequest;
import io.a2a.jsonrpc.common.wrappers.CancelTaskResponse;
import io.a2a.jsonrpc.common.wrappers.CreateTaskPushNotificationConfigRequest;
import io.a2a.jsonrpc.common.wrappers.CreateTaskPushNotificationConfigResponse;
import io.a2a.jsonrpc.common.wrappers.DeleteTaskPushNotificationConfigRequest;
import io.a2a.jsonrpc.common.wrappers.DeleteTaskPushNotificationConfigResponse;
import io.a2a.jsonrpc.common.wrappers.GetExtendedAgentCardRequest;
import io.a2a.jsonrpc.common.wrappers.GetExtendedAgentCardResponse;
import io.a2a.jsonrpc.common.wrappers.GetTaskPushNotificationConfigRequest;
import io.a2a.jsonrpc.common.wrappers.GetTaskPushNotificationConfigResponse;
import io.a2a.jsonrpc.common.wrappers.GetTaskRequest;
import io.a2a.jsonrpc.common.wrappers.GetTaskResponse;
import io.a2a.jsonrpc.common.wrappers.ListTaskPushNotificationConfigRequest;
import io.a2a.jsonrpc.common.wrappers.ListTaskPushNotificationConfigResponse;
import io.a2a.jsonrpc.common.wrappers.ListTasksRequest;
import io.a2a.jsonrpc.common.wrappers.ListTasksResponse;
import io.a2a.jsonrpc.common.wrappers.SendMessageRequest;
import io.a2a.jsonrpc.common.wrappers.SendMessageResponse;
import io.a2a.jsonrpc.common.wrappers.SendStreamingMessageRequest;
import io.a2a.jsonrpc.common.wrappers.SubscribeToTaskRequest;
import io.a2a.server.ServerCallContext;
import io.a2a.server.auth.UnauthenticatedUser;
import io.a2a.server.extensions.A2AExtensions;
import io.a2a.server.util.sse.SseFormatter;
import io.a2a.spec.A2AError;
import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.TransportProtocol;
import io.a2a.spec.UnsupportedOperationError;
import io.a2a.transport.jsonrpc.handler.JSONRPCHandler;
import io.a2a.transport.rest.handler.RestHandler;
import io.a2a.transport.rest.handler.RestHandler.HTTPRestResponse;
import io.a2a.transport.rest.handler.RestHandler.HTTPRestStreamingResponse;

/**
 * HTTP glue between the JDK HTTP server and the SDK's transport handlers. It follows the
 * routes of the SDK's Quarkus reference servers of the same release: JSON-RPC is a POST
 * that must be sent as application/json, answered with HTTP 200 (or an SSE stream); every
 * HTTP+JSON route (application/json or application/a2a+json bodies) hands its path
 * parameters and body to RestHandler and writes back the
 * status, media type and body RestHandler chose; a request no REST route takes gets
 * RestHandler's MethodNotFoundError answer. Only what happens before a handler is called
 * (405, 415, 404 on the JSON-RPC path) is this class's own choice.
 */
final class HttpRoutes implements HttpHandler {
    private static final String JSON = "application/json";
    private static final String SSE = "text/event-stream";
    // The reference REST server's routes consume application/json only; this glue also
    // lets the spec's application/a2a+json through, so that the recorded scenarios (which
    // send it) reach RestHandler. Either way the request body goes to the SDK unchanged.
    private static final String A2A_JSON = "application/a2a+json";

    private final JSONRPCHandler jsonrpc;
    private final RestHandler rest;
    private final Executor executor;
    private final List<Route> restRoutes;

    HttpRoutes(JSONRPCHandler jsonrpc, RestHandler rest, Executor executor) {
        this.jsonrpc = jsonrpc;
        this.rest = rest;
        this.executor = executor;
        this.restRoutes = List.of(
                new Route("POST", "message:send", true, (r) -> rest.sendMessage(r.ctx("SendMessage"), "", r.body)),
                new Route("POST", "message:stream", true,
                        (r) -> rest.sendStreamingMessage(r.ctx("SendStreamingMessage"), "", r.body)),
                new Route("GET", "tasks", false, this::listTasks),
                new Route("GET", "tasks/(?<task>[^:/]+)", false, this::getTask),
                new Route("POST", "tasks/(?<task>[^/]+):cancel", false,
                        (r) -> rest.cancelTask(r.ctx("CancelTask"), "", r.group("task"))),
                new Route("POST", "tasks/(?<task>[^/]+):subscribe", false,
                        (r) -> rest.subscribeToTask(r.ctx("SubscribeToTask"), "", r.group("task"))),
                new Route("POST", "tasks/(?<task>[^/]+)/pushNotificationConfigs", true,
                        (r) -> rest.createTaskPushNotificationConfiguration(
                                r.ctx("CreateTaskPushNotificationConfig"), "", r.body, r.group("task"))),
                new Route("GET", "tasks/(?<task>[^/]+)/pushNotificationConfigs/(?<config>[^/]+)", false,
                        (r) -> rest.getTaskPushNotificationConfiguration(
                                r.ctx("GetTaskPushNotificationConfig"), "", r.group("task"), r.group("config"))),
                new Route("GET", "tasks/(?<task>[^/]+)/pushNotificationConfigs/?", false, this::listConfigs),
                new Route("DELETE", "tasks/(?<task>[^/]+)/pushNotificationConfigs/(?<config>[^/]+)", false,
                        (r) -> rest.deleteTaskPushNotificationConfiguration(
                                r.ctx("DeleteTaskPushNotificationConfig"), "", r.group("task"), r.group("config"))),
                new Route("GET", "extendedAgentCard", false,
                        (r) -> rest.getExtendedAgentCard(r.ctx("GetExtendedAgentCard"), "")));
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            String path = exchange.getRequestURI().getRawPath();
            if (path.equals(EchoAgent.CARD_PATH) && exchange.getRequestMethod().equals("GET")) {
                send(exchange, rest.getAgentCard());
            } else if (path.equals(EchoAgent.JSONRPC_PATH)) {
                jsonRpc(exchange);
            } else if (path.startsWith(EchoAgent.REST_PATH + "/")) {
                rest(exchange, path.substring(EchoAgent.REST_PATH.length() + 1));
            } else {
                plain(exchange, 404);
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            plain(exchange, 500);
        } finally {
            exchange.close();
        }
    }

    // --- JSON-RPC -------------------------------------------------------------------------

    private void jsonRpc(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestMethod().equals("POST")) {
            plain(exchange, 405);
            return;
        }
        if (!mediaTypeIs(exchange, JSON)) {
            plain(exchange, 415);
            return;
        }
        String body = body(exchange);
        ServerCallContext context = callContext(exchange, TransportProtocol.JSONRPC, null);
        A2AResponse<?> answer;
        try {
            A2ARequest<?> request = JSONRPCUtils.parseRequestBody(body, "");
            context.getState().put("method", request.getMethod());
            if (request instanceof SendStreamingMessageRequest streaming) {
                stream(exchange, jsonrpc.onMessageSendStream(streaming, context), r -> r, true);
                return;
            }
            if (request instanceof SubscribeToTaskRequest subscribe) {
                stream(exchange, jsonrpc.onSubscribeToTask(subscribe, context), r -> r, true);
                return;
            }
            answer = dispatch(request, context);
        } catch (A2AError e) {
            answer = new A2AErrorResponse(e);
        } catch (InvalidParamsJsonMappingException e) {
            answer = new A2AErrorResponse(e.getId(), new InvalidParamsError(null, e.getMessage(), null));
        } catch (MethodNotFoundJsonMappingException e) {
            answer = new A2AErrorResponse(e.getId(), new MethodNotFoundError(null, e.getMessage(), null));
        } catch (IdJsonMappingException e) {
            answer = new A2AErrorResponse(e.getId(), new InvalidRequestError(null, e.getMessage(), null));
        } catch (JsonMappingException e) {
            answer = new A2AErrorResponse(new InvalidRequestError(null, e.getMessage(), null));
        } catch (JsonSyntaxException | JsonProcessingException e) {
            answer = new A2AErrorResponse(new JSONParseError(e.getMessage()));
        } catch (RuntimeException e) {
            answer = new A2AErrorResponse(new InternalError(e.getMessage()));
        }
        byte[] bytes = serialize(answer).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", JSON);
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private A2AResponse<?> dispatch(A2ARequest<?> request, ServerCallContext context) {
        if (request instanceof SendMessageRequest r) {
            return jsonrpc.onMessageSend(r, context);
        } else if (request instanceof GetTaskRequest r) {
            return jsonrpc.onGetTask(r, context);
        } else if (request instanceof CancelTaskRequest r) {
            return jsonrpc.onCancelTask(r, context);
        } else if (request instanceof ListTasksRequest r) {
            return jsonrpc.onListTasks(r, context);
        } else if (request instanceof CreateTaskPushNotificationConfigRequest r) {
            return jsonrpc.setPushNotificationConfig(r, context);
        } else if (request instanceof GetTaskPushNotificationConfigRequest r) {
            return jsonrpc.getPushNotificationConfig(r, context);
        } else if (request instanceof ListTaskPushNotificationConfigRequest r) {
            return jsonrpc.listPushNotificationConfig(r, context);
        } else if (request instanceof DeleteTaskPushNotificationConfigRequest r) {
            return jsonrpc.deletePushNotificationConfig(r, context);
        } else if (request instanceof GetExtendedAgentCardRequest r) {
            return jsonrpc.onGetExtendedCardRequest(r, context);
        }
        return new A2AErrorResponse(request.getId(), new UnsupportedOperationError());
    }

    /** The result as the SDK's JSON-RPC utilities print it: errors as they are, results via their proto form. */
    private static String serialize(A2AResponse<?> response) {
        if (response instanceof A2AErrorResponse || response.getError() != null) {
            return JSONRPCUtils.toJsonRPCErrorResponse(response.getId(), response.getError());
        }
        MessageOrBuilder proto;
        if (response instanceof SendMessageResponse r) {
            proto = ToProto.taskOrMessage(r.getResult());
        } else if (response instanceof GetTaskResponse r) {
            proto = ToProto.task(r.getResult());
        } else if (response instanceof CancelTaskResponse r) {
            proto = ToProto.task(r.getResult());
        } else if (response instanceof ListTasksResponse r) {
            proto = ToProto.listTasksResult(r.getResult());
        } else if (response instanceof CreateTaskPushNotificationConfigResponse r) {
            proto = ToProto.createTaskPushNotificationConfigResponse(r.getResult());
        } else if (response instanceof GetTaskPushNotificationConfigResponse r) {
            proto = ToProto.getTaskPushNotificationConfigResponse(r.getResult());
        } else if (response instanceof ListTaskPushNotificationConfigResponse r) {
            proto = ToProto.listTaskPushNotificationConfigResponse(r.getResult());
        } else if (response instanceof DeleteTaskPushNotificationConfigResponse) {
            proto = com.google.protobuf.Empty.getDefaultInstance();
        } else if (response instanceof GetExtendedAgentCardResponse r) {
            proto = ToProto.getExtendedCardResponse(r.getResult());
        } else {
            throw new IllegalArgumentException("no proto form for " + response.getClass().getName());
        }
        return JSONRPCUtils.toJsonRPCResultResponse(response.getId(), proto);
    }

    // --- HTTP+JSON ------------------------------------------------------------------------

    private void rest(HttpExchange exchange, String path) throws IOException {
        String method = exchange.getRequestMethod();
        for (Route route : restRoutes) {
            Matcher m = route.pattern.matcher(path);
            if (!route.method.equals(method) || !m.matches()) {
                continue;
            }
            if (route.needsJson && !mediaTypeIs(exchange, JSON) && !mediaTypeIs(exchange, A2A_JSON)) {
                continue; // like a Vert.x route whose `consumes` does not match: try the next one
            }
            RestCall call = new RestCall(exchange, m, route.needsJson ? body(exchange) : null);
            HTTPRestResponse answer;
            try {
                answer = route.handler.apply(call);
            } catch (NumberFormatException e) {
                answer = rest.createErrorResponse(new InvalidParamsError("Invalid number format in parameters"));
            } catch (A2AError e) {
                answer = rest.createErrorResponse(e);
            } catch (RuntimeException e) {
                answer = rest.createErrorResponse(new InternalError(e.getMessage()));
            }
            if (answer instanceof HTTPRestStreamingResponse streaming) {
                stream(exchange, streaming.getPublisher(), json -> json, false);
            } else {
                send(exchange, answer);
            }
            return;
        }
        send(exchange, rest.createErrorResponse(new MethodNotFoundError()));
    }

    private HTTPRestResponse listTasks(RestCall r) {
        Map<String, String> q = r.query();
        String status = q.get("status");
        return rest.listTasks(r.ctx("ListTasks"), "", q.get("contextId"),
                status == null || status.isEmpty() ? status : status.toUpperCase(Locale.ROOT),
                integer(q.get("pageSize")), q.get("pageToken"), integer(q.get("historyLength")),
                q.get("statusTimestampAfter"),
                q.get("includeArtifacts") == null || q.get("includeArtifacts").isEmpty()
                        ? null : Boolean.valueOf(q.get("includeArtifacts")));
    }

    private HTTPRestResponse getTask(RestCall r) {
        return rest.getTask(r.ctx("GetTask"), "", r.group("task"), integer(r.query().get("historyLength")));
    }

    private HTTPRestResponse listConfigs(RestCall r) {
        Integer size = integer(r.query().get("pageSize"));
        String token = r.query().getOrDefault("pageToken", "");
        return rest.listTaskPushNotificationConfigurations(
                r.ctx("ListTaskPushNotificationConfig"), "", r.group("task"), size == null ? 0 : size, token);
    }

    private static Integer integer(String value) {
        return value == null || value.isEmpty() ? null : Integer.valueOf(value);
    }

    private record Route(String method, Pattern pattern, boolean needsJson, Function<RestCall, HTTPRestResponse> handler) {
        Route(String method, String regex, boolean needsJson, Function<RestCall, HTTPRestResponse> handler) {
            this(method, Pattern.compile(regex), needsJson, handler);
        }
    }

    private final class RestCall {
        final HttpExchange exchange;
        final Matcher match;
        final String body;

        RestCall(HttpExchange exchange, Matcher match, String body) {
            this.exchange = exchange;
            this.match = match;
            this.body = body;
        }

        String group(String name) {
            return URLDecoder.decode(match.group(name), StandardCharsets.UTF_8);
        }

        ServerCallContext ctx(String method) {
            return callContext(exchange, TransportProtocol.HTTP_JSON, method);
        }

        Map<String, String> query() {
            Map<String, String> out = new HashMap<>();
            String raw = exchange.getRequestURI().getRawQuery();
            if (raw != null) {
                for (String pair : raw.split("&")) {
                    int eq = pair.indexOf('=');
                    String key = eq < 0 ? pair : pair.substring(0, eq);
                    String value = eq < 0 ? "" : pair.substring(eq + 1);
                    out.putIfAbsent(URLDecoder.decode(key, StandardCharsets.UTF_8),
                            URLDecoder.decode(value, StandardCharsets.UTF_8));
                }
            }
            return out;
        }
    }

    // --- shared ---------------------------------------------------------------------------

    /** The call context the SDK's reference servers build: headers, tenant, transport, X-A2A-Version. */
    private static ServerCallContext callContext(HttpExchange exchange, TransportProtocol transport, String method) {
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
        Map<String, Object> state = new HashMap<>();
        state.put("headers", headers);
        state.put("tenant", "");
        state.put(ServerCallContext.TRANSPORT_KEY, transport);
        if (method != null) {
            state.put("method", method);
        }
        List<String> extensions = exchange.getRequestHeaders().get("X-A2A-Extensions");
        return new ServerCallContext(UnauthenticatedUser.INSTANCE, state,
                A2AExtensions.getRequestedExtensions(extensions == null ? List.of() : extensions),
                exchange.getRequestHeaders().getFirst("X-A2A-Version"));
    }

    /** Writes a publisher as an SSE stream: `data:` and `id:` lines as the SDK's SseFormatter makes them. */
    private <T> void stream(HttpExchange exchange, Flow.Publisher<T> publisher, Function<T, Object> unwrap,
            boolean jsonRpc) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", SSE);
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        AtomicLong ids = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        publisher.subscribe(new Flow.Subscriber<T>() {
            Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(1);
            }

            @Override
            public void onNext(T item) {
                Object value = unwrap.apply(item);
                String event = jsonRpc
                        ? SseFormatter.formatResponseAsSSE((A2AResponse<?>) value, ids.getAndIncrement())
                        : SseFormatter.formatJsonAsSSE((String) value, ids.getAndIncrement());
                try {
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    subscription.request(1);
                } catch (IOException e) {
                    subscription.cancel();
                    done.countDown();
                }
            }

            @Override
            public void onError(Throwable t) {
                t.printStackTrace();
                done.countDown();
            }

            @Override
            public void onComplete() {
                done.countDown();
            }
        });
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, HTTPRestResponse answer) throws IOException {
        byte[] bytes = answer.getBody() == null ? new byte[0] : answer.getBody().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", answer.getContentType());
        exchange.sendResponseHeaders(answer.getStatusCode(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    private static void plain(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }

    /** Whether the request's media type (without parameters) is exactly `type`, as Vert.x's `consumes` compares. */
    private static boolean mediaTypeIs(HttpExchange exchange, String type) {
        String ct = exchange.getRequestHeaders().getFirst("Content-Type");
        if (ct == null) {
            return false;
        }
        return ct.split(";", 2)[0].trim().toLowerCase(Locale.ROOT).equals(type);
    }

    private static String body(HttpExchange exchange) throws IOException {
        return new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    }
}
