import type { ServerResponse } from 'node:http';
import { type JsonContentType, type Reply, writeReply } from './http.js';

/** Meta answers JSON as plain `application/json`, whatever a route set. */
const GRAPH_JSON: JsonContentType = { value: 'application/json', routeMayOverride: false };

/** Writes a Graph-API-style fake's reply (JSON always as plain `application/json`). */
export function writeGraphReply(response: ServerResponse, reply: Reply): void {
  writeReply(response, reply, GRAPH_JSON);
}
