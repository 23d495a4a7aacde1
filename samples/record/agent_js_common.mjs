// What agent_js.mjs and agent_js_grpc.mjs share: the command line, the agent card and
// the echo executor. Copied next to them into the install directory (record_all.py,
// record_a2a_js_grpc.py), so that Node resolves @a2a-js/sdk from there.
//
// The executor answers every message with a task: submitted -> working -> an artifact
// echoing the text -> completed. Some texts change that:
//   "fail"   the executor throws after the task started working
//   "twice"  the executor publishes the task a second time mid-stream
//   "slow"   (with { slow: true }) it waits five seconds before the artifact

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import { AgentEvent } from "@a2a-js/sdk/server";

// Task states are the SDK's numeric protobuf enums.
const SUBMITTED = 1;
const WORKING = 2;
const COMPLETED = 3;
const CANCELED = 5;

// --port N --config plain|streaming|extcard --host NAME, or the usage line and exit
// status 2. NAME is the public host name the card advertises, the one the recorder
// addresses the agent by (agents.virtual_host: one per SDK and configuration).
export function agentArgs(script) {
  const { values: args } = parseArgs({
    options: { port: { type: "string" }, config: { type: "string" }, host: { type: "string" } },
  });
  if (!args.port || !args.host || !["plain", "streaming", "extcard"].includes(args.config)) {
    console.error(`usage: node ${script} --port N --config plain|streaming|extcard --host NAME`);
    process.exit(2);
  }
  return args;
}

// The card of `config`: streaming in the streaming configuration, an extended card
// declared (none configured) in extcard, never push notifications; one echo skill.
export const echoCard = (config, name, description, supportedInterfaces) => ({
  name,
  description,
  version: "1.0.0",
  supportedInterfaces,
  capabilities: {
    streaming: config === "streaming",
    pushNotifications: false,
    extendedAgentCard: config === "extcard",
  },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [
    { id: "echo", name: "Echo", description: "Repeats the text of the message.", tags: ["echo"] },
  ],
});

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

export const echoExecutor = ({ slow = false } = {}) => ({
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
    if (slow && text === "slow") await sleep(5000);
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
});
