import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { serviceWorker } from './sw/serviceWorkerPlugin.ts';
import { clipboardAfterEditor } from './vite/clipboardAfterEditor.ts';

// The Rust server (`mailclient serve`) listens here by default; `npm run dev` forwards API and
// real-time traffic to it so the dev server behaves like the embedded bundle.
const SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), serviceWorker(), clipboardAfterEditor()],
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: false },
      '/ws': { target: SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The server sends `script-src 'self'`: Vite's modulepreload polyfill is an inline script,
    // so it must not be emitted. Every browser we support has native modulepreload.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each entry and lazy page loads, read by
    // scripts/bundle-budget.mjs (the inbox's first-paint JS and the editor chunk have a budget).
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
});
