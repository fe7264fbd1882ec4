/**
 * The app process that dies in the sentinel session: the composed app on
 * the parent's data folder (it unseals the stored secret itself), asked to
 * create one proxy through the router. Its log lines, events and answers go
 * to stdout, so the parent can search them; the parent SIGKILLs it mid-create.
 */
import { composeApp } from '../../support/compose-app';
import { nodeRuntime } from '../../../main/app/runtime-info';
import { createLogger } from '../../../main/log/logger';

const out = (line: string) => process.stdout.write(line + '\n');
const logger = createLogger({ level: 'debug', sinks: [out] });
const app = composeApp({
  mode: 'browser',
  version: '0',
  runtime: nodeRuntime(),
  logger,
  dataDir: process.env.SESSION_DATA_DIR,
  demo: 'off',
});
app.bus.subscribe((name, payload) => out(JSON.stringify({ event: name, payload })));
const ctx = { signal: new AbortController().signal, transport: 'test' };
out(JSON.stringify({ answer: await app.router.dispatch('tasks.createProxies', JSON.parse(process.env.SESSION_CREATE ?? '{}'), ctx) }));
