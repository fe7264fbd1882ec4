// Lint rules hold the architecture's boundaries as well as code quality:
// only the IPC binding imports ipcMain, only the preload imports ipcRenderer,
// nothing under the core or the services imports electron, and the renderer
// imports nothing from main/.
import tseslint from 'typescript-eslint';

const restrict = (paths, patterns = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});

const noIpcMain = { name: 'electron', importNames: ['ipcMain'], message: 'Only main/ipc/bind-electron.ts may import ipcMain.' };
const noIpcRenderer = { name: 'electron', importNames: ['ipcRenderer'], message: 'Only the preload may import ipcRenderer.' };
const noElectron = { name: 'electron', message: 'The core, services, simulator and host are plain Node: no Electron import.' };

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
  { files: ['main/**/*.ts'], ignores: ['main/ipc/bind-electron.ts', 'main/preload/**'], rules: restrict([noIpcMain, noIpcRenderer]) },
  {
    files: [
      'main/core/**/*.ts',
      'main/services/**/*.ts',
      'main/simulator/**/*.ts',
      'main/host/**/*.ts',
      'main/ipc/router.ts',
      'main/log/**/*.ts',
      'shared/**/*.ts',
    ],
    rules: restrict([noElectron]),
  },
  { files: ['main/preload/**/*.ts'], rules: restrict([noIpcMain]) },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: restrict(
      [noElectron],
      [{ group: ['**/main/**', '../main/*', '../../main/*'], message: 'The renderer talks to main only through the contract.' }],
    ),
  },
);
