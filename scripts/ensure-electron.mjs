// `npm start` runs this first. Recent npm versions hold install scripts back
// until approved, so Electron's binary may be missing after `npm ci`.
// Requiring the `electron` package fetches it on demand; if that fails we
// stop with the exact command to run instead of a stack trace.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  const binary = require('electron');
  if (typeof binary !== 'string' || !existsSync(binary)) throw new Error(`no executable at ${String(binary)}`);
  console.log(`Electron binary: ${binary}`);
} catch (error) {
  console.error(
    [
      '',
      'Egress Desk needs the Electron binary, and it is not installed yet.',
      `(${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      '',
      'On a machine with internet access, run once:',
      '  node node_modules/electron/install.js',
      'then `npm start` again.',
      '',
      'Without Electron, the same app runs in your browser:  npm run start:web',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
