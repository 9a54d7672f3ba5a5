// The console: every route rendered on the server; the host server (src/server/main.ts) mounts
// Astro's handler in middleware mode beside the runner API and serves dist/client itself.
// Pages await all their data before the first byte anyway, so streaming bought nothing but
// many small chunked writes: one buffered response is cheaper (bench/console.ts).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react()],
  telemetry: false,
  security: { checkOrigin: false },
  vite: { ssr: { external: ['better-sqlite3', 'pg'] } },
});
