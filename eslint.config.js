// Lint rules hold the architecture's boundaries as well as code quality:
// only the IPC binding imports ipcMain, only the preload imports ipcRenderer,
// nothing under the core or the services imports electron, the renderer
// imports nothing from main/, everything outside main/core reaches the core
// through its face (main/core/index.ts), and the simulator imports no core at
// all. `npm run structure` measures the same and test/unit/structure holds it.
import tseslint from 'typescript-eslint';

const restrict = (paths, patterns = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});

const noIpcMain = { name: 'electron', importNames: ['ipcMain'], message: 'Only main/ipc/bind-electron.ts may import ipcMain.' };
const noIpcRenderer = { name: 'electron', importNames: ['ipcRenderer'], message: 'Only the preload may import ipcRenderer.' };
const noElectron = { name: 'electron', message: 'The core, services, simulator and host are plain Node: no Electron import.' };

// The core's face. Tests under test/ are not held by it: a unit test of a core
// module (the pace, the seed ISO, a schema) imports that module itself.
const coreFace = {
  regex: '^(\\.\\./)+(main/)?core/.+',
  message: "Import the core through its face, main/core/index.ts ('…/core'): add what you need to that list.",
};
// The simulator states Proxmox's behaviour from Proxmox's own sources; sharing the core's tables would let a
// wrong table pass on both sides.
const noCoreInSimulator = {
  regex: '^(\\.\\./)+core(/.*)?$',
  message: 'The simulator imports nothing from the core: model Proxmox from its sources instead.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.tsbuild/', 'coverage/', 'test-results/', '**/*.d.ts'] },
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  // no-restricted-imports is one rule: a later block replaces it for the files it names, so each block below
  // lists every restriction its files carry (the plain-Node ones repeat the Electron ones).
  {
    files: ['main/**/*.ts'],
    ignores: ['main/ipc/bind-electron.ts', 'main/preload/**'],
    rules: restrict([noIpcMain, noIpcRenderer], [coreFace]),
  },
  { files: ['main/ipc/bind-electron.ts', 'scripts/**/*.ts'], rules: restrict([], [coreFace]) },
  {
    files: ['main/services/**/*.ts', 'main/host/**/*.ts', 'main/ipc/router.ts', 'main/log/**/*.ts'],
    rules: restrict([noIpcMain, noIpcRenderer, noElectron], [coreFace]),
  },
  { files: ['main/core/**/*.ts', 'shared/**/*.ts'], rules: restrict([noElectron]) },
  { files: ['main/simulator/**/*.ts'], rules: restrict([noElectron], [noCoreInSimulator]) },
  { files: ['main/preload/**/*.ts'], rules: restrict([noIpcMain]) },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: restrict(
      [noElectron],
      [{ group: ['**/main/**', '../main/*', '../../main/*'], message: 'The renderer talks to main only through the contract.' }],
    ),
  },
);
