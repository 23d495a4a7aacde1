// A minimal @a2a-js/sdk agent exposing JSON-RPC and HTTP+JSON on 127.0.0.1.
//
// Run by record_all.py from the throwaway directory holding node_modules (next to a
// copy of agent_js_common.mjs):
//
//     node agent_js.mjs --port 8002 --config plain|streaming|extcard --host a2a-js.example
//
// --host is the host name of the card's interface URLs (http://HOST/...) and of the
// recorder's `Host:` lines: each SDK and configuration has its own, since a2alint
// compares a card with the answers at the hosts the card lists.
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

import express from "express";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from "@a2a-js/sdk/server/express";

import { agentArgs, echoCard, echoExecutor } from "./agent_js_common.mjs";

const JSONRPC_PATH = "/a2a/jsonrpc";
const REST_PATH = "/a2a/rest";

const args = agentArgs("agent_js.mjs");
// Stable, machine-independent URLs on the recorder's host name: no real port shows.
const PUBLIC_BASE = `http://${args.host}`;

const agentCard = echoCard(
  args.config,
  "Echo agent (@a2a-js/sdk)",
  "Echoes the text it receives; used to record real A2A traffic.",
  [
    { url: PUBLIC_BASE + JSONRPC_PATH, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: PUBLIC_BASE + REST_PATH, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
  ],
);

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), echoExecutor());
const userBuilder = UserBuilder.noAuthentication;

const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder }));
app.use(REST_PATH, restHandler({ requestHandler, userBuilder }));
app.listen(Number(args.port), "127.0.0.1");
