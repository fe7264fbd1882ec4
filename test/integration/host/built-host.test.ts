/**
 * Browser mode from the build, as `npm run start:web` runs it:
 * `node out/main/web-host.js`, no TypeScript loader. Its module graph never
 * reaches electron and needs no package from node_modules (the main build
 * bundles them); the Electron entry needs only electron and electron-store.
 * On a fresh data folder it starts the demo cluster, pinned to the
 * simulator's certificate (the certificate the simulator really serves),
 * and it exits 0 on SIGTERM. Skipped when out/ is not built (`npm run build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, rendererMissingReason } from '../../support/web-host';
import { call, goodClient } from './raw-client';

const outMain = join(repoRoot, 'out', 'main');
const hostEntry = join(outMain, 'web-host.js');
const missing = rendererMissingReason() ?? (existsSync(hostEntry) ? undefined : 'out/main/web-host.js is not built: run `npm run build`');

/** Every module specifier the built file and the chunks it imports ask for (static, dynamic and CommonJS `require`). */
function specifiersOf(entry: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const statics = text.matchAll(/^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?"([\w@./:-]+)";?$/gm);
    const calls = text.matchAll(/\b(?:import|__require)\(\s*"([\w@./:-]+)"\s*\)/g);
    for (const spec of [...statics, ...calls].map((m) => m[1]!)) {
      if (spec.startsWith('./') || spec.startsWith('../')) visit(join(dirname(file), spec));
      else found.add(spec);
    }
  };
  visit(entry);
  return found;
}

const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec);

describe.skipIf(missing)('browser mode from the build (out/main/web-host.js)', () => {
  it('never imports electron and loads no package from node_modules', () => {
    const specs = [...specifiersOf(hostEntry)];
    expect(specs.length).toBeGreaterThan(0);
    expect(specs.filter((s) => !isBuiltin(s))).toEqual([]);
  });

  it('leaves the Electron entry needing only electron and electron-store besides Node', () => {
    const outside = [...specifiersOf(join(outMain, 'index.js'))].filter((s) => !isBuiltin(s)).sort();
    expect(outside).toEqual(['electron', 'electron-store']);
  });

  describe('as a process on a fresh data folder', () => {
    let proc: ChildProcess;
    let output = '';
    let dataDir = '';
    let port = 0;
    let key = '';
    let exited: Promise<number | null>;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'egress-built-host-'));
      proc = spawn(process.execPath, [hostEntry], {
        cwd: repoRoot,
        env: { ...process.env, EGRESS_DESK_DATA_DIR: dataDir, EGRESS_DESK_PORT: '0', EGRESS_DESK_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      exited = new Promise((r) => proc.once('exit', (code) => r(code)));
      const deadline = Date.now() + 25_000;
      let m: RegExpExecArray | null = null;
      while (!(m = /Open: http:\/\/127\.0\.0\.1:(\d+)\/#key=([\w-]+)/.exec(output))) {
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`the built host never started:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      port = Number(m[1]);
      key = m[2]!;
    }, 30_000);

    afterAll(async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves the demo cluster, pinned to the certificate its simulator serves over TLS', async () => {
      const ws = await goodClient(port, key);
      try {
        const answer = await call(ws, 'profiles.list', {});
        expect(answer.ok, JSON.stringify(answer)).toBe(true);
        const { profiles } = answer.value as {
          profiles: { id: string; demo: boolean; url: string; tls: { mode: string; fingerprint?: string } }[];
        };
        const demo = profiles.find((p) => p.demo);
        expect(demo?.tls.mode).toBe('pin');
        expect(demo!.tls.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
        const served = await new Promise<string>((resolve, reject) => {
          const url = new URL(demo!.url);
          const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
            resolve(socket.getPeerCertificate().fingerprint256);
            socket.destroy();
          });
          socket.on('error', reject);
        });
        expect(served).toBe(demo!.tls.fingerprint);
      } finally {
        ws.terminate();
      }
    });

    it('stops with exit code 0 on SIGTERM', async () => {
      proc.kill('SIGTERM');
      expect(await exited, output).toBe(0);
    });
  });
});
