import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureMessage } from '../../../../fixtures';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import { startSimulator, type Simulator } from '../../../../main/simulator';

const logger = createLogger({ sinks: [] });
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001 });
});
afterAll(() => sim.close());

const pin = () => ({ mode: 'pin' as const, fingerprint: sim.fingerprint });

describe('connect doctor: the token (F22)', () => {
  it('a working token: Proxmox version shown, next steps run', async () => {
    const { tokenId, secret } = sim.tokens.operator!;
    const report = await runDoctor({ url: sim.url, tokenId, secret, tls: pin() }, { logger });
    expect(report.token).toMatchObject({ status: 'ok', data: { tokenId, version: expect.any(String) } });
    expect(report.token.message).toContain(report.token.data.version!);
    expect(report.discovery.status).not.toBe('skipped');
  });

  it.each([
    ['a wrong secret', () => ({ tokenId: sim.tokens.operator!.tokenId, secret: 'not-the-secret-of-this-token' })],
    ['an unknown token id', () => ({ tokenId: 'nobody@pve!ghost', secret: sim.tokens.operator!.secret })],
  ])('%s: "Authentication failed!" explained (either the id or the secret), what to do, and nothing further runs', async (_, token) => {
    const report = await runDoctor({ url: sim.url, ...token(), tls: pin() }, { logger });
    expect(report.token).toMatchObject({
      status: 'fail',
      blocking: true,
      data: { cause: 'wrong-token', answer: { status: 401, text: fixtureMessage('err_auth_failed') } },
    });
    expect(report.token.message).toContain(fixtureMessage('err_auth_failed'));
    expect(report.token.message).toMatch(/does not exist, or the secret is not its secret/);
    expect(report.token.hint).toContain('pveum user token list');
    expect(report.token.hint).toContain('pveum user token add');
    expect(report.discovery.status).toBe('skipped');
    expect(report.privileges.status).toBe('skipped');
  });

  it('no credentials: "No ticket" explained (no token reached Proxmox), with what to do', async () => {
    const report = await runDoctor({ url: sim.url, tokenId: sim.tokens.operator!.tokenId, tls: pin() }, { logger });
    expect(report.token).toMatchObject({
      status: 'fail',
      data: { cause: 'no-credentials', answer: { status: 401, text: fixtureMessage('err_no_ticket') } },
    });
    expect(report.token.message).toContain(fixtureMessage('err_no_ticket'));
    expect(report.token.message).toContain('without an API token');
    expect(report.token.hint).toMatch(/Enter the token secret.*Authorization header/);
    expect(report.discovery.status).toBe('skipped');
  });

  it('a token file that is missing: the file problem, not a crash', async () => {
    const report = await runDoctor(
      { profileId: 'p' },
      { logger, resolveProfile: () => ({ url: sim.url, tls: pin(), token: { kind: 'file', path: '/nonexistent/egress-desk-token' } }) },
    );
    expect(report.token.status).toBe('fail');
    expect(report.token.message).toContain('/nonexistent/egress-desk-token');
  });
});
