import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The renderer is plain static files: relative URLs ('./') so the same build loads from the
// Electron app protocol and from the browser host.
export default defineConfig({
  root: fileURLToPath(new URL('./renderer/', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    // Not emptied: a page opened before a rebuild still loads its panels' chunks (scripts/build.mjs prunes old ones).
    emptyOutDir: false,
    sourcemap: true,
    target: 'es2022',
  },
  logLevel: 'warn',
});
