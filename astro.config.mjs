// The console: every route rendered on the server; the host server (src/server/main.ts) mounts
// Astro's handler in middleware mode beside the runner API and serves dist/client itself.
// Pages await all their data before the first byte anyway, so streaming bought nothing but
// many small chunked writes: one buffered response is cheaper (bench/console.ts).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { precompressDirectory } from './src/server/host/precompress.ts';

/** Static assets are compressed once here (`.br`, `.gz` beside each); the host server picks one per request. */
const precompress = {
  name: 'signalbox-precompress',
  hooks: { 'astro:build:done': async ({ dir }) => { await precompressDirectory(fileURLToPath(dir)); } },
};

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react(), precompress],
  telemetry: false,
  security: { checkOrigin: false },
  vite: { ssr: { external: ['better-sqlite3', 'pg'] } },
});
