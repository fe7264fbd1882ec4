/** Screenshots written by the e2e run land in test-results/screenshots/ (the README's pictures are copied from there). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

export function screenshotPath(name: string): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
