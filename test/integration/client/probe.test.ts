import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa } from '../../../main/tls/certificates';
import { fetchServerCertificate } from '../../../main/services/doctor/tls-probe';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ leaf: { commonName: 'pv1-1.home.lab', dnsNames: ['pv1-1.home.lab'], ipAddresses: ['192.168.0.8'] } });
});
afterAll(() => server.close());

describe('fetchServerCertificate', () => {
  it('describes the certificate without sending a request, and says what it verifies against', async () => {
    const probe = await fetchServerCertificate(server.baseUrl, { caPem: server.ca!.certPem });
    expect(probe.certificate).toMatchObject({
      subjectCommonName: 'pv1-1.home.lab',
      subjectAltNames: ['DNS:pv1-1.home.lab', 'IP Address:192.168.0.8'],
      issuerCommonName: 'Replay Test CA',
      fingerprint: server.certificate.fingerprint,
    });
    expect(probe.verifiesAgainstSystemRoots).toBe(false);
    expect(probe.systemRootsError).toBeDefined();
    expect(probe.verifiesAgainstCa).toBe(true);
    expect(probe.checkedName).toBe('127.0.0.1');
    expect(probe.hostnameMatches).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('with a server name the certificate lists, the name matches', async () => {
    const probe = await fetchServerCertificate(server.baseUrl, { serverName: 'pv1-1.home.lab' });
    expect(probe).toMatchObject({ checkedName: 'pv1-1.home.lab', hostnameMatches: true });
    expect(probe.verifiesAgainstCa).toBeUndefined();
  });

  it('a CA that did not sign it does not verify', async () => {
    const other = await createCa('Unrelated CA');
    const probe = await fetchServerCertificate(server.baseUrl, { caPem: other.certPem });
    expect(probe.verifiesAgainstCa).toBe(false);
  });

  it('an unreachable address is a transient connect failure', async () => {
    const closed = await startReplayServer();
    const url = closed.baseUrl;
    await closed.close();
    await expect(fetchServerCertificate(url, { timeoutMs: 2_000 })).rejects.toMatchObject({ name: 'TransportError', failure: 'connect' });
  });
});
