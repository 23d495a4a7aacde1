// A minimal @a2a-js/sdk agent exposing JSON-RPC and HTTP+JSON on 127.0.0.1.
//
// Run by record_all.py from the throwaway directory holding node_modules:
//
//     node agent_js.mjs --port 8002 --config plain|streaming|extcard
//
// Configurations (the agent card's `capabilities`):
//   plain      streaming, push notifications and the extended card all off
//   streaming  streaming on (push and extended card off)
//   extcard    the card declares an extended card, but none is configured
//
// The agent answers every message with a task: submitted -> working -> an artifact
// echoing the text -> completed. Two texts drive the stream error scenarios:
//   "fail"   the executor throws after the task started working
//   "twice"  the executor publishes the task a second time mid-stream

import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";

import express from "express";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from "@a2a-js/sdk/server/express";

// Stable, machine-independent URLs: the recordings never show a real port.
const PUBLIC_BASE = "http://agent.example";
const JSONRPC_PATH = "/a2a/jsonrpc";
const REST_PATH = "/a2a/rest";

// Task states and roles are the SDK's numeric protobuf enums.
const SUBMITTED = 1;
const WORKING = 2;
const COMPLETED = 3;
const CANCELED = 5;
const ROLE_AGENT = 2;

const { values: args } = parseArgs({
  options: { port: { type: "string" }, config: { type: "string" } },
});
if (!args.port || !["plain", "streaming", "extcard"].includes(args.config)) {
  console.error("usage: node agent_js.mjs --port N --config plain|streaming|extcard");
  process.exit(2);
}

const agentCard = {
  name: "Echo agent (@a2a-js/sdk)",
  description: "Echoes the text it receives; used to record real A2A traffic.",
  version: "1.0.0",
  supportedInterfaces: [
    { url: PUBLIC_BASE + JSONRPC_PATH, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: PUBLIC_BASE + REST_PATH, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
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

const status = (taskId, contextId, state) =>
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
      .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
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
    eventBus.publish(status(taskId, contextId, WORKING));
    if (text === "fail") throw new Error("the echo agent failed on purpose");
    if (text === "twice") eventBus.publish(AgentEvent.task(task));
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
    eventBus.publish(status(taskId, contextId, COMPLETED));
    eventBus.finished();
  },
  async cancelTask(taskId, eventBus) {
    eventBus.publish(status(taskId, "", CANCELED));
    eventBus.finished();
  },
};

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), executor);
const userBuilder = UserBuilder.noAuthentication;

const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder }));
app.use(REST_PATH, restHandler({ requestHandler, userBuilder }));
app.listen(Number(args.port), "127.0.0.1");
