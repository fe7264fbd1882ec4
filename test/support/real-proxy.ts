/**
 * Debian's own proxy daemons, for tests that drive the proxy check through a
 * real proxy: Squid, tinyproxy, microsocks and Dante (dante-server's
 * danted). Each runs on 127.0.0.1, on a port the OS had free, with its own
 * config in a temp folder, in the foreground as a child of the test, and is
 * stopped by the test (its whole process group) when done.
 *
 * The configs of Squid, tinyproxy, microsocks and Dante are the app's own presets
 * (renderer/src/views/create/presets.ts), rendered for that port and read
 * out of their cloud-config, so a typo in a preset fails here. They are
 * adapted only where a test has to: listen on 127.0.0.1 rather than every
 * address, let 127.0.0.1 in (the presets allow the private ranges), and keep
 * the pid file and logs in the temp folder. Dante's preset is adapted the
 * same way (and its `external:` set to 127.0.0.1, where a VM's runcmd writes
 * its default route's interface), with a loopback client rule that lets
 * the test in or, on demand, refuses it.
 *
 * With credentials (issue 24) a preset is rendered with "require a username
 * and password" and its placeholders filled as main fills them when it
 * builds the seed (the htpasswd hash made by the app's own md5-crypt), so
 * the daemon enforces exactly what a VM's would.
 *
 * A daemon that is not installed makes its tests skip, saying why
 * (`.ci/run` installs them with apt-get). Long because it is one daemon
 * harness: each daemon's config adapter beside the one process runner.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DANTE_EXTERNAL_PLACEHOLDER, presets, type Preset } from '../../renderer/src/views/create/presets';
import { fillCredentials } from '../../shared/domain/proxy-credentials';
import { md5Crypt } from '../../main/services/proxy-credentials/md5-crypt';

export interface TestCredentials {
  username: string;
  password: string;
}

export type Daemon = 'squid' | 'tinyproxy' | 'microsocks' | 'danted';

const binary: Record<Daemon, string> = {
  squid: '/usr/sbin/squid',
  tinyproxy: '/usr/bin/tinyproxy',
  microsocks: '/usr/bin/microsocks',
  danted: '/usr/sbin/danted',
};
const debianPackage: Record<Daemon, string> = { squid: 'squid', tinyproxy: 'tinyproxy', microsocks: 'microsocks', danted: 'dante-server' };

/** The daemon's own words for its version (microsocks has none: its package's). */
export function daemonVersion(daemon: Daemon): string {
  if (daemon === 'microsocks')
    return `microsocks ${execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'microsocks'], { encoding: 'utf8' }).trim()} (Debian package)`;
  const r = spawnSync(binary[daemon], ['-v'], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.split('\n')[0]!.trim();
}

const told = new Set<Daemon>();
/** Why tests of `daemon` cannot run, or undefined when they can; the reason is printed once. */
export function missing(daemon: Daemon): string | undefined {
  if (existsSync(binary[daemon])) return undefined;
  const reason = `${binary[daemon]} is not installed (apt-get install ${debianPackage[daemon]}): skipping the tests that run ${daemon}`;
  if (!told.has(daemon)) console.log(reason);
  told.add(daemon);
  return reason;
}

/** A port on 127.0.0.1 nothing listened on a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface CloudConfig {
  write_files?: { path: string; content: string }[];
}

/** The user-data a preset gives the seed for `port`: with `credentials`, its placeholders filled as main fills them. */
export function presetUserData(id: Preset['id'], port: number, credentials?: TestCredentials): string {
  const preset = presets.find((p) => p.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  const text = preset.render(port, { credentials: credentials !== undefined });
  if (!credentials) return text;
  const { username, password } = credentials;
  return fillCredentials(text, {
    user: username,
    password,
    apr1: md5Crypt(password, 'TeStSaLt', '$apr1$'),
    crypt: md5Crypt(password, 'TeStSaLt', '$1$'),
  });
}

/** The file a preset writes at `path`, rendered for `port`, as cloud-init would write it. */
export function presetFile(id: Preset['id'], port: number, path: string, credentials?: TestCredentials): string {
  const file = (parse(presetUserData(id, port, credentials)) as CloudConfig).write_files?.find((f) => f.path === path);
  if (!file) throw new Error(`the ${id} preset writes no ${path}`);
  return file.content;
}

/** A temp folder the daemon's own user can write to too (Squid and tinyproxy drop root for `proxy`, `tinyproxy`). */
export function scratch(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `egress-${prefix}-`));
  chmodSync(dir, 0o777);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SquidOptions {
  credentials?: TestCredentials;
  /** Test targets' ports CONNECT may reach besides 443 (added to the preset's SSL_ports). */
  sslPorts?: number[];
}

/**
 * Squid's preset config for `port`, adapted for a test in `dir`; with credentials, the preset's htpasswd file is
 * written to `dir/passwords` (group proxy, 0640 as the preset says, when the test runs as root) and read from there.
 */
export function squidConfig(port: number, dir: string, options: SquidOptions = {}): string {
  let preset = presetFile('squid', port, '/etc/squid/squid.conf', options.credentials);
  const listen = new RegExp(`^http_port ${port}$`, 'm');
  if (!listen.test(preset)) throw new Error(`the Squid preset does not listen with "http_port ${port}"`);
  if (options.credentials) {
    const passwords = join(dir, 'passwords');
    writeFileSync(passwords, presetFile('squid', port, '/etc/squid/passwords', options.credentials), { mode: 0o640 });
    const proxyGid = process.getuid?.() === 0 ? spawnSync('getent', ['group', 'proxy'], { encoding: 'utf8' }).stdout.split(':')[2] : undefined;
    if (proxyGid) chownSync(passwords, 0, Number(proxyGid));
    else chmodSync(passwords, 0o644);
    if (!preset.includes(' /etc/squid/passwords\n')) throw new Error('the Squid preset does not read /etc/squid/passwords');
    preset = preset.replace(' /etc/squid/passwords\n', ` ${passwords}\n`);
  }
  for (const ssl of options.sslPorts ?? []) preset = preset.replace(/^(acl SSL_ports port 443)$/m, `$1\nacl SSL_ports port ${ssl}`);
  return [
    preset.replace(listen, `http_port 127.0.0.1:${port}`).replace(/^(acl private_nets src .*)$/m, '$1\nacl private_nets src 127.0.0.1'),
    `pid_filename ${dir}/squid.pid`,
    `cache_log ${dir}/cache.log`,
    `access_log stdio:${dir}/access.log`,
    `coredump_dir ${dir}`,
    'netdb_filename none',
    'pinger_enable off',
    'shutdown_lifetime 0 seconds',
    '',
  ].join('\n');
}

/** tinyproxy's preset config for `port`, adapted for a test in `dir`. */
export function tinyproxyConfig(port: number, dir: string, credentials?: TestCredentials): string {
  const preset = presetFile('tinyproxy', port, '/etc/tinyproxy/tinyproxy.conf', credentials);
  if (!new RegExp(`^Port ${port}$`, 'm').test(preset)) throw new Error(`the tinyproxy preset does not listen with "Port ${port}"`);
  return `${preset}Listen 127.0.0.1\nAllow 127.0.0.1\nPidFile "${dir}/tinyproxy.pid"\n`;
}

/** microsocks' command line from the preset's systemd unit, listening on 127.0.0.1 instead of every address. */
export function microsocksArgs(port: number, credentials?: TestCredentials): string[] {
  const unit = presetFile('socks5', port, '/etc/systemd/system/microsocks.service', credentials);
  const line = /^ExecStart=(\S+) (.*)$/m.exec(unit);
  if (!line || line[1] !== binary.microsocks) throw new Error(`the microsocks preset's ExecStart does not run ${binary.microsocks}`);
  // systemd's EnvironmentFile= then ${NAME} in ExecStart (systemd.exec(5), systemd.service(5)), as the unit says.
  const environment = new Map<string, string>();
  const envFile = /^EnvironmentFile=(\S+)$/m.exec(unit)?.[1];
  if (envFile)
    for (const l of presetFile('socks5', port, envFile, credentials).split('\n')) {
      const m = /^([A-Z_]+)=(.*)$/.exec(l);
      if (m) environment.set(m[1]!, m[2]!);
    }
  const args = line[2]!
    .trim()
    .split(/\s+/)
    .map((a) =>
      a.replace(/^\$\{([A-Z_]+)\}$/, (_, name: string) => {
        const value = environment.get(name);
        if (value === undefined) throw new Error(`the microsocks unit uses \${${name}}, which its EnvironmentFile does not set`);
        return value;
      }),
    );
  const i = args.indexOf('-i');
  if (i === -1) throw new Error("the microsocks preset's ExecStart names no listen address (-i)");
  args[i + 1] = '127.0.0.1';
  return args;
}

/**
 * Dante's preset config (/etc/danted.conf) for `port`, adapted for a test: listening on 127.0.0.1, leaving from
 * 127.0.0.1 where the seed's runcmd would write the default route's interface, logging to stderr, and 127.0.0.1
 * let in (`pass`) or turned away at accept (`block`) ahead of the preset's own client rules.
 */
export function danteConfig(port: number, clients: 'pass' | 'block', credentials?: TestCredentials): string {
  const preset = presetFile('dante', port, '/etc/danted.conf', credentials);
  const internal = `internal: 0.0.0.0 port = ${port}\n`;
  const external = `external: ${DANTE_EXTERNAL_PLACEHOLDER}\n`;
  if (!preset.includes(internal)) throw new Error(`the Dante preset does not listen with "${internal.trim()}"`);
  if (!preset.includes(external)) throw new Error(`the Dante preset has no "${external.trim()}" for its runcmd to fill`);
  const firstClient = preset.search(/^client /m);
  if (firstClient === -1) throw new Error('the Dante preset has no client rules');
  return `${preset.slice(0, firstClient)}client ${clients} { from: 127.0.0.0/8 to: 0.0.0.0/0 }\n${preset.slice(firstClient)}`
    .replace('logoutput: syslog\n', 'logoutput: stderr\n')
    .replace(internal, `internal: 127.0.0.1 port = ${port}\n`)
    .replace(external, 'external: 127.0.0.1\n');
}

/** The `user:hash` line the Dante preset's runcmd gives `chpasswd -e`, its placeholders filled as main fills them. */
export function danteShadowEntry(port: number, credentials: TestCredentials): { username: string; hash: string } {
  const { runcmd = [] } = parse(presetUserData('dante', port, credentials)) as { runcmd?: string[] };
  const line = runcmd.map((c) => /^printf '%s\\n' '([^':]+):([^']+)' \| chpasswd -e$/.exec(c)).find((m) => m !== null);
  if (!line) throw new Error("the Dante preset's runcmd sets no password with chpasswd -e");
  if (!runcmd.some((c) => c.includes(`useradd --system --no-create-home --shell /usr/sbin/nologin ${line[1]}`)))
    throw new Error("the Dante preset's runcmd makes no system user for its username");
  return { username: line[1]!, hash: line[2]! };
}

export interface ConfigCheck {
  ok: boolean;
  /** What the daemon said about the file. */
  output: string;
}

/**
 * The daemon's own verdict on a config file: `squid -k parse -f`, `danted -V -f`;
 * tinyproxy has no syntax check, so it is started in the foreground on the file
 * and given a moment: a config it cannot parse stops it at once with its line number.
 */
export async function checkConfig(daemon: 'squid' | 'tinyproxy' | 'danted', file: string): Promise<ConfigCheck> {
  if (daemon !== 'tinyproxy') {
    const r = spawnSync(binary[daemon], daemon === 'squid' ? ['-k', 'parse', '-f', file] : ['-V', '-f', file], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const output = `${r.stdout}${r.stderr}`;
    // Squid says "ERROR"/"FATAL" about a value it will not use even when it goes on.
    return { ok: r.status === 0 && !/\b(FATAL|ERROR|unrecognized)\b/.test(output), output };
  }
  const child = spawnGroup(binary.tinyproxy, ['-d', '-c', file]);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 1_500);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
  if (exited === null) await stopGroup(child);
  return { ok: exited === null && !/ERROR|Syntax error/i.test(output), output };
}

export interface RealProxy {
  daemon: Daemon;
  version: string;
  protocol: 'http' | 'socks5';
  port: number;
  /** Its temp folder: config, pid file, logs (Squid's access.log). */
  dir: string;
  /** Everything the daemon printed so far. */
  output(): string;
  /** SIGKILL to the daemon and all its processes, as a crash or the OOM killer would; resolves once they are gone. */
  kill(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL) and removes its temp folder. */
  stop(): Promise<void>;
}

/** Daemons still running: each runs in its own process group (so a kill reaches Dante's children), which also means
 * it would outlive a test process that died without its afterEach; this ends them when the process exits. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running)
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
});

function spawnGroup(file: string, args: string[]): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const signalGroup = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // Already gone.
    }
  };
  signalGroup(signal);
  if (signal !== 'SIGKILL') {
    const timer = setTimeout(() => signalGroup('SIGKILL'), 3_000);
    await exited(child);
    clearTimeout(timer);
    // Dante's children outlive their mother by a moment; none may keep the port.
    signalGroup('SIGKILL');
  }
  await exited(child);
}

/**
 * Resolves once the daemon says it accepts connections (`ready`, its own log line), or, for one that
 * says nothing (microsocks), once something accepts TCP on the port; rejects with the daemon's words
 * if it exits first or takes over 15 s. A daemon that logs is not probed: it would log the probe as
 * a client that left before its request, and a test reads that log.
 */
async function listening(
  child: ChildProcess,
  port: number,
  output: () => string,
  daemon: Daemon,
  ready?: () => boolean,
  host = '127.0.0.1',
): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${daemon} exited before it listened:\n${output()}`);
    const up = ready
      ? ready()
      : await new Promise<boolean>((resolve) => {
          const socket = connect({ host, port }, () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        });
    if (up) return;
    if (Date.now() > until) throw new Error(`${daemon} did not listen on ${host}:${port} within 15 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs a daemon until `ready` says so (or, with none, until something accepts TCP on host:port). */
export async function run(
  daemon: Daemon,
  protocol: RealProxy['protocol'],
  port: number,
  args: string[],
  folder: { dir: string; remove(): void },
  ready?: (output: string) => boolean,
  host?: string,
  /** Run through another program (unshare) that ends by exec'ing the daemon with `args`. */
  via?: { file: string; args: (daemonArgs: string[]) => string[] },
): Promise<RealProxy> {
  const child = via ? spawnGroup(via.file, via.args(args)) : spawnGroup(binary[daemon], args);
  process.once('exit', folder.remove);
  let printed = '';
  child.stdout.on('data', (c: Buffer) => (printed += c.toString()));
  child.stderr.on('data', (c: Buffer) => (printed += c.toString()));
  const output = () => printed;
  const stop = async () => {
    await stopGroup(child);
    folder.remove();
    process.off('exit', folder.remove);
  };
  try {
    await listening(child, port, output, daemon, ready && (() => ready(printed)), host);
  } catch (e) {
    await stop();
    throw e;
  }
  return { daemon, version: daemonVersion(daemon), protocol, port, dir: folder.dir, output, kill: () => stopGroup(child, 'SIGKILL'), stop };
}

export async function startSquid(options: SquidOptions = {}): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('squid');
  const file = join(folder.dir, 'squid.conf');
  writeFileSync(file, squidConfig(port, folder.dir, options));
  // -N: in the foreground, one process (no kids), so a kill ends it all.
  // Squid says it listens in its cache.log, not on stderr once that is open.
  const cacheLog = join(folder.dir, 'cache.log');
  const ready = () => existsSync(cacheLog) && readFileSync(cacheLog, 'utf8').includes('Accepting HTTP Socket connections');
  return run('squid', 'http', port, ['-N', '-f', file], folder, ready);
}

export async function startTinyproxy(credentials?: TestCredentials): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('tinyproxy');
  const file = join(folder.dir, 'tinyproxy.conf');
  writeFileSync(file, tinyproxyConfig(port, folder.dir, credentials));
  return run('tinyproxy', 'http', port, ['-d', '-c', file], folder, (said) => said.includes('Accepting connections'));
}

export async function startMicrosocks(credentials?: TestCredentials): Promise<RealProxy> {
  const port = await freePort();
  return run('microsocks', 'socks5', port, microsocksArgs(port, credentials), scratch('microsocks'));
}

/**
 * Dante; with credentials, its `username` method over the system's users, as the user guide's Dante recipe makes
 * one (`chpasswd -e` with the app's `$1$` hash): the daemon runs in a mount namespace of its own (unshare, as root)
 * where /etc/passwd and /etc/shadow are copies with that user added, so this machine's own files are untouched.
 */
export async function startDante(clients: 'pass' | 'block', credentials?: TestCredentials): Promise<RealProxy> {
  const port = await freePort();
  const folder = scratch('dante');
  const file = join(folder.dir, 'danted.conf');
  writeFileSync(file, danteConfig(port, clients, credentials));
  const ready = (said: string) => /Dante\/server\S* v\S+ running/.test(said);
  const args = ['-f', file, '-p', join(folder.dir, 'danted.pid')];
  if (!credentials) return run('danted', 'socks5', port, args, folder, ready);
  const passwd = join(folder.dir, 'passwd');
  const shadow = join(folder.dir, 'shadow');
  // The user and hash the seed's runcmd gives useradd and `chpasswd -e`, not ones made here.
  const { username, hash } = danteShadowEntry(port, credentials);
  writeFileSync(passwd, `${readFileSync('/etc/passwd', 'utf8')}${username}:x:64999:65534::/nonexistent:/usr/sbin/nologin\n`);
  writeFileSync(shadow, `${readFileSync('/etc/shadow', 'utf8')}${username}:${hash}:20000:0:99999:7:::\n`, {
    mode: 0o640,
  });
  const script = `mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/shadow && shift 2 && exec ${binary.danted} "$@"`;
  return run('danted', 'socks5', port, args, folder, ready, undefined, {
    file: '/usr/bin/unshare',
    args: (daemonArgs) => ['--mount', '--', 'sh', '-c', script, 'dante', passwd, shadow, ...daemonArgs],
  });
}

/** Why the Dante username test cannot run here: it needs root, for its own mount namespace. */
export function danteUsersMissing(): string | undefined {
  if (missing('danted')) return missing('danted');
  if (process.getuid?.() === 0 && existsSync('/usr/bin/unshare')) return undefined;
  const reason = 'not root (or no unshare): skipping the test of Dante with a username, which needs a mount namespace';
  console.log(reason);
  return reason;
}
