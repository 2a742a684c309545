import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { classicFirstView } from './scripts/classic-first-view.ts';
import { fileURLToPath } from 'node:url';

// The renderer is plain static files: relative URLs ('./') so the same build loads from the
// Electron app protocol and from the browser host.
export default defineConfig({
  root: fileURLToPath(new URL('./renderer/', import.meta.url)),
  base: './',
  // The first view's script as a classic script, whose compiled code Chromium keeps (scripts/classic-first-view.ts).
  plugins: [react(), classicFirstView()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    // Not emptied: a page opened before a rebuild still loads its panels' chunks (scripts/build.mjs prunes old ones).
    emptyOutDir: false,
    sourcemap: true,
    target: 'es2022',
    // A zod schema the renderer never reads is dropped, not built as its module loads: shared/ modules
    // declare the contract's schemas beside the types and helpers the renderer imports, and building
    // unused ones was part of the first view's module evaluation (issue #19). Every `z.…` call builds
    // a schema and nothing else (shared/validation/zod-config.ts calls zod's `config` by its own name).
    // A shared `*-schema.ts` module holds schemas and types only: one the first view never reads goes
    // with the panels that read it, instead of into a chunk the first view loads.
    // What keeps the first view free of schemas (tests/integration/renderer-first-view.test.ts): the
    // habits in shared/ that docs/architecture.md lists under "The first view of `strata serve`".
    rollupOptions: {
      treeshake: { manualPureFunctions: ['z'], moduleSideEffects: (id: string) => !/[\\/]shared[\\/].+-schema\.ts$/.test(id) },
      // Everything the first view imports statically in one script (`$initial`), not the 19 files
      // rolldown split it into by what the lazy panels share: on 2 cores each request is work for
      // the browser, network and server processes while the page's own thread waits for a core
      // (issue #19: first render 0.93 paired, medians 777 → 723 ms). Only those modules, not what
      // they import dynamically (the panels, the schemas: includeDependenciesRecursively).
      output: { codeSplitting: { groups: [{ name: 'first-view', tags: ['$initial'], includeDependenciesRecursively: false }] } },
    },
  },
  logLevel: 'warn',
});
