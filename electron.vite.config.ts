/**
 * One build tool for all three Electron parts: electron-vite (Vite 8 under
 * the hood). Main is ESM; the preload is one self-contained CommonJS file,
 * because a sandboxed preload cannot load modules from disk; the renderer is
 * a plain Vite React build (JSX through Vite's own oxc transform, so no
 * inline refresh script ever needs a CSP exception).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'main/index.ts') } },
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
