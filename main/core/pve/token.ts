/**
 * Where the API token comes from, asked on every request so a rotated
 * secret needs no restart (spec entry 14): an in-memory secret from the
 * store, or a token file holding one line `user@realm!tokenid=secret`.
 * The secret is registered with the redactor the moment it is read.
 */
import { readFile } from 'node:fs/promises';
import { registerSecret } from '../../log/secrets';
import { TokenFileError } from './failures';

export type TokenSource = { kind: 'secret'; tokenId: string; secret: () => string | Promise<string> } | { kind: 'file'; path: string };

export interface ApiToken {
  /** `user@realm!tokenid`: safe to show and log. */
  tokenId: string;
  secret: string;
}

const tokenLine = /^([^\s@!=]+@[^\s@!=]+![^\s@!=]+)=(\S+)$/;

/** Parses `user@realm!tokenid=secret`; undefined when the text is not exactly that (surrounding whitespace allowed). */
export function parseTokenLine(text: string): ApiToken | undefined {
  const m = tokenLine.exec(text.trim());
  return m ? { tokenId: m[1]!, secret: m[2]! } : undefined;
}

async function readTokenFile(path: string): Promise<ApiToken> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TokenFileError(code === 'ENOENT' ? 'missing' : 'unreadable', path);
  }
  const token = parseTokenLine(text);
  if (!token) throw new TokenFileError('malformed', path);
  return token;
}

export async function readToken(source: TokenSource): Promise<ApiToken> {
  const token = source.kind === 'file' ? await readTokenFile(source.path) : { tokenId: source.tokenId, secret: await source.secret() };
  registerSecret(token.secret);
  return token;
}

export function authorizationHeader(token: ApiToken): string {
  return `PVEAPIToken=${token.tokenId}=${token.secret}`;
}
