/**
 * The Checker (spec entry 16) over the simulator and the real client: each
 * reason an admin can act on, produced by the cluster state, the TLS and
 * token choices or a fault, with the details filled as far as the check
 * got, one entry per node in profile order, the nodes checked at once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureMessage } from '../../../fixtures';
import type { NodeCheck } from '../../../main/core';
import { createCa } from '../../../main/tls/certificates';
import { simProvider, variantProvider, type SimProvider, type VariantOptions } from './sim-provider';

const NO_SYS_AUDIT = { tokenId: 'checker@pve!no-sys-audit', acl: { '/': ['VM.Audit', 'Datastore.Audit'] } };
const SECRET_SENTINEL = 'sentinel-secret-in-a-malformed-token-file';

let env: SimProvider;
let dir: string;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, tokens: { noSysAudit: NO_SYS_AUDIT } });
  dir = await mkdtemp(join(tmpdir(), 'egress-check-'));
});
afterAll(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function checkWith(options: VariantOptions): Promise<NodeCheck> {
  const v = variantProvider(env.sim, options);
  try {
    const [node] = await v.provider.check();
    return node!;
  } finally {
    await v.close();
  }
}
const checkDefault = async () => (await env.provider.check())[0]!;
const withFault = async (install: () => () => void, run: () => Promise<NodeCheck>) => {
  const remove = install();
  try {
    return await run();
  } finally {
    remove();
  }
};
const fieldErrorOf = (name: string) =>
  Object.entries(fixtureJson<{ errors: Record<string, string> }>(name)!.errors).map(([k, v]) => `${k}: ${v}`)[0]!;
const version = () => fixtureJson<{ data: { version: string } }>('version')!.data.version;

describe('the Checker over the simulator', () => {
  it('Reachable: every detail filled, the token id without its secret', async () => {
    const node = await checkDefault();
    expect(node).toMatchObject({ node: 'pv1-1', address: env.sim.url, ready: true, reason: 'Reachable', message: '' });
    expect(node.details).toMatchObject({
      pveVersion: version(),
      tokenID: env.sim.tokens.operator!.tokenId,
      isoStorage: 'proxy-seeds',
      templates: '1/1',
    });
    expect(node.details.kernel).toMatch(/pve/);
    expect(Number(node.details.isoStorageAvailGiB)).toBeGreaterThan(0);
    expect(JSON.stringify(node)).not.toContain(env.sim.tokens.operator!.secret);
  });

  it('Unreachable: the node is down and pveproxy answers 595; details up to the failure', async () => {
    env.sim.faults.nodeDown('pv1-1');
    try {
      const node = await checkDefault();
      expect(node).toMatchObject({ ready: false, reason: 'Unreachable' });
      expect(node.message).toContain(fixtureMessage('err_proxy_595'));
      expect(node.details.pveVersion).toBe(version());
      expect(node.details.kernel).toBeUndefined();
    } finally {
      env.sim.faults.nodeUp('pv1-1');
    }
  });

  it('Unreachable: a 596 from pveproxy', async () => {
    const node = await withFault(
      () => env.sim.faults.inject({ route: '/nodes/{node}/status' }, { kind: 'unreachable', status: 596 }, 1),
      checkDefault,
    );
    expect(node).toMatchObject({ reason: 'Unreachable' });
    expect(node.message).toContain(fixtureMessage('err_proxy_596'));
  });

  it('Unauthorized: a wrong secret (Authentication failed!) and no credentials (No ticket)', async () => {
    const operator = env.sim.tokens.operator!;
    const wrong = await checkWith({ token: { kind: 'secret', tokenId: operator.tokenId, secret: () => 'wrong-secret' } });
    expect(wrong).toMatchObject({ reason: 'Unauthorized' });
    expect(wrong.message).toContain(fixtureMessage('err_auth_failed'));
    const none = await withFault(
      () => env.sim.faults.inject({ route: '/version' }, { kind: 'error', fixture: 'err_no_ticket' }, 1),
      checkDefault,
    );
    expect(none).toMatchObject({ reason: 'Unauthorized' });
    expect(none.message).toContain(fixtureMessage('err_no_ticket'));
  });

  it('Forbidden: the message names the path and the missing privilege', async () => {
    const node = await checkWith({
      token: { kind: 'secret', tokenId: NO_SYS_AUDIT.tokenId, secret: () => env.sim.tokens.noSysAudit!.secret },
    });
    expect(node).toMatchObject({ reason: 'Forbidden', ready: false });
    expect(node.message).toContain(fixtureMessage('err_forbidden').replace('Sys.Syslog', 'Sys.Audit'));
  });

  it('StorageNotFound: a storage the cluster does not know (400 storage: No such storage.), and one without iso content', async () => {
    const missing = await checkWith({ profile: { isoStorage: 'no-such-seeds' } });
    expect(missing).toMatchObject({ reason: 'StorageNotFound', ready: false });
    expect(missing.message).toContain(fieldErrorOf('storage_status_missing'));
    expect(missing.details).toMatchObject({ isoStorage: 'no-such-seeds', pveVersion: version() });
    const noIso = await checkWith({ profile: { isoStorage: 'local-lvm' } });
    expect(noIso).toMatchObject({ reason: 'StorageNotFound' });
    expect(noIso.message).toMatch(/iso/);
  });

  it('TemplateNotFound: a VMID that does not exist and a VM that is not a template; details count them', async () => {
    const node = await checkWith({ profile: { templates: { gone: { vmid: 9999 }, plain: { vmid: 100 }, good: { vmid: 9001 } } } });
    expect(node).toMatchObject({ reason: 'TemplateNotFound', ready: false });
    expect(node.message).toContain('9999');
    expect(node.message).toContain('100');
    expect(node.details.templates).toBe('1/3');
  });

  it('CertificateInvalid: a CA that did not sign the certificate, and a wrong pin; the right pin passes', async () => {
    const otherCa = await createCa('Not the simulator CA');
    expect(await checkWith({ tls: { mode: 'ca', caPem: otherCa.certPem } })).toMatchObject({ reason: 'CertificateInvalid', ready: false });
    const wrongPin = 'AA:'.repeat(31) + 'AA';
    expect(await checkWith({ tls: { mode: 'pin', fingerprint: wrongPin } })).toMatchObject({ reason: 'CertificateInvalid' });
    expect(await checkWith({ tls: { mode: 'pin', fingerprint: env.sim.fingerprint } })).toMatchObject({ reason: 'Reachable' });
  });

  it('Timeout: a request that hangs past a shortened request timeout', async () => {
    const started = performance.now();
    const node = await withFault(
      () => env.sim.faults.inject({ route: '/nodes/{node}/status' }, { kind: 'hang' }, 1),
      () => checkWith({ requestTimeoutMs: 150 }),
    );
    expect(node).toMatchObject({ reason: 'Timeout', ready: false });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(node.details.pveVersion).toBe(version());
  });

  it('CredentialsUnavailable: a missing token file and a malformed one, before any request, never quoting it', async () => {
    const before = env.sim.requests.total;
    const missing = await checkWith({ token: { kind: 'file', path: join(dir, 'absent') } });
    expect(missing).toMatchObject({ reason: 'CredentialsUnavailable', ready: false });
    const malformed = join(dir, 'malformed');
    await writeFile(malformed, `not a token line ${SECRET_SENTINEL}\n`);
    const bad = await checkWith({ token: { kind: 'file', path: malformed } });
    expect(bad).toMatchObject({ reason: 'CredentialsUnavailable' });
    expect(JSON.stringify(bad)).not.toContain(SECRET_SENTINEL);
    expect(env.sim.requests.total).toBe(before);
    expect(bad.details.isoStorage).toBe('proxy-seeds');
  });
});

describe('the same failures from an operation (spec entry 13)', () => {
  async function getWith(options: VariantOptions): Promise<unknown> {
    const v = variantProvider(env.sim, options);
    try {
      return await v.provider.get('vms/150000/proxy-x').catch((e: unknown) => e);
    } finally {
      await v.close();
    }
  }

  it('a certificate that does not verify is permanent; a missing token file transient, a malformed one permanent', async () => {
    const otherCa = await createCa('Not the simulator CA either');
    expect(await getWith({ tls: { mode: 'ca', caPem: otherCa.certPem } })).toMatchObject({ kind: 'permanent', op: 'get' });
    expect(await getWith({ token: { kind: 'file', path: join(dir, 'not-yet') } })).toMatchObject({ kind: 'transient' });
    const malformed = join(dir, 'malformed-for-get');
    await writeFile(malformed, 'user-without-realm=secret\n');
    expect(await getWith({ token: { kind: 'file', path: malformed } })).toMatchObject({ kind: 'permanent' });
  });
});

describe('the Checker over a three-node simulator', () => {
  let demo: SimProvider;
  beforeAll(async () => {
    demo = await simProvider({ dataset: 'demo', timeScale: 0.001, profile: { nodes: ['pv1-3', 'pv1-2', 'pv1-1'] } });
  });
  afterAll(async () => demo?.close());

  it('answers one entry per node in profile order, checking the nodes at once', async () => {
    const DELAY_MS = 600;
    demo.sim.faults.inject({ route: '/nodes/{node}/status', node: 'pv1-1' }, { kind: 'delay', ms: DELAY_MS }, 1);
    demo.sim.faults.inject({ route: '/nodes/{node}/status', node: 'pv1-2' }, { kind: 'delay', ms: DELAY_MS }, 1);
    const started = performance.now();
    const checks = await demo.provider.check();
    const elapsed = performance.now() - started;
    expect(checks.map((c) => [c.node, c.reason])).toEqual([
      ['pv1-3', 'Unreachable'],
      ['pv1-2', 'Reachable'],
      ['pv1-1', 'Reachable'],
    ]);
    // One after the other would take at least twice the delay.
    expect(elapsed).toBeLessThan(2 * DELAY_MS);
    expect(checks.every((c) => c.details.isoStorage === 'proxy-seeds')).toBe(true);
  });
});
