// The console: every route rendered on the server; the host server (src/server/main.ts) mounts
// Astro's handler in middleware mode beside the runner API and serves dist/client itself.
// Pages await all their data before the first byte anyway, so streaming bought nothing but
// many small chunked writes: one buffered response is cheaper (bench/console.ts).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { precompressDirectory } from './src/server/host/precompress.ts';
import { memoisedCspDigest } from './src/console/csp-digest-plugin.ts';

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
  // A page's small component styles would be inlined into every page (2 KB of a history page);
  // linked, the browser keeps them.
  build: { inlineStylesheets: 'never' },
  // Origins are checked by our own middleware (src/console/form-request.ts), which also knows
  // SEMAPHORE_WEB_ROOT. The Content-Security-Policy header: Astro hashes every script and style
  // it emits (bundled, inlined, island bootstrap), so new <script>s and islands need nothing;
  // inline event handlers need src/console/inline-handler.ts. style="" attributes stay allowed.
  // Astro digests each page's head elements per request: memoisedCspDigest makes that once per text.
  security: {
    checkOrigin: false,
    csp: {
      directives: [
        "default-src 'self'", "img-src 'self' data:", "font-src 'self' data:", "connect-src 'self'", "object-src 'none'",
        "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
      ],
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  // @mdi/js is bundled, not loaded from node_modules at run time: the package holds all ~7,000
  // icons (20 MB of memory once required); bundled, only the few the console names remain.
  vite: { plugins: [memoisedCspDigest()], ssr: { external: ['better-sqlite3', 'pg'], noExternal: ['@mdi/js'] } },
});
