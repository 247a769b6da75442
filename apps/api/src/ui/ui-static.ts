/**
 * Serves the web UI at `/ui/` from the Vite build (`npm run build:ui` → `dist/ui`): static
 * files only, no CDN, works offline. The UI routes with `#/...`, so every file path is a real file and
 * there is no HTML fallback to get wrong. Files are streamed with `@fastify/send` (the library
 * `@fastify/static` is built on; `@fastify/static` itself is pinned to 9.x for mercurius by an override and
 * conflicts with the platform's optional peer range).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import { HttpProblem } from '../problem-details/problem.js';

/**
 * Where the built UI is: `<repo>/dist/ui` when running from sources (tests), `dist/ui` beside the compiled
 * `dist/apps` when running the build. Undefined when the UI was not built.
 */
export function findUiDir(): string | undefined {
  const up4 = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
  return [join(up4, 'ui'), join(up4, 'dist', 'ui')].find((dir) => existsSync(join(dir, 'index.html')));
}

export function registerUiRoutes(fastify: FastifyInstance, uiDir: string | undefined = findUiDir()): void {
  fastify.get('/ui', (_request, reply) => reply.redirect('/ui/', 302));
  fastify.get('/ui/*', async (request, reply) => {
    if (!uiDir)
      throw new HttpProblem(
        503,
        'HYPERFLEET-SVC-001',
        'UI Not Built',
        'service-unavailable',
        'the web UI is not built: run `npm run build:ui` (part of `npm run build`)',
      );
    const path = (request.params as { '*': string })['*'] || 'index.html';
    const result = await send(request.raw, path, {
      root: uiDir,
      index: false,
      dotfiles: 'deny',
      maxAge: path.startsWith('assets/') ? '1y' : 0,
    });
    if (result.type === 'error' || result.type === 'directory') {
      throw new HttpProblem(404, 'HYPERFLEET-NTF-000', 'Endpoint Not Found', 'not-found', `no UI file ${path}`);
    }
    return reply.code(result.statusCode).headers(result.headers).send(result.stream);
  });
}
