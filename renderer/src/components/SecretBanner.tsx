/**
 * One banner, above every view, while a cluster waits for its token secret
 * (a session-only secret after a restart, an imported profile): it says so,
 * and Enter secret is right there. Views then word that cluster as "not
 * checked", never as degraded, empty or missing its templates.
 */
import { useState } from 'react';
import type { ProfileSummary } from '../../../shared/domain/profile';
import { useSecretsNeeded } from '../stores/secrets-needed';
import { SecretDialog } from '../views/settings/SecretDialog';
import './notices.css';

export function SecretBanner() {
  const needed = useSecretsNeeded();
  const [entering, setEntering] = useState<ProfileSummary>();
  if (needed.length === 0 && !entering) return null;
  const names = needed.map((p) => p.name);
  return (
    <>
      {needed.length > 0 && (
        <div className="secret-banner" role="region" aria-label="Token secret needed">
          <p>
            <strong>
              {needed.length === 1
                ? `The token secret of ${names[0]} is not available.`
                : `The token secrets of ${names.slice(0, -1).join(', ')} and ${names.at(-1)} are not available.`}
            </strong>{' '}
            It was kept for this session only, or the profile was imported. Until it is entered again nothing is listed or
            checked on {needed.length === 1 ? 'that cluster' : 'those clusters'}; nothing is wrong with{' '}
            {needed.length === 1 ? 'it' : 'them'}.
          </p>
          <div className="secret-banner-actions">
            {needed.map((p) => (
              <button key={p.id} type="button" className="primary" onClick={() => setEntering(p)}>
                {needed.length === 1 ? 'Enter secret' : `Enter secret for ${p.name}`}
              </button>
            ))}
          </div>
        </div>
      )}
      {entering && <SecretDialog profile={entering} onClose={() => setEntering(undefined)} />}
    </>
  );
}
