import { createServer, type Server, type Socket } from 'node:net';
import { fetchEngine } from './engine-client.js';

/** A client command against a process that accepts the connection and never answers: it gives up, naming it. */
describe('fetchEngine against a silent engine', () => {
  let server: Server;
  let base: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('rejects after its timeout with a message naming the engine, instead of waiting forever', async () => {
    await expect(fetchEngine(base, '/api/hyperfleet/v1/resources/x/events', {}, 200)).rejects.toThrow(
      `the engine at ${base} gave no answer within 0.2 s`,
    );
    expect(sockets.length).toBeGreaterThan(0);
  });
});
