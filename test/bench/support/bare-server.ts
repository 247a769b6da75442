/**
 * The ceiling of the HTTP scenarios (P3, P4): a bare Fastify server, its own process, that answers
 * GET `<path>` with a fixed JSON document: the very body the engine answered for the route it stands in for,
 * serialised on every request as the engine's is. No plugins, no logging, no hooks.
 * Usage: `node bare-server.js <port> <routes.json>` where routes.json is `{ "/path": <body>, ... }`.
 * Logs `bare server listening on <port>` once ready; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, routesFile] = process.argv.slice(2);
const routes = JSON.parse(readFileSync(routesFile!, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: false });
for (const [path, body] of Object.entries(routes)) app.get(path, async () => body);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write(`bare server listening on ${port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
