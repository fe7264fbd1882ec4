/**
 * Every test composes the app through test/support/compose-app.ts, whose
 * scheduled checks keep still: a test that composed main's own composeApp
 * could check a simulated guest at 192.168.x and be failed by the no-egress
 * guard at a moment of the wall clock (twice so far, each a new copy).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../../..');
const own = 'test/support/compose-app.ts';
const self = 'test/unit/structure/test-compose.test.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Imports of a value (not only types) from main/app/compose, with their file. */
export function valueImportsOfCompose(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  const pattern = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'[./]*main\/app\/compose'|import\(\s*'[./]*main\/app\/compose'\s*\)/g;
  for (const { path, text } of files) {
    for (const match of text.matchAll(pattern)) {
      const names = match[2];
      const onlyTypes = match[1] !== undefined || (names !== undefined && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type ')));
      if (!onlyTypes) found.push(path);
    }
  }
  return found;
}

describe('how tests compose the app', () => {
  it("no test imports main's composeApp but test/support/compose-app.ts", () => {
    const files = tsFiles(join(root, 'test'))
      .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))
      .filter((f) => f.path !== own && f.path !== self);
    expect(valueImportsOfCompose(files)).toEqual([]);
  });

  it('finds a value import, and lets a type import be', () => {
    expect(
      valueImportsOfCompose([
        { path: 'a.ts', text: "import { composeApp, type ComposedApp } from '../../main/app/compose';" },
        { path: 'b.ts', text: "import type { ComposedApp } from '../../main/app/compose';" },
        { path: 'c.ts', text: "import { type ComposeOptions } from '../main/app/compose';" },
        { path: 'd.ts', text: "const m = await import('../../main/app/compose');" },
      ]),
    ).toEqual(['a.ts', 'd.ts']);
  });
});
