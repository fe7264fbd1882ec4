/**
 * MD5-crypt (Poul-Henning Kamp's FreeBSD algorithm), with the two magics the
 * presets need: `$apr1$` (Apache's htpasswd, which Squid's basic_ncsa_auth
 * reads) and `$1$` (crypt(3), which `chpasswd -e` writes into /etc/shadow for
 * Dante's `username` method). Node has no crypt(3); the algorithm is small and
 * fixed, and test/unit/services/md5-crypt.test.ts holds it to `openssl passwd`
 * and to Debian's basic_ncsa_auth itself.
 *
 * MD5-crypt is a weak hash for a password a person chose. The app's proxy
 * passwords are 192 random bits, so no hash speed makes guessing one
 * feasible; the hash is there so the seed and the VM's files do not carry the
 * clear text where the daemon allows it (docs/security.md).
 */
import { createHash, randomBytes } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type Md5CryptMagic = '$apr1$' | '$1$';

function to64(value: number, count: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < count; i++) {
    out += ITOA64[v & 0x3f];
    v >>>= 6;
  }
  return out;
}

/** Eight salt characters from crypt's alphabet. */
export function newSalt(): string {
  return [...randomBytes(8)].map((b) => ITOA64[b & 0x3f]).join('');
}

export function md5Crypt(password: string, salt: string, magic: Md5CryptMagic): string {
  if (!/^[./0-9A-Za-z]{1,8}$/.test(salt)) throw new Error('an MD5-crypt salt is 1 to 8 characters of [./0-9A-Za-z]');
  const pw = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt, 'ascii');
  const md5 = () => createHash('md5');
  let alt = md5().update(pw).update(s).update(pw).digest();
  const ctx = md5().update(pw).update(magic).update(s);
  for (let left = pw.length; left > 0; left -= 16) ctx.update(alt.subarray(0, Math.min(left, 16)));
  for (let i = pw.length; i > 0; i >>= 1) ctx.update(i & 1 ? Buffer.from([0]) : pw.subarray(0, 1));
  let final = ctx.digest();
  for (let round = 0; round < 1000; round++) {
    const c = md5();
    c.update(round & 1 ? pw : final);
    if (round % 3) c.update(s);
    if (round % 7) c.update(pw);
    c.update(round & 1 ? final : pw);
    final = c.digest();
  }
  alt = final;
  const f = (i: number) => alt[i]!;
  const body =
    to64((f(0) << 16) | (f(6) << 8) | f(12), 4) +
    to64((f(1) << 16) | (f(7) << 8) | f(13), 4) +
    to64((f(2) << 16) | (f(8) << 8) | f(14), 4) +
    to64((f(3) << 16) | (f(9) << 8) | f(15), 4) +
    to64((f(4) << 16) | (f(10) << 8) | f(5), 4) +
    to64(f(11), 2);
  return `${magic}${salt}$${body}`;
}
