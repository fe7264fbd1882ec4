/**
 * Page 2: the node's certificate did not verify. Show it (who it names,
 * who issued it, when it is valid, its SHA-256 fingerprint) and let the
 * admin choose how to trust it, from what the doctor offers.
 */
import { useState } from 'react';
import type { DoctorTlsInput, TlsOffer, TlsSection } from '../../../../../shared/channels/doctor';
import { Field } from '../../../components/common';

const offerWords: Record<TlsOffer, string> = {
  pin: 'Trust this certificate: pin its fingerprint',
  ca: 'Trust the CA that issued it (paste the CA certificate)',
  'server-name': 'Check it against another name it carries',
  insecure: 'Do not verify the certificate (not recommended)',
};

export function TrustStep({ section, onTrust, busy }: { section: TlsSection; onTrust: (tls: DoctorTlsInput) => void; busy: boolean }) {
  const cert = section.data.certificate;
  const offers = section.data.offers;
  const [offer, setOffer] = useState<TlsOffer | undefined>(offers[0]);
  const [caPem, setCaPem] = useState('');
  const [serverName, setServerName] = useState(section.data.serverNameCandidates[0] ?? '');

  const choice = (): DoctorTlsInput | undefined => {
    if (offer === 'pin' && cert) return { mode: 'pin', fingerprint: cert.fingerprint };
    if (offer === 'ca') return { mode: 'ca', caPem };
    if (offer === 'server-name') return { mode: 'system', serverName };
    if (offer === 'insecure') return { mode: 'insecure' };
    return undefined;
  };

  return (
    <div className="wizard-page">
      <div role="alert" className="error-notice error-permanent">
        <p className="error-message">{section.message}</p>
        <p className="error-hint">What to do: {section.hint}</p>
      </div>
      {section.data.changed && (
        <p className="error-notice error-permanent">
          The certificate changed since it was pinned: pinned {section.data.changed.pinned}, presented {section.data.changed.presented}.
        </p>
      )}
      {cert && (
        <dl className="facts certificate" aria-label="Certificate">
          <dt>Issued to</dt>
          <dd>{cert.subjectCommonName ?? '—'}</dd>
          <dt>Names</dt>
          <dd>{cert.subjectAltNames.join(', ') || '—'}</dd>
          <dt>Issued by</dt>
          <dd>
            {cert.issuerCommonName ?? '—'}
            {cert.selfSigned ? ' (self-signed)' : ''}
          </dd>
          <dt>Valid</dt>
          <dd>
            {cert.validFrom} to {cert.validTo}
          </dd>
          <dt>SHA-256 fingerprint</dt>
          <dd>
            <code aria-label="Fingerprint">{cert.fingerprint}</code>
          </dd>
        </dl>
      )}
      <p className="muted">Compare the fingerprint with the one the node shows (Node → System → Certificates) before you trust it.</p>
      <fieldset>
        <legend>How to trust it</legend>
        {offers.map((o) => (
          <label key={o} className="choice">
            <input type="radio" name="tls-offer" checked={offer === o} onChange={() => setOffer(o)} />
            {offerWords[o]}
          </label>
        ))}
      </fieldset>
      {offer === 'ca' && (
        <Field label="CA certificate (PEM)">
          <textarea rows={6} value={caPem} onChange={(e) => setCaPem(e.target.value)} />
        </Field>
      )}
      {offer === 'server-name' && (
        <Field label="Name to check">
          <select value={serverName} onChange={(e) => setServerName(e.target.value)}>
            {section.data.serverNameCandidates.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </Field>
      )}
      <button
        type="button"
        className="primary"
        disabled={busy || !choice() || (offer === 'ca' && !caPem.trim())}
        onClick={() => {
          const c = choice();
          if (c) onTrust(c);
        }}
      >
        {offer === 'pin' ? 'Trust this certificate and continue' : 'Continue with this choice'}
      </button>
    </div>
  );
}
