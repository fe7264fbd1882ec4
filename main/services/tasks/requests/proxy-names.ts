/** Proxy names: `proxy-` and 16 random base32 characters, like the operator's, unless the admin gives one. */
import { randomBytes } from 'node:crypto';
import { ProxyName } from '../../../../shared/channels/tasks';
import { bulkProxyNames } from '../../../../shared/domain/proxy-names';
import { AppError } from '../../../errors/app-error';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function randomProxyName(): string {
  return 'proxy-' + [...randomBytes(16)].map((b) => BASE32[b % 32]).join('');
}

/** The names of a create of `count` proxies: random ones, or `<name>` alone, or `<name>-1` … `<name>-N`. */
export function proxyNames(count: number, name?: string): string[] {
  if (name === undefined) return Array.from({ length: count }, randomProxyName);
  const names = bulkProxyNames(count, name);
  for (const n of names) {
    if (!ProxyName.safeParse(n).success) {
      throw new AppError(
        'invalid-input',
        `The name "${n}" is too long for a proxy (at most 63 characters).`,
        'Use a shorter name.',
        'name',
      );
    }
  }
  return names;
}
