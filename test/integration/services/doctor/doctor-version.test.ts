/** The doctor names the Proxmox VE release and what it changes (version-notes.ts); an older one warns, never blocks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PveApi } from '../../../../main/core/pve/api';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import { checkToken } from '../../../../main/services/doctor/token-check';
import { startSimulator, type PveVersion, type Simulator } from '../../../../main/simulator';

const logger = createLogger({ sinks: [] });

describe.each([
  ['7.4', /7\.4: disk resize finishes at once \(no task\); supported/],
  ['9.2', /9\.2: disk resize runs as a task/],
] as const)('connect doctor on Proxmox VE %s', (version: PveVersion, note) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ timeScale: 0.001, version });
  });
  afterAll(() => sim.close());

  it('reports the version and its notes in the token section', async () => {
    const { tokenId, secret } = sim.tokens.operator!;
    const report = await runDoctor({ url: sim.url, tokenId, secret, tls: { mode: 'pin', fingerprint: sim.fingerprint } }, { logger });
    expect(report.token).toMatchObject({ status: 'ok', data: { release: version } });
    expect(report.token.data.versionNotes!.join('\n')).toMatch(note);
    expect(report.discovery.status).not.toBe('skipped');
  });
});

describe('a release older than 7.4', () => {
  it('warns with what to do, and lets the next steps run', async () => {
    const api = { version: () => Promise.resolve({ version: '6.4-15', release: '6.4', repoid: 'af7986e6' }) } as unknown as PveApi;
    const section = await checkToken({
      api,
      tokenId: 'a@pve!b',
      url: 'https://127.0.0.1:8006',
      tls: { mode: 'insecure' },
      timeoutMs: 1000,
    });
    expect(section).toMatchObject({ status: 'warn', blocking: false, data: { version: '6.4-15', release: '6.4' } });
    expect(section.hint).toMatch(/Upgrade to Proxmox VE 7\.4 or newer/);
    expect(section.data.versionNotes!.join('\n')).toMatch(/older than 7\.4/);
  });
});
