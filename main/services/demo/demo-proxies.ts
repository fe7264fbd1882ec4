/**
 * The demo's proxies, run by the app on loopback so that Test works on the
 * simulated cluster without a packet leaving the machine.
 *
 * Each demo proxy VM gets one listener on 127.0.0.1, on a port the OS
 * chose, speaking its preset's protocol (Squid and tinyproxy: HTTP with
 * CONNECT; microsocks and Dante: SOCKS5). The guest keeps the address its simulated
 * agent reports; the proxy check never dials it but asks `route` where the
 * guest's port really is. Why not a loopback address per guest (127.77.x.y)?
 * Linux answers on all of 127/8, but macOS and Windows configure only
 * 127.0.0.1, so binding 127.77.0.214 fails there; and the inventory (core)
 * skips 127/8 in a guest agent's answer, as it must for real guests. One
 * address, OS-chosen ports and a map is what works everywhere.
 *
 * The proxies never connect out. They answer the check themselves: a
 * request (forwarded, or through a CONNECT or SOCKS5 tunnel) to the demo's
 * echo, http://127.0.0.1:<port>/ip, gets the simulated egress address;
 * anything else is refused (HTTP 403, SOCKS5 "not allowed by ruleset"), but
 * for a plain-http target on a reserved `.example` name (issue 24), answered
 * by the demo itself so a target shows reached. The
 * configured echo URL (https://api.ipify.org by default) cannot be served:
 * the check does TLS with it and the demo has no certificate for it, so
 * for the demo the check uses this echo and says so in its result.
 *
 * One proxy is broken on purpose, so the failure path shows: tinyproxy on
 * VM 150003 answers every request with 502 Bad Gateway.
 *
 * Issue 24: a proxy made in the demo with "require a username and password"
 * enforces the credentials its seed carries, as the real daemon would read
 * them (Squid's htpasswd hash, checked with the app's md5-crypt; tinyproxy's
 * BasicAuth; microsocks' environment file; Dante's $1$ hash for chpasswd -e): HTTP 407 without or with wrong
 * ones, SOCKS5 "no acceptable method" or an RFC 1929 refusal. So the demo
 * shows the whole path: the check sends the credentials main keeps for it.
 * A created proxy's are those of the seed its guest booted with (presetOf):
 * after a rotate's reboot the old ones are refused and the new accepted.
 * Each demo network exits from its own address (demoEgressOf).
 * Long because it holds the three protocols' stand-ins, each with its credential
 * check, beside the one route table they share.
 */
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Logger } from '../../log/logger';
import type { DemoStandIns } from '../clusters/cluster';
import { readBytes } from '../proxy-check/read-bytes';
import { md5Crypt } from '../proxy-credentials/md5-crypt';
import type { DemoRoute } from '../proxy-check/service';
import type { Simulator } from '../../simulator';

/** The egress address the demo's echo reports for a proxy on vmbr0 untagged: TEST-NET-3 (RFC 5737), never a real host. */
export const DEMO_EGRESS_ADDRESS = '203.0.113.47';

/**
 * Where a demo proxy reaches "the internet": one documentation address (RFC 5737) per network its net0 is on, as
 * if each bridge, VLAN and vnet of the demo were routed to its own uplink. So a proxy moved to another VLAN by
 * Reconfigure exits elsewhere, and the expected-exit alert has something true to say. A VLAN tag N exits from
 * 198.51.100.N (TEST-NET-2; tags above 254 share by their remainder), another bridge or vnet from its own 203.0.113
 * address.
 */
export function demoEgressOf(net0: string | undefined): string {
  const field = (name: string) => new RegExp(`(?:^|,)${name}=([^,]+)`).exec(net0 ?? '')?.[1];
  const tag = Number(field('tag'));
  if (Number.isInteger(tag) && tag >= 1 && tag <= 4094) return `198.51.100.${((tag - 1) % 254) + 1}`;
  return BRIDGE_EGRESS[field('bridge') ?? 'vmbr0'] ?? '203.0.113.200';
}
const BRIDGE_EGRESS: Record<string, string> = { vmbr0: DEMO_EGRESS_ADDRESS, vmbr1: '203.0.113.48', egress2: '203.0.113.99' };
/** The exit of the demo's own proxies on VLAN 4 (VMs 150001 and 150002). */
export const DEMO_VLAN4_EGRESS_ADDRESS = demoEgressOf('bridge=vmbr0,tag=4');
export const DEMO_CHECK_NOTE = 'demo: checked against the built-in echo';
/** The demo proxy that fails its checks on purpose (tinyproxy, upstream "down": 502). */
export const DEMO_BROKEN_VMID = 150_003;

/** The demo's own proxy VMs (each runs a preset from the start). */
export const demoSeededVmids = (): number[] => Object.keys(SEEDED).map(Number);

export type DemoPresetKind = 'squid' | 'tinyproxy' | 'microsocks' | 'dante';
const presetPort: Record<DemoPresetKind, number> = { squid: 3128, tinyproxy: 8888, microsocks: 1080, dante: 1080 };
const speaksSocks = (kind: DemoPresetKind): boolean => kind === 'microsocks' || kind === 'dante';

/** The preset each of the demo's own proxies was made with. */
const SEEDED: Record<number, DemoPresetKind> = {
  150_001: 'squid',
  150_002: 'microsocks',
  150_003: 'tinyproxy',
  150_005: 'squid',
  150_006: 'squid',
};

export interface DemoPreset {
  kind: DemoPresetKind;
  /** The port the proxy listens on in the guest, as the preset (or the admin's edit of it) says. */
  port: number;
  /** The credentials the seed makes the daemon ask for; absent: none. */
  auth?: DemoAuth;
}

export interface DemoAuth {
  username: string;
  accepts(password: string): boolean;
}

/** The credentials a seed's user-data makes its daemon ask for, read as the daemon reads its files. */
export function authOfSeed(text: string): DemoAuth | undefined {
  const htpasswd = /"([A-Za-z0-9_.-]+):(\$apr1\$([./0-9A-Za-z]{1,8})\$[./0-9A-Za-z]{22})\\n"/.exec(text);
  if (htpasswd) {
    const [, username, hash, salt] = htpasswd;
    return { username: username!, accepts: (password) => md5Crypt(password, salt!, '$apr1$') === hash };
  }
  // Dante's preset: the system user's `$1$` hash, as its runcmd hands it to `chpasswd -e`.
  const shadow = /'([A-Za-z0-9_.-]+):(\$1\$([./0-9A-Za-z]{1,8})\$[./0-9A-Za-z]{22})' \| chpasswd -e/.exec(text);
  if (shadow) {
    const [, username, hash, salt] = shadow;
    return { username: username!, accepts: (password) => md5Crypt(password, salt!, '$1$') === hash };
  }
  const basic = /^\s*BasicAuth\s+(\S+)\s+(\S+)\s*$/m.exec(text);
  const user = /^\s*MICROSOCKS_USER=(\S+)\s*$/m.exec(text);
  const pass = /^\s*MICROSOCKS_PASSWORD=(\S+)\s*$/m.exec(text);
  const pair = basic ? [basic[1]!, basic[2]!] : user && pass ? [user[1]!, pass[1]!] : undefined;
  return pair && { username: pair[0]!, accepts: (password) => password === pair[1] };
}

/** Whether an HTTP request's Proxy-Authorization carries credentials `auth` accepts. */
function authorized(auth: DemoAuth | undefined, header: string | string[] | undefined): boolean {
  if (!auth) return true;
  const basic = typeof header === 'string' ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (!basic) return false;
  const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon > 0 && text.slice(0, colon) === auth.username && auth.accepts(text.slice(colon + 1));
}

/**
 * The preset a proxy made in the demo was created with, read from its seed
 * ISO's user-data (ISO 9660 stores files as they are, so the cloud-config is
 * in the bytes as text): microsocks' `-p`, Dante's `internal: … port =`, Squid's `http_port`, tinyproxy's `Port`.
 */
export function presetOfSeed(bytes: Uint8Array): DemoPreset | undefined {
  const text = Buffer.from(bytes).toString('latin1');
  const auth = authOfSeed(text);
  const withAuth = (p: DemoPreset): DemoPreset => (auth ? { ...p, auth } : p);
  const socks = /microsocks\b[^\n]*?-p\s+(\d{1,5})/.exec(text);
  if (socks) return withAuth({ kind: 'microsocks', port: Number(socks[1]) });
  const dante = /^\s*internal:[^\n]*\bport\s*=\s*(\d{1,5})\b/m.exec(text);
  if (dante) return withAuth({ kind: 'dante', port: Number(dante[1]) });
  const squid = /^\s*http_port\s+(\d{1,5})\b/m.exec(text);
  if (squid) return withAuth({ kind: 'squid', port: Number(squid[1]) });
  const tiny = /^\s*Port\s+(\d{1,5})\b/m.exec(text);
  if (tiny) return withAuth({ kind: 'tinyproxy', port: Number(tiny[1]) });
  return undefined;
}

/**
 * The seed each running guest booted with, by the simulated start it booted at: a guest reads its seed at boot,
 * so a seed swapped under a running VM (a reconfigure, a credentials rotate) changes its proxy only from its next
 * boot (Proxmox's reboot is a new start), as cloud-init would, and old credentials work until then.
 */
const booted = new WeakMap<Simulator, Map<number, { startedAt: number; preset: DemoPreset | undefined }>>();

/** The proxy VM's preset: the demo's own table, else the seed its guest booted with; undefined for a VM that runs no proxy. */
function presetOf(sim: Simulator, vmid: number): DemoPreset | undefined {
  const seeded = SEEDED[vmid];
  if (seeded) return { kind: seeded, port: presetPort[seeded] };
  const startedAt = sim.state.vms.get(vmid)?.startedAt;
  if (startedAt === undefined) return seedPresetOf(sim, vmid);
  let boots = booted.get(sim);
  if (!boots) booted.set(sim, (boots = new Map()));
  const known = boots.get(vmid);
  if (known?.startedAt === startedAt) return known.preset;
  const preset = seedPresetOf(sim, vmid);
  boots.set(vmid, { startedAt, preset });
  return preset;
}

/** The preset the VM's seed ISO on its CD-ROM carries now. */
function seedPresetOf(sim: Simulator, vmid: number): DemoPreset | undefined {
  const vm = sim.state.vms.get(vmid);
  const ide2 = typeof vm?.config.ide2 === 'string' ? vm.config.ide2 : undefined;
  const seed = ide2 ? /^([^:,]+):iso\/([^,]+)/.exec(ide2) : null;
  if (!vm || !seed) return undefined;
  const iso = sim.state.iso(vm.node, seed[1]!, seed[2]!);
  return iso ? presetOfSeed(iso.bytes) : undefined;
}

interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a port the OS picks; `close` also ends the connections still open. */
function listen(server: Server | HttpServer): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A short plain-text answer with its length (no chunked encoding: one read sees it whole). */
function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) }).end(body);
}

export interface DemoProxies extends DemoStandIns {
  /** The demo's echo URL: answers GET with the simulated egress address. */
  echoUrl: string;
  /** Where the check goes for the guest's port; undefined for a VMID the demo does not know. */
  route(vmid: number, port: number): Promise<DemoRoute | undefined>;
  /** Issue 24: one of the demo's own proxies asks for these credentials from now on (main made and keeps them). */
  requireCredentials(vmid: number, credentials: { username: string; password: string }): void;
  /** The protocol and port the demo proxy VM's preset listens on (the scheduled checks use it until a Test says otherwise). */
  endpoint(vmid: number): { protocol: 'http' | 'socks5'; port: number } | undefined;
  close(): Promise<void>;
}

export async function startDemoProxies(sim: Simulator, logger: Logger): Promise<DemoProxies> {
  const log = logger.child({ part: 'demo-proxies' });
  const tracked = new Set<Socket>();
  const track = (s: Socket) => {
    tracked.add(s);
    s.on('close', () => tracked.delete(s));
    s.on('error', () => s.destroy());
  };

  /** The exit of each demo proxy, read from its VM's net0 at each request (a Reconfigure may have moved it). */
  const egressOf = (vmid: number) => demoEgressOf(sim.state.vms.get(vmid)?.config.net0 as string | undefined);
  /** The exit a tunnel handed to the echo leaves from (the echo sees only the socket). */
  const tunnelExit = new WeakMap<Socket, string>();

  // The echo: the one target the demo proxies reach. It also serves the connections the tunnels hand it.
  const echo = createHttpServer((req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/ip') answer(res, 200, tunnelExit.get(req.socket) ?? DEMO_EGRESS_ADDRESS);
    else answer(res, 404, 'not found\n');
  });
  echo.on('connection', track);
  const echoListening = await listen(echo);
  const echoAuthority = `127.0.0.1:${echoListening.port}`;
  const echoUrl = `http://${echoAuthority}/ip`;
  /** Hands a tunnelled connection to the echo, as if it had connected there from the proxy's exit (nothing is dialled). */
  const serveEcho = (socket: Socket, vmid: number) => {
    tunnelExit.set(socket, egressOf(vmid));
    echo.emit('connection', socket);
  };
  // Issue 24, targets: a plain-http site on a reserved `.example` name (RFC 2606) stands in for "the site I need",
  // answered here, so a target shows reached on the demo; any other target is refused like every other host.
  const isDemoSite = (hostname: string, port: number) => /\.example\.?$/i.test(hostname) && port === 80;
  const site = createHttpServer((req, res) => answer(res, 200, `demo: ${req.headers.host ?? 'the site'} answered\n`));
  site.on('connection', track);
  const serveSite = (socket: Socket) => site.emit('connection', socket);

  function httpProxy(vmid: number, authOf: () => DemoAuth | undefined): HttpServer {
    const broken = vmid === DEMO_BROKEN_VMID;
    const server = createHttpServer((req, res) => {
      if (broken) return void answer(res, 502, 'demo: this proxy cannot reach anything\n');
      if (!authorized(authOf(), req.headers['proxy-authorization'])) {
        res.setHeader('proxy-authenticate', 'Basic realm="Egress Desk demo proxy"');
        return void answer(res, 407, 'demo: this proxy asks for its username and password\n');
      }
      let target: URL | undefined;
      try {
        target = new URL(req.url ?? '');
      } catch {
        // Origin form: not a request for a proxy.
      }
      if (target && target.protocol === 'http:' && isDemoSite(target.hostname, Number(target.port || 80)))
        return void answer(res, 200, `demo: ${target.hostname} answered\n`);
      if (!target || target.host !== echoAuthority) return void answer(res, 403, 'demo: only the built-in echo is reachable\n');
      if (target.pathname !== '/ip') return void answer(res, 404, 'not found\n');
      answer(res, 200, egressOf(vmid));
    });
    server.on('connect', (req: { url?: string; headers: Record<string, string | string[] | undefined> }, socket: Socket, head: Buffer) => {
      track(socket);
      if (broken) return void socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      if (!authorized(authOf(), req.headers['proxy-authorization']))
        return void socket.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="Egress Desk demo proxy"\r\nContent-Length: 0\r\n\r\n',
        );
      if (req.url !== echoAuthority) return void socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) socket.unshift(head);
      serveEcho(socket, vmid);
    });
    return server;
  }

  function socksProxy(vmid: number, authOf: () => DemoAuth | undefined): Server {
    return createNetServer((socket) => {
      track(socket);
      socks5Serve(socket, vmid, authOf()).catch(() => socket.destroy());
    });
  }

  async function socks5Serve(socket: Socket, vmid: number, auth: DemoAuth | undefined): Promise<void> {
    const [version, count] = await readBytes(socket, 2);
    const methods = await readBytes(socket, count ?? 0);
    if (version !== 5) return void socket.destroy();
    const method = auth ? 2 : 0;
    if (!methods.includes(method)) return void socket.end(Buffer.from([5, 0xff]));
    socket.write(Buffer.from([5, method]));
    if (auth) {
      // RFC 1929: VER 1, ULEN, UNAME, PLEN, PASSWD; answered VER 1, STATUS (0: accepted).
      const [, ulen] = await readBytes(socket, 2);
      const user = (await readBytes(socket, ulen ?? 0)).toString('utf8');
      const [plen] = await readBytes(socket, 1);
      const password = (await readBytes(socket, plen ?? 0)).toString('utf8');
      if (user !== auth.username || !auth.accepts(password)) return void socket.end(Buffer.from([1, 1]));
      socket.write(Buffer.from([1, 0]));
    }
    const [, cmd, , atyp] = await readBytes(socket, 4);
    let host: string;
    if (atyp === 1) host = [...(await readBytes(socket, 4))].join('.');
    else if (atyp === 3) host = (await readBytes(socket, (await readBytes(socket, 1))[0]!)).toString('utf8');
    else if (atyp === 4) {
      const b = await readBytes(socket, 16);
      host = `[${Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':')}]`;
    } else return void socket.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
    const port = (await readBytes(socket, 2)).readUInt16BE(0);
    const reply = (code: number) => Buffer.from([5, code, 0, 1, 127, 0, 0, 1, (port >> 8) & 0xff, port & 0xff]);
    if (cmd !== 1) return void socket.end(reply(7));
    // 2: "connection not allowed by ruleset" — the demo proxy reaches only its echo.
    if (isDemoSite(host, port)) {
      socket.write(reply(0));
      return void serveSite(socket);
    }
    if (`${host === 'localhost' ? '127.0.0.1' : host}:${port}` !== echoAuthority) return void socket.end(reply(2));
    socket.write(reply(0));
    serveEcho(socket, vmid);
  }

  const proxies = new Map<number, Promise<Listening & { preset: DemoPreset }>>();
  const required = new Map<number, DemoAuth>();
  const start = (vmid: number, preset: DemoPreset) => {
    let running = proxies.get(vmid);
    if (!running) {
      // The demo's own proxies get their credentials once main made them (requireCredentials); a created one's are in
      // the seed its guest booted with (read at each connection: a rotate's reboot changes them).
      const authOf = () => required.get(vmid) ?? (sim.state.vms.has(vmid) ? presetOf(sim, vmid)?.auth : preset.auth);
      const server = speaksSocks(preset.kind) ? socksProxy(vmid, authOf) : httpProxy(vmid, authOf);
      running = listen(server).then((l) => {
        log.info('demo proxy listening', { vmid, preset: preset.kind, port: preset.port, loopbackPort: l.port });
        return { ...l, preset };
      });
      proxies.set(vmid, running);
    }
    return running;
  };
  let closed = false;
  // The demo's own proxies start with it; a proxy made in the demo starts at its first Test.
  await Promise.all(Object.keys(SEEDED).map((vmid) => start(Number(vmid), presetOf(sim, Number(vmid))!)));

  return {
    echoUrl,
    async route(vmid, port) {
      if (closed || !sim.state.vms.has(vmid)) return undefined;
      const preset = presetOf(sim, vmid);
      if (!preset || preset.port !== port) return { kind: 'closed', targetUrl: echoUrl, note: DEMO_CHECK_NOTE };
      const running = await start(vmid, preset);
      return { kind: 'listening', host: '127.0.0.1', port: running.port, targetUrl: echoUrl, note: DEMO_CHECK_NOTE };
    },
    requireCredentials(vmid, { username, password }) {
      required.set(vmid, { username, accepts: (p) => p === password });
    },
    endpoint(vmid) {
      const preset = sim.state.vms.has(vmid) ? presetOf(sim, vmid) : undefined;
      return preset && { protocol: speaksSocks(preset.kind) ? 'socks5' : 'http', port: preset.port };
    },
    async close() {
      closed = true;
      for (const s of tracked) s.destroy();
      const all = await Promise.allSettled([...proxies.values()]);
      await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
      await echoListening.close();
    },
  };
}
