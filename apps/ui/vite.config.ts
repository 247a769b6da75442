/**
 * Vite build of the web UI: `apps/ui` → `dist/ui`, served by the engine at `/ui/`. Everything
 * is bundled (no CDN, works offline). React's JSX goes through Vite's own transform (automatic runtime):
 * no plugin is needed for a production build.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/ui/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/ui', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
});
