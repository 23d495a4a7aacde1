// A small A2A gRPC client on @grpc/grpc-js (pure JavaScript, not grpc C-core), so that
// a capture shows what a server sends to a peer that does not announce C-core's
// "true binary metadata" setting.
//
// Run by record_a2a_js_grpc.py from the directory that holds node_modules (installed
// from package-grpc.json):
//
//     node client_js_grpc.mjs --port 50051 --authority streaming.a2a-js.example
//
// On one channel to 127.0.0.1:PORT (`:authority` the agent's host name, the one its card
// advertises; a2a-version: 1.0 on every call) it makes, in this order:
//   HTTP/2 stream 1  GetTask "no-such-task"     (an error with grpc-status-details-bin)
//   HTTP/2 stream 3  SendMessage "hello"        (a task)
//   HTTP/2 stream 5  SendStreamingMessage       (the task's events; the agent must
//                                                declare streaming)
// The messages are encoded with the codecs of @a2a-js/sdk's generated service
// definition (the lf.a2a.v1 proto). Each outcome is printed. Exit status 0 when the
// three calls ended as expected (NOT_FOUND, a task, a stream ending with OK).

import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";

import * as grpc from "@grpc/grpc-js";
import { A2AService } from "@a2a-js/sdk/server/grpc";

const ROLE_USER = 1;

const { values: args } = parseArgs({
  options: { port: { type: "string" }, authority: { type: "string" } },
});
if (!args.port || !args.authority) {
  console.error("usage: node client_js_grpc.mjs --port N --authority HOST");
  process.exit(2);
}

const A2AClient = grpc.makeGenericClientConstructor(A2AService, "A2AService");
const client = new A2AClient(`127.0.0.1:${args.port}`, grpc.credentials.createInsecure(), {
  "grpc.default_authority": args.authority,
  "grpc.enable_http_proxy": 0,
});

const metadata = () => {
  const md = new grpc.Metadata();
  md.set("a2a-version", "1.0");
  return md;
};

// The SDK's encoders write every field that is not at its default, so every field is given.
const sendRequest = (messageId, text) => ({
  tenant: "",
  message: {
    messageId,
    contextId: "",
    taskId: "",
    role: ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, filename: "", mediaType: "" }],
    extensions: [],
    referenceTaskIds: [],
  },
});

function describe(error) {
  console.log(`      ${grpc.status[error.code]} ${JSON.stringify(error.details)}`);
  for (const [key, values] of Object.entries(error.metadata?.getMap() ?? {})) {
    const value = Buffer.isBuffer(values) ? `${values.length} bytes (decoded)` : JSON.stringify(values);
    console.log(`      trailer ${key}: ${value}`);
  }
}

const unary = (method, request) =>
  new Promise((resolve) => {
    client[method](request, metadata(), (error, response) => resolve({ error, response }));
  });

let ok = true;

console.log("  [stream 1] GetTask: a task that does not exist");
{
  const { error } = await unary("getTask", { tenant: "", id: "no-such-task" });
  if (error) describe(error);
  ok &&= error?.code === grpc.status.NOT_FOUND;
}

console.log("  [stream 3] SendMessage");
{
  const { error, response } = await unary("sendMessage", sendRequest("msg-js-send", "hello"));
  if (error) describe(error);
  else console.log(`      OK ${response.payload?.$case} ${response.payload?.value?.id ?? ""}`);
  ok &&= !error && response.payload?.$case === "task";
}

console.log("  [stream 5] SendStreamingMessage");
{
  const kinds = [];
  const outcome = await new Promise((resolve) => {
    const call = client.sendStreamingMessage(sendRequest("msg-js-stream", "hello"), metadata());
    call.on("data", (event) => kinds.push(event.payload?.$case));
    call.on("error", (error) => resolve(error));
    call.on("status", (status) => {
      if (status.code === grpc.status.OK) resolve(null);
    });
  });
  if (outcome) describe(outcome);
  else console.log(`      OK, ${kinds.length} stream responses: ${kinds.join(", ")}`);
  ok &&= !outcome && kinds.length > 0;
}

// As with the grpcio client: a short pause lets a last PING and its ACK pass before the
// channel closes, so that the connection ends with FINs on both sides.
await sleep(300);
client.close();
process.exitCode = ok ? 0 : 1;
