/**
 * One build tool for all three Electron parts: electron-vite (Vite 8 under
 * the hood). Main is ESM; the preload is one self-contained CommonJS file,
 * because a sandboxed preload cannot load modules from disk; the renderer is
 * a plain Vite React build (JSX through Vite's own oxc transform, so no
 * inline refresh script ever needs a CSP exception). Main's build also makes
 * browser mode's host, out/main/web-host.js, which `npm run start:web` runs
 * with plain Node: what both entries share is out/main/chunks/shared-*.js.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled, not loaded from node_modules at start: resolving and reading some 400 files (undici, zod, ajv
      // under conf) cost browser mode about a third of its CPU time to listening; yaml (the seed's meta-data) loaded
      // from its 74 files added about 60 ms of CPU to listening, bundled nothing measurable. electron-store stays a
      // package (the Electron shell loads it lazily); a dependency not listed here stays external, as electron-vite does.
      // ajv and ajv-draft-04 (cloud-init's schema check, issue 25) likewise: a direct dependency since then, so
      // electron-vite would leave them external, and browser mode's host loads no package from node_modules.
      externalizeDeps: { exclude: ['ajv', 'ajv-draft-04', 'conf', 'undici', 'ws', 'yaml', 'zod'] },
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'main/index.ts'),
          // Browser mode's host (`npm run start:web`): plain Node, never imports electron.
          'web-host': resolve(import.meta.dirname, 'main/host/cli.ts'),
        },
        output: { chunkFileNames: 'chunks/shared-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'main/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      minify: true,
      chunkSizeWarningLimit: 1500,
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
    oxc: { jsx: { runtime: 'automatic' } },
  },
});
