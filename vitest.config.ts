import { defineConfig } from 'vitest/config';

// One runner, three projects: plain-Node tests (core, services, simulator,
// Electron wiring under a stand-in module), DOM tests for renderer stores and
// components, and end-to-end tests that drive Chromium through playwright-core.
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The run fails when it changed a file git tracks or would list: see the file.
    globalSetup: ['./test/support/tree-guard.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/electron/**/*.test.ts'],
          // Nothing may connect beyond loopback: see the file.
          setupFiles: ['test/support/no-egress.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/dom/**/*.test.{ts,tsx}'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/no-egress.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
