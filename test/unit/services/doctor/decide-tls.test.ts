import { describe, expect, it } from 'vitest';
import { decideTls } from '../../../../main/services/doctor/tls-check';
import type { CertificateProbe } from '../../../../main/services/doctor/tls-probe';

const FP = 'AA:'.repeat(31) + 'AA';
function probe(over: Partial<CertificateProbe> = {}): CertificateProbe {
  return {
    certificate: {
      subjectCommonName: 'pv1-1.home.lab',
      subjectAltNames: ['DNS:pv1-1.home.lab', 'IP Address:192.168.0.8'],
      issuerCommonName: 'Proxmox Virtual Environment',
      validFrom: 'Jan  1 00:00:00 2026 GMT',
      validTo: 'Jan  1 00:00:00 2028 GMT',
      fingerprint: FP,
      selfSigned: false,
    },
    checkedName: '192.168.0.8',
    verifiesAgainstSystemRoots: true,
    hostnameMatches: true,
    ...over,
  };
}

describe('decideTls: which trust holds, and what the admin is offered', () => {
  it('a publicly trusted certificate for the host: ok with system roots, nothing to decide', () => {
    const out = decideTls(probe(), undefined);
    expect(out.choice).toEqual({ mode: 'system' });
    expect(out.section).toMatchObject({ status: 'ok', blocking: false, data: { offers: [] } });
  });

  it('trusted but for another name (the 192.168.2.8 trap): blocked, names listed, override offered with the DNS name only', () => {
    const out = decideTls(probe({ checkedName: '192.168.2.8', hostnameMatches: false }), undefined);
    expect(out.choice).toBeUndefined();
    expect(out.section.message).toBe('The certificate is not valid for 192.168.2.8: it lists pv1-1.home.lab, 192.168.0.8.');
    expect(out.section.data).toMatchObject({ offers: ['server-name', 'pin'], serverNameCandidates: ['pv1-1.home.lab'] });
  });

  it('a fingerprint pasted in lower case without colons still matches', () => {
    const out = decideTls(probe({ verifiesAgainstSystemRoots: false }), { mode: 'pin', fingerprint: 'aa'.repeat(32) });
    expect(out.choice).toEqual({ mode: 'pin', fingerprint: FP });
  });

  it('a pin ignores the host name (the fingerprint is the identity), and keeps a server-name override', () => {
    const out = decideTls(probe({ hostnameMatches: false }), { mode: 'pin', fingerprint: FP, serverName: 'pv1-1.home.lab' });
    expect(out.choice).toEqual({ mode: 'pin', fingerprint: FP, serverName: 'pv1-1.home.lab' });
  });

  it('insecure passes with a warning that does not block', () => {
    const out = decideTls(probe({ verifiesAgainstSystemRoots: false }), { mode: 'insecure' });
    expect(out.choice).toEqual({ mode: 'insecure' });
    expect(out.section).toMatchObject({ status: 'warn', blocking: false });
    expect(out.section.message).toContain('anyone on the network path can read the token');
  });

  it('a CA that did not sign it: a failure (the admin chose it), offering a pin instead', () => {
    const out = decideTls(probe({ verifiesAgainstCa: false, caError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), { mode: 'ca', caPem: 'pem' });
    expect(out.choice).toBeUndefined();
    expect(out.section).toMatchObject({ status: 'fail', blocking: true });
    expect(out.section.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(out.section.data.offers).toContain('pin');
  });
});
