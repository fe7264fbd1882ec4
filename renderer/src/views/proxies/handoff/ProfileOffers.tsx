/**
 * Issue 26: the providers-config entries found in the text taken in, each as
 * main offered it (handoff.import's `offers`): Make a cluster profile, which
 * opens the connect wizard pre-filled with main's draft; or, when a saved
 * cluster already talks to that URL, Open that one instead of a duplicate;
 * or the entry's problems, each naming its key. Only shown, never decided.
 */
import type { HandoffImportResult } from '../../../../../shared/channels/handoff';
import { useSettings } from '../../../stores/settings';
import { useUi } from '../../../stores/ui';
import './handoff.css';

type Offer = HandoffImportResult['offers'][number];

function OfferItem({ offer, onLeave }: { offer: Offer; onLeave: () => void }) {
  const where = offer.url ? ` (${offer.url})` : '';
  if (offer.problems.length > 0 || !offer.draft)
    return (
      <li>
        <strong>{offer.provider}</strong>
        {where}: no cluster profile can be made from it.
        <ul>
          {offer.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </li>
    );
  const draft = offer.draft;
  const existing = offer.existing;
  return (
    <li>
      <strong>{offer.provider}</strong>
      {where}
      {existing ? (
        <p>{existing.name} is already connected at this URL: open it rather than making a second cluster for the same server.</p>
      ) : (
        <ul className="muted">
          {offer.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <div className="offer-actions">
        {existing ? (
          <button
            type="button"
            onClick={() => {
              onLeave();
              useUi.getState().openTemplates({ clusterId: existing.id });
            }}
          >
            Open {existing.name}
          </button>
        ) : (
          <button
            type="button"
            onClick={() => {
              onLeave();
              useSettings.getState().openConnectWizard({ provider: offer.provider, draft, notes: offer.notes });
              useUi.getState().setView('settings');
            }}
          >
            Make a cluster profile from {offer.provider}
          </button>
        )}
      </div>
    </li>
  );
}

export function ProfileOffers({ offers, onLeave }: { offers: HandoffImportResult['offers']; onLeave: () => void }) {
  if (offers.length === 0) return null;
  return (
    <section aria-label="Cluster profiles in the text" className="handoff-files handoff-offers">
      <h3>Providers-config entries</h3>
      <p className="muted">
        Each can become a cluster of this app; its token and how its certificate is trusted are yours to give in the wizard.
      </p>
      <ul>
        {offers.map((o, i) => (
          <OfferItem key={`${o.provider}-${i}`} offer={o} onLeave={onLeave} />
        ))}
      </ul>
    </section>
  );
}
