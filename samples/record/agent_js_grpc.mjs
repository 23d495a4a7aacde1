// A minimal @a2a-js/sdk agent serving the A2A gRPC binding on 127.0.0.1, with
// `grpcService` from @a2a-js/sdk/server/grpc on a @grpc/grpc-js server.
//
// Run by record_a2a_js_grpc.py from the throwaway directory that holds node_modules
// (installed from package-grpc.json):
//
//     node agent_js_grpc.mjs --port 50051 --config plain|streaming|extcard
//
// Configurations (the agent card's `capabilities`), as in agent_js.mjs:
//   plain      streaming, push notifications and the extended card all off
//   streaming  streaming on (push and extended card off)
//   extcard    the card declares an extended card, but none is configured
//
// The card lists one GRPC interface with protocolVersion "1.0": the SDK checks the
// `a2a-version` metadata of every call against that list. No HTTP endpoint is served.
//
// Every message is answered with a task: submitted -> working -> an artifact echoing
// the text -> completed. Some texts change that:
//   "fail"   the executor throws after the task started working
//   "twice"  the executor publishes the task a second time mid-stream
//   "slow"   the executor waits five seconds before the artifact (for deadlines)
// It runs until SIGTERM or SIGINT.

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import * as grpc from "@grpc/grpc-js";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { A2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";

// What the card advertises: no port or address of this machine.
const PUBLIC_TARGET = "agent.example:443";

// The SDK's numeric protobuf enums.
const SUBMITTED = 1;
const WORKING = 2;
const COMPLETED = 3;
const CANCELED = 5;

const { values: args } = parseArgs({
  options: { port: { type: "string" }, config: { type: "string" } },
});
if (!args.port || !["plain", "streaming", "extcard"].includes(args.config)) {
  console.error("usage: node agent_js_grpc.mjs --port N --config plain|streaming|extcard");
  process.exit(2);
}

const agentCard = {
  name: "Echo agent (@a2a-js/sdk, gRPC)",
  description: "Echoes the text it receives; used to record real A2A gRPC traffic.",
  version: "1.0.0",
  supportedInterfaces: [
    { url: PUBLIC_TARGET, protocolBinding: "GRPC", protocolVersion: "1.0" },
  ],
  capabilities: {
    streaming: args.config === "streaming",
    pushNotifications: false,
    extendedAgentCard: args.config === "extcard",
  },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [
    { id: "echo", name: "Echo", description: "Repeats the text of the message.", tags: ["echo"] },
  ],
};

const textPart = (text) => ({
  content: { $case: "text", value: text },
  mediaType: "",
  filename: "",
  metadata: {},
});

const statusEvent = (taskId, contextId, state) =>
  AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, timestamp: new Date().toISOString() },
    metadata: {},
  });

const executor = {
  async execute(requestContext, eventBus) {
    const { taskId, contextId, userMessage } = requestContext;
    const text = userMessage.parts
      .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
      .join("\n");
    const task = requestContext.task ?? {
      id: taskId,
      contextId,
      status: { state: SUBMITTED, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [userMessage],
      metadata: {},
    };
    if (!requestContext.task) eventBus.publish(AgentEvent.task(task));
    eventBus.publish(statusEvent(taskId, contextId, WORKING));
    if (text === "fail") throw new Error("the echo agent failed on purpose");
    if (text === "twice") eventBus.publish(AgentEvent.task(task));
    if (text === "slow") await sleep(5000);
    eventBus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: "echo",
          description: "",
          parts: [textPart(`echo: ${text}`)],
          metadata: {},
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
    eventBus.publish(statusEvent(taskId, contextId, COMPLETED));
    eventBus.finished();
  },
  async cancelTask(taskId, eventBus) {
    eventBus.publish(statusEvent(taskId, "", CANCELED));
    eventBus.finished();
  },
};

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), executor);

const server = new grpc.Server();
server.addService(
  A2AService,
  grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
);
server.bindAsync(
  `127.0.0.1:${args.port}`,
  grpc.ServerCredentials.createInsecure(),
  (error, port) => {
    if (error) {
      console.error(`could not listen on 127.0.0.1:${args.port}: ${error.message}`);
      process.exit(1);
    }
    console.log(`listening on 127.0.0.1:${port} (${args.config})`);
  },
);

const stop = () => server.tryShutdown(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
