// A minimal @a2a-js/sdk agent serving the A2A gRPC binding on 127.0.0.1, with
// `grpcService` from @a2a-js/sdk/server/grpc on a @grpc/grpc-js server.
//
// Run by record_a2a_js_grpc.py from the throwaway directory that holds node_modules
// (installed from package-grpc.json) and a copy of agent_js_common.mjs:
//
//     node agent_js_grpc.mjs --port 50051 --config plain|streaming|extcard --host streaming.a2a-js.example
//
// Configurations (the agent card's `capabilities`), as in agent_js.mjs:
//   plain      streaming, push notifications and the extended card all off
//   streaming  streaming on (push and extended card off)
//   extcard    the card declares an extended card, but none is configured
//
// The card lists one GRPC interface, HOST:443 with protocolVersion "1.0": the SDK checks
// the `a2a-version` metadata of every call against that list. HOST is --host, the
// `:authority` the recorder's client sends (one name per configuration, as over HTTP).
// No HTTP endpoint is served.
//
// Every message is answered with a task: submitted -> working -> an artifact echoing
// the text -> completed. Some texts change that:
//   "fail"   the executor throws after the task started working
//   "twice"  the executor publishes the task a second time mid-stream
//   "slow"   the executor waits five seconds before the artifact (for deadlines)
// It runs until SIGTERM or SIGINT.

import * as grpc from "@grpc/grpc-js";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { A2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";

import { agentArgs, echoCard, echoExecutor } from "./agent_js_common.mjs";

const args = agentArgs("agent_js_grpc.mjs");
// What the card advertises: no port or address of this machine.
const PUBLIC_TARGET = `${args.host}:443`;

const agentCard = echoCard(
  args.config,
  "Echo agent (@a2a-js/sdk, gRPC)",
  "Echoes the text it receives; used to record real A2A gRPC traffic.",
  [{ url: PUBLIC_TARGET, protocolBinding: "GRPC", protocolVersion: "1.0" }],
);

const requestHandler = new DefaultRequestHandler(
  agentCard,
  new InMemoryTaskStore(),
  echoExecutor({ slow: true }),
);

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
