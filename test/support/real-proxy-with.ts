/**
 * The real daemons of real-proxy.ts on a config of the test's own: the one
 * startSquid and startTinyproxy run, passed through `adapt` (a refusal rule,
 * credentials, a proxy that adds X-Forwarded-For, another listen address),
 * and microsocks on another address (::1).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { danteConfig, freePort, microsocksArgs, run, scratch, squidConfig, tinyproxyConfig, type RealProxy } from './real-proxy';

export async function startSquidWith(adapt: (config: string, port: number) => string): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('squid');
  const file = join(folder.dir, 'squid.conf');
  writeFileSync(file, adapt(squidConfig(port, folder.dir), port));
  const cacheLog = join(folder.dir, 'cache.log');
  const ready = () => existsSync(cacheLog) && readFileSync(cacheLog, 'utf8').includes('Accepting HTTP Socket connections');
  return run('squid', 'http', port, ['-N', '-f', file], folder, ready);
}

export async function startTinyproxyWith(adapt: (config: string, port: number) => string): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('tinyproxy');
  const file = join(folder.dir, 'tinyproxy.conf');
  writeFileSync(file, adapt(tinyproxyConfig(port, folder.dir), port));
  return run('tinyproxy', 'http', port, ['-d', '-c', file], folder, (said) => said.includes('Accepting connections'));
}

export async function startMicrosocksOn(host: string): Promise<RealProxy> {
  const port = await freePort();
  const args = microsocksArgs(port);
  args[args.indexOf('-i') + 1] = host;
  return run('microsocks', 'socks5', port, args, scratch('microsocks'), undefined, host);
}

/** Dante on ::1 only, leaving from 127.0.0.1 or ::1 (its `external`s), every client from ::1 let through. */
export async function startDanteOnIpv6(): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('dante');
  const file = join(folder.dir, 'danted.conf');
  const config = danteConfig(port, 'pass')
    .replace(`internal: 127.0.0.1 port = ${port}`, `internal: ::1 port = ${port}`)
    .replace('external: 127.0.0.1', 'external: 127.0.0.1\nexternal: ::1')
    .replace('client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }', 'client pass { from: ::1/128 to: ::/0 }');
  writeFileSync(file, config);
  return run('danted', 'socks5', port, ['-f', file, '-p', join(folder.dir, 'danted.pid')], folder, (said) =>
    /Dante\/server\S* v\S+ running/.test(said),
  );
}
