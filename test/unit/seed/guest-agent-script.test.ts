import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUEST_AGENT_SCRIPT } from '../../../main/core/seed/guest-agent-script';

// The Go merge request, read-only reference next to the repository (never copied in).
const seedsDir = join(import.meta.dirname, '../../../../shared/seeds');
const mergeRequest = existsSync(seedsDir) ? readdirSync(seedsDir).find((f) => f.startsWith('001_')) : undefined;
if (mergeRequest === undefined) console.log(`${seedsDir}/001_*.txt is absent: skipping the check against the Go original`);

/** The script's lines as the diff shows them after the change: context and added lines, up to the hunk's end. */
function goScriptHead(): string[] {
  const lines = readFileSync(join(seedsDir, mergeRequest!), 'utf8').split('\n');
  const start = lines.findIndex((l) => l === '+const GuestAgentScript = `#!/bin/sh');
  const head = ['#!/bin/sh'];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('@@')) break;
    if (line.startsWith(' ') || line.startsWith('+')) head.push(line.slice(1));
  }
  return head;
}

describe('the guest agent script', () => {
  it.skipIf(mergeRequest === undefined)('starts with the Go original verbatim and ends the same way', () => {
    const head = goScriptHead();
    expect(head.length).toBeGreaterThanOrEqual(6);
    expect(GUEST_AGENT_SCRIPT.startsWith(`${head.join('\n')}\n`)).toBe(true);
    expect(GUEST_AGENT_SCRIPT.endsWith('\nfi\n')).toBe(true);
  });

  const sh = existsSync('/bin/sh');
  if (!sh) console.log('/bin/sh is absent: skipping the syntax check');
  it.skipIf(!sh)('parses with /bin/sh (dash on Debian, the guest family F21 ran)', () => {
    expect(() => execFileSync('/bin/sh', ['-n'], { input: GUEST_AGENT_SCRIPT, stdio: ['pipe', 'pipe', 'pipe'] })).not.toThrow();
    expect(() => execFileSync('/bin/sh', ['-n'], { input: 'if true; then\n', stdio: ['pipe', 'pipe', 'pipe'] })).toThrow();
  });

  it('stops at the first failing step, so a failed install is not reported as done', () => {
    expect(GUEST_AGENT_SCRIPT.split('\n')).toContain('set -e');
  });
});
