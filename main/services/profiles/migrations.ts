/**
 * Versioned migrations of the profile file, keyed by the document version
 * that introduces the change (conf runs them in order on a file written by
 * an older version, then records the new version). Each takes the old
 * document and returns the new one; the result is validated like any load.
 *
 * 1.0.0, the first preview: `clusters` with flat TLS fields (`fingerprint`,
 * `caPem`, `insecure`, `serverName`) and `tokenId` or `tokenFile`; secrets as
 * `{cipher}` encrypted by the keyring; no settings.
 */
import { defaultSettings } from '../../../shared/domain/profile';

/** Bumped with a migration below whenever the document's shape changes. */
export const DOCUMENT_VERSION = '2.0.0';

export type RawDocument = Record<string, unknown>;
export type Migration = (doc: RawDocument) => RawDocument;

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function tlsOf(c: Raw): Raw {
  const serverName = typeof c.serverName === 'string' ? { serverName: c.serverName } : {};
  if (typeof c.fingerprint === 'string') return { mode: 'pin', fingerprint: c.fingerprint, ...serverName };
  if (typeof c.caPem === 'string') return { mode: 'ca', caPem: c.caPem, ...serverName };
  if (c.insecure === true) return { mode: 'insecure', ...serverName };
  return { mode: 'system', ...serverName };
}

function profileFrom1(c: Raw, sealed: boolean, now: string): Raw {
  const { fingerprint: _f, caPem: _c, insecure: _i, serverName: _s, tokenId, tokenFile, ...rest } = c;
  const token =
    typeof tokenFile === 'string' ? { secretStorage: 'file', tokenFile } : { secretStorage: sealed ? 'keyring' : 'session', tokenId };
  return { ...rest, tls: tlsOf(c), token, createdAt: now, updatedAt: now };
}

const to2: Migration = (doc) => {
  const now = new Date().toISOString();
  const oldSecrets = isRecord(doc.secrets) ? doc.secrets : {};
  const secrets: Raw = {};
  for (const [id, s] of Object.entries(oldSecrets)) {
    if (isRecord(s) && typeof s.cipher === 'string') secrets[id] = { storage: 'keyring', encoding: 'vault', value: s.cipher };
  }
  const clusters = Array.isArray(doc.clusters) ? doc.clusters : [];
  const profiles = clusters.map((c: unknown) => (isRecord(c) ? profileFrom1(c, typeof c.id === 'string' && c.id in secrets, now) : c));
  const { clusters: _old, secrets: _oldSecrets, ...rest } = doc;
  return { ...rest, profiles, secrets, settings: structuredClone(defaultSettings) };
};

export const migrations: Record<string, Migration> = {
  '2.0.0': to2,
};
