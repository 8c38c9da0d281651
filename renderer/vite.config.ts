import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The UI build: served by the service from dist/renderer with an SPA fallback. */
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: false,
    // The largest chunk is the API reference viewer (Swagger UI), loaded only on its page.
    chunkSizeWarningLimit: 1600,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // A language's catalogs are named after it (locale-de-chat-….js), so a switch of language
        // can be checked to fetch only that language's files.
        chunkFileNames: (chunk) => {
          const catalog = /locales\/([^/]+)\/([^/]+)\.json$/.exec(chunk.facadeModuleId ?? '');
          return catalog ? `assets/locale-${catalog[1]}-${catalog[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: {
    // `npm run serve` in one shell, `npx vite --config renderer/vite.config.ts` in another.
    proxy: Object.fromEntries(
      ['/api', '/auths', '/compat', '/local', '/health', '/oauth'].map((p) => [p, 'http://127.0.0.1:8080']).concat([['/socket.io', 'ws://127.0.0.1:8080']]),
    ),
  },
});
