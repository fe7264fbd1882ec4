import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor, type DoctorConnection } from '../../../../main/services/doctor';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import { startTlsRelay, type TlsRelay } from './tls-relay';

const logger = createLogger({ sinks: [] });
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function sim(port?: number): Promise<Simulator> {
  const s = await startSimulator({ timeScale: 0.001, ...(port ? { port } : {}) });
  opened.push(s);
  return s;
}

const admin = (s: Simulator) => ({ url: s.url, tokenId: s.tokens.admin!.tokenId, secret: s.tokens.admin!.secret });

describe('connect doctor: TLS', () => {
  it('an unknown CA: shows the certificate, offers pinning, and sends no token; pinning it then passes every step', async () => {
    const s = await sim();
    const first = await runDoctor(admin(s), { logger });
    expect(first.tls).toMatchObject({ status: 'warn', blocking: true });
    expect(first.tls.data.certificate).toMatchObject({
      fingerprint: s.fingerprint,
      subjectCommonName: 'pve-sim.home.lab',
      subjectAltNames: expect.arrayContaining(['IP Address:127.0.0.1', 'DNS:pve-sim.home.lab']),
      issuerCommonName: expect.stringContaining('simulated'),
    });
    expect(first.tls.data.certificate?.validTo).toBeTruthy();
    expect(first.tls.data.offers).toContain('pin');
    expect(first.tls.message).toContain(s.fingerprint);
    expect(first.token.status).toBe('skipped');
    expect(first.ready).toBe(false);
    expect(s.requests.total).toBe(0);

    const pinned = await runDoctor({ ...admin(s), tls: { mode: 'pin', fingerprint: first.tls.data.certificate!.fingerprint } }, { logger });
    expect(pinned.tls.status).toBe('ok');
    expect(pinned.token.status).toBe('ok');
    expect(pinned.ready).toBe(true);
    expect(pinned.suggestedProfile.tls).toEqual({ mode: 'pin', fingerprint: s.fingerprint });
  });

  it('the cluster CA given: verifies for the URL host and the profile keeps the CA', async () => {
    const s = await sim();
    const report = await runDoctor({ ...admin(s), tls: { mode: 'ca', caPem: s.caPem! } }, { logger });
    expect(report.tls).toMatchObject({ status: 'ok', data: { verifiesAgainstCa: true, hostnameMatches: true } });
    expect(report.suggestedProfile.tls).toEqual({ mode: 'ca', caPem: s.caPem });
    expect(report.ready).toBe(true);
  });

  describe('the host is not in the certificate (the 192.168.2.8 trap)', () => {
    let relay: TlsRelay;
    async function setUp() {
      const s = await sim();
      relay = await startTlsRelay(s.port, { commonName: 'pv1-1.home.lab', dnsNames: ['pv1-1.home.lab'], ipAddresses: ['192.168.0.8'] });
      opened.push(relay);
      return s;
    }

    it('lists the names the certificate holds, offers the server-name override, and sends no token', async () => {
      const s = await setUp();
      const report = await runDoctor({ ...admin(s), url: relay.url, tls: { mode: 'ca', caPem: relay.ca.certPem } }, { logger });
      expect(report.tls).toMatchObject({ status: 'fail', blocking: true });
      expect(report.tls.message).toContain('not valid for 127.0.0.1');
      expect(report.tls.message).toContain('pv1-1.home.lab, 192.168.0.8');
      expect(report.tls.data.offers).toContain('server-name');
      expect(report.tls.data.serverNameCandidates).toEqual(['pv1-1.home.lab']);
      expect(report.tls.hint).toContain('server name to pv1-1.home.lab');
      expect(report.token.status).toBe('skipped');
      expect(s.requests.total).toBe(0);
    });

    it('with the override it verifies, and the token check goes through', async () => {
      const s = await setUp();
      const tls = { mode: 'ca' as const, caPem: relay.ca.certPem, serverName: 'pv1-1.home.lab' };
      const report = await runDoctor({ ...admin(s), url: relay.url, tls }, { logger });
      expect(report.tls).toMatchObject({ status: 'ok', data: { checkedName: 'pv1-1.home.lab', hostnameMatches: true } });
      expect(report.token.status).toBe('ok');
      expect(report.suggestedProfile.tls).toEqual(tls);
    });
  });

  it('a pinned certificate that changes (the node restarted with a new one): blocking warning with both fingerprints, no re-trust, no token sent', async () => {
    const before = await sim();
    const port = before.port;
    const secret = before.tokens.admin!.secret;
    const profile: DoctorConnection = {
      url: before.url,
      tls: { mode: 'pin', fingerprint: before.fingerprint },
      tokenId: before.tokens.admin!.tokenId,
      token: { kind: 'secret', tokenId: before.tokens.admin!.tokenId, secret: () => secret },
    };
    const resolveProfile = (id: string) => {
      expect(id).toBe('home');
      return profile;
    };
    expect((await runDoctor({ profileId: 'home' }, { logger, resolveProfile })).tls.status).toBe('ok');
    await before.close();

    const after = await sim(port);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    const report = await runDoctor({ profileId: 'home' }, { logger, resolveProfile });
    expect(report.tls).toMatchObject({
      status: 'warn',
      blocking: true,
      data: { changed: { pinned: before.fingerprint, presented: after.fingerprint } },
    });
    expect(report.tls.message).toContain(before.fingerprint);
    expect(report.tls.message).toContain(after.fingerprint);
    expect(report.tls.data.choice).toBeUndefined();
    expect(report.suggestedProfile.tls).toBeUndefined();
    expect(report.token.status).toBe('skipped');
    expect(report.ready).toBe(false);
    expect(after.requests.total).toBe(0);
  });

  it('an address nobody listens on: a plain failure, not a crash', async () => {
    const s = await sim();
    const url = s.url;
    await s.close();
    const report = await runDoctor({ url, tokenId: 'a@pve!b', secret: 'a-secret-nobody-will-check-1' }, { logger, callTimeoutMs: 2_000 });
    expect(report.tls).toMatchObject({ status: 'fail', blocking: true });
    expect(report.tls.hint).toContain('8006');
  });
});
