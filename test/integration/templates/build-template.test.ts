/**
 * Issue 14: building a proxy template from a cloud image, through the real
 * client against the simulator: each step, each refusal, a crash at every
 * journal point and the resume, and the too-old-release path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import {
  buildTemplate,
  cleanupTemplateBuild,
  TemplateBuildError,
  type BuildProgressEvent,
  type BuildResume,
} from '../../../main/core/templates/build';
import { preflight, preflightVerdict, type BuildTemplateRequest } from '../../../main/core/templates/preflight';
import { templateProblems } from '../../../main/core/provider/cluster/template';
import { buildIdOf } from '../../../main/core/templates/recipe';
import { createLogger } from '../../../main/log/logger';
import {
  minimalCluster,
  simImages,
  startSimulator,
  type ClusterDefinition,
  type Simulator,
  type SimulatorOptions,
} from '../../../main/simulator';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import type { TaskKind } from '../../../main/simulator';

/** The builder's task types, which the simulator's TaskKind (the kinds with a configurable duration) does not list. */
const taskKind = (type: 'qmcreate' | 'qmtemplate') => type as unknown as TaskKind;
import { templateVerdict } from '../../../main/services/doctor/template-verdicts';
import { pve, waitTask as rawWaitTask } from '../simulator/raw';

const GiB = 1024 ** 3;
const debian = catalogueImage('debian-13-amd64')!;

/** pv1-1 with `local` also holding import content (as `pvesm set local --content iso,vztmpl,backup,import` makes it). */
function withImport(localContent = 'iso,vztmpl,backup,import', localTotal = 100 * GiB): ClusterDefinition {
  const def = minimalCluster();
  def.nodes[0]!.storages = def.nodes[0]!.storages.map((s) =>
    s.storage === 'local' ? { ...s, content: localContent, totalBytes: localTotal } : s,
  );
  return def;
}

interface Env {
  sim: Simulator;
  client: PveClient;
  close(): Promise<void>;
}

const open: Env[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function env(options: SimulatorOptions = {}): Promise<Env> {
  const sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 0, dataset: withImport(), ...options });
  const token = sim.tokens.admin!;
  const client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem ?? '' },
    token: { kind: 'secret', tokenId: token.tokenId, secret: () => token.secret },
    requestTimeoutMs: 5000,
    logger: createLogger({ sinks: [] }),
  });
  const e = {
    sim,
    client,
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
  open.push(e);
  return e;
}

const fast = { youngPollMs: 2, oldPollMs: 5, youngForMs: 200 };
const ctx = (e: Env) => ({ api: e.client, log: createLogger({ sinks: [] }), budgets: fast });

function request(e: Env, overrides: Partial<BuildTemplateRequest> = {}): BuildTemplateRequest {
  return {
    buildId: 'build-0001',
    node: 'pv1-1',
    image: { kind: 'catalogue', id: debian.id },
    checksum: { algorithm: 'sha512', value: simImages(e.sim).checksum(debian.url, 'sha512') },
    targetStorage: 'local-lvm',
    bridge: 'vmbr0',
    tokenId: e.sim.tokens.admin!.tokenId,
    ...overrides,
  };
}

const writes = (sim: Simulator) => sim.requests.records.filter((r) => r.method !== 'GET');
const downloadsDone = (sim: Simulator) =>
  [...sim.tasks.tasks.values()].filter((t) => t.type === 'download' && t.log.some((l) => l.includes(' saved [')));
const ourVms = (sim: Simulator, buildId = 'build-0001') =>
  [...sim.state.vms.values()].filter((v) => buildIdOf(String(v.config.description ?? '')) === buildId);
const importFiles = (sim: Simulator) =>
  simImages(sim)
    .list('pv1-1', 'local')
    .map((v) => v.filename);

async function failure(p: Promise<unknown>): Promise<TemplateBuildError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TemplateBuildError) return e;
    throw e;
  }
  throw new Error('expected the build to fail');
}

describe('building a template over the API (PVE 9.2)', () => {
  it('waits for its tasks as the provider does, through the task watcher: the node’s listing, no status call per task', async () => {
    const e = await env();
    e.sim.requests.clear();
    await buildTemplate(ctx(e), request(e));
    const routes = e.sim.requests.records.map((r) => r.route);
    const listings = e.sim.requests.records.filter((r) => r.route === '/nodes/{node}/tasks' && r.query.source === 'all');
    expect(listings.length).toBeGreaterThan(0);
    expect(routes.filter((r) => r === '/nodes/{node}/tasks/{upid}/status')).toEqual([]);
  });

  it('downloads, creates with import-from, converts, and the result passes the core template rules', async () => {
    const e = await env();
    const events: BuildProgressEvent[] = [];
    const built = await buildTemplate(ctx(e), request(e), { onProgress: (ev) => events.push(ev) });

    expect(built.vmid).toBeGreaterThanOrEqual(100);
    expect(built.vmid < 100_000 || built.vmid > 199_999).toBe(true);
    expect(built.catalogueKey).toBe('debian-13-amd64');
    const vm = e.sim.state.vm(built.vmid)!;
    expect(vm.template).toBe(true);
    // The core's own rules on the built VM's config: Suitable, with no note about the agent.
    expect(templateProblems(built.vmid, built.config, { bridge: 'vmbr0' })).toEqual([]);
    const verdict = templateVerdict(built.vmid, 'pv1-1', built.config, { bridge: 'vmbr0', diskGiB: 8 });
    expect(verdict.suitable).toBe(true);
    expect(verdict.notes).toEqual([]);
    // The recipe: UEFI, serial console, agent, boot from the imported disk, no cloud-init drive, not a proxy.
    expect(built.config.scsi0).toMatch(/^local-lvm:base-\d+-disk-1,.*size=3G$/);
    expect(built.config).toMatchObject({
      agent: 'enabled=1',
      serial0: 'socket',
      vga: 'serial0',
      boot: 'order=scsi0',
      bios: 'ovmf',
      scsihw: 'virtio-scsi-single',
    });
    expect(Object.values(built.config).some((v) => v.includes('cloudinit'))).toBe(false);
    expect(built.config.description).toContain('Proxy template built by Egress Desk');
    expect(built.config.description).not.toContain('proxy-operator');
    expect(built.config.tags ?? '').not.toContain('proxy_operator');
    // The image is gone (keepImage is off) and exactly one download ran.
    expect(importFiles(e.sim)).toEqual([]);
    expect(built.imageKept).toBe(false);
    expect(downloadsDone(e.sim)).toHaveLength(1);
    // Progress: every write step reported started before its task, in order.
    const steps = events.map((x) => `${x.step}:${x.phase}`);
    expect(steps).toEqual([
      'preflight:started',
      'preflight:done',
      'download:started',
      'download:task',
      'download:done',
      'create-vm:started',
      'create-vm:task',
      'create-vm:done',
      'convert:started',
      'convert:task',
      'convert:done',
      'verify:started',
      'verify:done',
      'cleanup-image:started',
      'cleanup-image:task',
      'cleanup-image:done',
    ]);
    expect(events.find((x) => x.step === 'download' && x.phase === 'started')?.fresh).toBe(true);
  });

  it('logs the download as download-url does: wget rows with bytes and rate, the checksum verified', async () => {
    const e = await env();
    await buildTemplate(ctx(e), request(e, { keepImage: true }));
    const task = [...e.sim.tasks.tasks.values()].find((t) => t.type === 'download')!;
    expect(task.id).toBe(debian.fileName);
    expect(task.log[0]).toBe(`downloading ${debian.url} to /var/lib/vz/import/${debian.fileName}`);
    expect(task.log).toContain(`Length: ${debian.approxBytes} (350M) [application/octet-stream]`);
    expect(task.log.some((l) => /^ {5}0K \.{8} \.{8} \.{8} \.{8} +\d+% [\d.]+[KMG] \d+s$/.test(l))).toBe(true);
    expect(task.log.some((l) => / 100% [\d.]+[KMG]=[\d.]+s$/.test(l))).toBe(true);
    expect(task.log).toContain('calculating checksum...OK, checksum verified');
    expect(task.log.at(-1)).toBe('TASK OK');
    // keepImage: the volume is listed as import content.
    const listed = await e.client.storageContent('pv1-1', 'local', 'import');
    expect(listed).toEqual([
      expect.objectContaining({ volid: `local:import/${debian.fileName}`, content: 'import', format: 'qcow2', size: debian.approxBytes }),
    ]);
  });

  it('reuses a kept image: a checked rerun downloads nothing again', async () => {
    const e = await env();
    await buildTemplate(ctx(e), request(e, { keepImage: true }));
    const second = await buildTemplate(ctx(e), request(e, { buildId: 'build-0002', keepImage: true, name: 'debian-13-second' }));
    expect(second.downloaded).toBe(false);
    expect(downloadsDone(e.sim)).toHaveLength(1);
    const verify = [...e.sim.tasks.tasks.values()].filter((t) => t.type === 'download').at(-1)!;
    expect(verify.log).toContain('calculating checksum of existing file...OK, got correct file already, no need to download');
  });
});

describe('refusals', () => {
  it("an image for another architecture than the node: blocked before any write, naming the node's", async () => {
    const e = await env();
    const arm = catalogueImage('debian-13-arm64')!;
    const err = await failure(buildTemplate(ctx(e), request(e, { image: { kind: 'catalogue', id: arm.id }, checksum: undefined })));
    expect(err.kind).toBe('permanent');
    expect(err.message).toMatch(/arm64 image, and pv1-1 runs amd64 guests/);
    expect(writes(e.sim)).toEqual([]);
  });

  it('an arm64 node (it says aarch64 in current-kernel) takes the arm64 image and refuses the amd64 one', async () => {
    const base = { storages: [], resources: [], nextId: 9100, permissions: {} };
    const arm = catalogueImage('debian-13-arm64')!;
    const req = (id: string): BuildTemplateRequest => ({
      buildId: 'build-arch',
      node: 'pv1-1',
      image: { kind: 'catalogue', id },
      targetStorage: 'local-lvm',
      bridge: 'vmbr0',
      tokenId: 'proxy-operator@pve!operator',
    });
    const codes = (id: string, machine?: string) =>
      preflightVerdict(req(id), { ...base, pveversion: 'pve-manager/9.2.20/x', ...(machine ? { machine } : {}) }).blockers.map(
        (b) => b.code,
      );
    expect(codes(arm.id, 'aarch64')).not.toContain('arch');
    expect(codes(debian.id, 'aarch64')).toContain('arch');
    expect(codes(debian.id, 'x86_64')).not.toContain('arch');
    expect(codes(debian.id)).not.toContain('arch');
  });

  it("a token without the builder's roles: the commands grant each role to the user and to the token itself", () => {
    const verdict = preflightVerdict(
      {
        buildId: 'build-grants',
        node: 'pv1-1',
        image: { kind: 'catalogue', id: debian.id },
        targetStorage: 'local-lvm',
        bridge: 'vmbr0',
        tokenId: 'proxy-operator@pve!egress-desk',
      },
      { storages: [], resources: [], nextId: 9100, permissions: {}, pveversion: 'pve-manager/9.2.20/x' },
    );
    // Privilege separation (the user guide's token) holds only what both grant: a user's grant alone gives it nothing.
    expect(verdict.grantCommands).toContain('pveum aclmod / -user proxy-operator@pve -role EgressDeskTemplateBuilder');
    expect(verdict.grantCommands).toContain("pveum aclmod / -token 'proxy-operator@pve!egress-desk' -role EgressDeskTemplateBuilder");
    const users = verdict.grantCommands.filter((c) => c.includes(' -user '));
    expect(verdict.grantCommands.filter((c) => c.includes(' -token '))).toHaveLength(users.length);
  });

  it('no storage with import content: blocked before any write, with the pvesm command', async () => {
    const e = await env({ dataset: withImport('iso,vztmpl,backup') });
    const err = await failure(buildTemplate(ctx(e), request(e)));
    expect(err.kind).toBe('permanent');
    expect(err.message).toContain('No storage on pv1-1 holds import content');
    expect(err.hint).toContain('pvesm set local --content iso,vztmpl,backup,import');
    expect(err.hint).toContain('pvesm set proxy-seeds --content iso,import');
    expect(writes(e.sim)).toEqual([]);
  });

  it('the simulator refuses content the storage does not hold, and a storage that is not file based, in Proxmox words', async () => {
    const e = await env({ dataset: withImport('iso,vztmpl,backup') });
    const form = { url: debian.url, filename: debian.fileName, content: 'import' };
    const a = await pve(e.sim, 'POST', '/nodes/pv1-1/storage/local/download-url', { form });
    expect(a.status).toBe(500);
    expect(a.reason).toBe("storage 'local' is not configured for content-type 'import'");
    const b = await pve(e.sim, 'POST', '/nodes/pv1-1/storage/local-lvm/download-url', { form });
    expect(b.reason).toBe("can't upload to storage type 'lvmthin', not a file based storage!");
    const c = await pve(e.sim, 'POST', '/nodes/pv1-1/storage/proxy-seeds/download-url', { form: { ...form, filename: 'noble.img' } });
    expect(c.status).toBe(500); // proxy-seeds holds no import: the content check comes first
  });

  it('a full storage: the task fails with no space, nothing is left', async () => {
    const e = await env({ dataset: withImport('iso,vztmpl,backup,import', 21 * GiB) });
    // 20 % used by default: 4.2 GiB used of 21; fill it so 200 MiB stay free (the preflight estimate would stop it, so skip it by a custom image of unknown size).
    e.sim.state.node('pv1-1')!.storages.get('local')!.usedBytes = 21 * GiB - 200 * 1024 * 1024;
    const url = 'https://images.example.test/big.qcow2';
    simImages(e.sim).register(url, { bytes: 600 * 1024 * 1024 });
    const err = await failure(buildTemplate(ctx(e), request(e, { image: { kind: 'custom', url }, checksum: undefined })));
    expect(err.kind).toBe('permanent');
    expect(err.message).toContain('(No space left on device).');
    expect(err.message).toContain("Cannot write to '/var/lib/vz/import/big.qcow2.tmp_dwnl.");
    expect(importFiles(e.sim)).toEqual([]);
    expect(ourVms(e.sim)).toEqual([]);
    expect(err.leftovers).toEqual([]);
  });

  it('the preflight stops a download that cannot fit', async () => {
    const e = await env({ dataset: withImport('iso,vztmpl,backup,import', 21 * GiB) });
    e.sim.state.node('pv1-1')!.storages.get('local')!.usedBytes = 21 * GiB - 100 * 1024 * 1024;
    const err = await failure(buildTemplate(ctx(e), request(e)));
    expect(err.message).toMatch(/local has 0\.1 GiB free; the image needs about 0\.3 GiB/);
    expect(writes(e.sim)).toEqual([]);
  });

  it('a bad checksum: the task fails with checksum mismatch, nothing kept', async () => {
    const e = await env();
    const err = await failure(buildTemplate(ctx(e), request(e, { checksum: { algorithm: 'sha512', value: 'ab'.repeat(64) } })));
    expect(err.kind).toBe('permanent');
    expect(err.message).toContain(
      `checksum mismatch: got '${simImages(e.sim).checksum(debian.url, 'sha512')}' != expect '${'ab'.repeat(64)}'`,
    );
    expect(err.hint).toContain(debian.checksum.listUrl);
    expect(importFiles(e.sim)).toEqual([]);
    expect(ourVms(e.sim)).toEqual([]);
  });

  it('an unreachable URL fails as wget does on the node', async () => {
    const e = await env();
    const url = 'https://mirror.invalid.test/debian.qcow2';
    const err = await failure(buildTemplate(ctx(e), request(e, { image: { kind: 'custom', url }, checksum: undefined })));
    expect(err.message).toContain("download failed: wget: unable to resolve host address 'mirror.invalid.test'");
    expect(err.hint).toContain('runs on the Proxmox node');
    expect(importFiles(e.sim)).toEqual([]);
  });

  it('a failed import removes the half-made VM (Proxmox) and the image (unless kept)', async () => {
    const e = await env();
    e.sim.faults.failTask({ type: taskKind('qmcreate'), node: 'pv1-1' }, 'sim_task_create_source_missing', 1);
    const err = await failure(buildTemplate(ctx(e), request(e)));
    expect(err.message).toContain('unable to create VM');
    expect(ourVms(e.sim)).toEqual([]);
    expect(importFiles(e.sim)).toEqual([]);

    const kept = await env();
    kept.sim.faults.failTask({ type: taskKind('qmcreate'), node: 'pv1-1' }, 'sim_task_create_source_missing', 1);
    const err2 = await failure(buildTemplate(ctx(kept), request(kept, { keepImage: true })));
    expect(err2.leftovers).toEqual([
      expect.objectContaining({ kind: 'image', volid: `local:import/${debian.fileName}`, reason: 'kept for a retry (keepImage)' }),
    ]);
    expect(importFiles(kept.sim)).toEqual([debian.fileName]);
  });

  it('a failed conversion destroys the half-built VM, which is provably ours', async () => {
    const e = await env();
    e.sim.faults.failTask({ type: taskKind('qmtemplate'), node: 'pv1-1' }, 'task_status_stopped_error', 1);
    const err = await failure(buildTemplate(ctx(e), request(e)));
    expect(err.message).toContain('shrinking disks is not supported');
    expect(ourVms(e.sim)).toEqual([]);
    expect(err.leftovers).toEqual([]);
  });
});

/** What the runner would journal from the events it recorded. */
function resumeFrom(events: BuildProgressEvent[]): BuildResume {
  const r: BuildResume = {};
  for (const ev of events) {
    if (ev.vmid !== undefined) r.vmid = ev.vmid;
    if (ev.volid) r.volid = ev.volid;
    if (ev.step === 'download' && ev.phase === 'started' && ev.fresh) r.downloadedByUs = true;
    if (ev.phase === 'task' && ev.upid) {
      if (ev.step === 'download') r.downloadUpid = ev.upid;
      if (ev.step === 'create-vm') r.createUpid = ev.upid;
      if (ev.step === 'convert') r.templateUpid = ev.upid;
    }
  }
  return r;
}

const CRASH_POINTS = [
  'download:started',
  'download:task',
  'create-vm:started',
  'create-vm:task',
  'convert:started',
  'convert:task',
  'verify:started',
  'cleanup-image:started',
  'cleanup-image:task',
] as const;

describe('a crash at each journal point, then a resume', () => {
  for (const point of CRASH_POINTS) {
    for (const journal of ['with the journal', 'without the journal'] as const) {
      it(`${point}, resumed ${journal}: one template, one download, no leftover`, async () => {
        const e = await env();
        const recorded: BuildProgressEvent[] = [];
        const crash = (ev: BuildProgressEvent) => {
          if (`${ev.step}:${ev.phase}` === point) throw new Error('the journal could not be written (simulated crash)');
          recorded.push(ev);
        };
        const err = await failure(buildTemplate(ctx(e), request(e), { onProgress: crash }));
        expect(err.message).toContain('progress could not be recorded');

        const resume = journal === 'with the journal' ? resumeFrom(recorded) : {};
        const built = await buildTemplate(ctx(e), request(e), { resume });
        expect(ourVms(e.sim).map((v) => v.vmid)).toEqual([built.vmid]);
        expect(e.sim.state.vm(built.vmid)!.template).toBe(true);
        expect(downloadsDone(e.sim)).toHaveLength(1);
        // The image goes when the journal says the build downloaded it. Without the journal a crash after
        // the download leaves it: it cannot be told from a file someone put there (unless its delete already ran).
        const imageGone = journal === 'with the journal' || point === 'download:started' || point === 'cleanup-image:task';
        expect(importFiles(e.sim)).toEqual(imageGone ? [] : [debian.fileName]);
        const twice = await buildTemplate(ctx(e), request(e), { resume: { ...resume, vmid: built.vmid } });
        expect(twice.vmid).toBe(built.vmid);
        expect(ourVms(e.sim)).toHaveLength(1);
      });
    }
  }

  it('clean up instead of resume: the half-built VM and the image go', async () => {
    const e = await env();
    const recorded: BuildProgressEvent[] = [];
    await failure(
      buildTemplate(ctx(e), request(e), {
        onProgress: (ev) => {
          if (ev.step === 'convert' && ev.phase === 'started') throw new Error('crash');
          recorded.push(ev);
        },
      }),
    );
    expect(ourVms(e.sim)).toHaveLength(1);
    const left = await cleanupTemplateBuild(ctx(e), request(e), resumeFrom(recorded));
    expect(left).toEqual([]);
    expect(ourVms(e.sim)).toEqual([]);
    expect(importFiles(e.sim)).toEqual([]);
  });

  it('a VM at the VMID without this build id is left alone and reported', async () => {
    const e = await env();
    e.sim.state.addVm('pv1-1', { vmid: 4242, config: { name: 'someone-else', description: 'hand made' } });
    const left = await cleanupTemplateBuild(ctx(e), request(e), { vmid: 4242 });
    expect(left).toEqual([
      expect.objectContaining({ kind: 'vm', vmid: 4242, reason: "VM 4242 does not carry this build's id: left alone" }),
    ]);
    expect(e.sim.state.vm(4242)).toBeDefined();
  });
});

describe('releases', () => {
  it('PVE 7.4: the preflight returns the shell commands, the build sends no write request', async () => {
    const e = await env({ version: '7.4' });
    const pf = await preflight(e.client, request(e));
    expect(pf.path).toBe('shell');
    expect(pf.release).toBe('7.4-19');
    expect(pf.shell).toContain(`wget -O '/var/tmp/${debian.fileName}' '${debian.url}'`);
    expect(pf.shell).toContain(`sha512sum -c -`);
    expect(pf.shell).toMatch(/qm create \d+ --name 'debian-13-amd64-template'/);
    expect(pf.shell).toContain(`--scsi0 'local-lvm:0,import-from=/var/tmp/${debian.fileName}'`);
    expect(pf.shell).toMatch(/qm template \d+/);
    e.sim.requests.clear();
    const err = await failure(buildTemplate(ctx(e), request(e)));
    expect(err.message).toContain('cannot build a template over the API');
    expect(err.preflight?.shell).toBe(pf.shell);
    expect(writes(e.sim)).toEqual([]);
  });

  it('PVE 7.4 refuses content=import as its enum does (400), like real old Proxmox', async () => {
    const e = await env({ version: '7.4' });
    const a = await pve(e.sim, 'POST', '/nodes/pv1-1/storage/local/download-url', {
      form: { url: debian.url, filename: debian.fileName, content: 'import' },
    });
    expect(a.status).toBe(400);
    expect(JSON.stringify(a.body)).toContain("value 'import' does not have a value in the enumeration 'iso, vztmpl'");
  });

  it('PVE 8.4 builds over the API', async () => {
    const e = await env({ version: '8.4' });
    const built = await buildTemplate(ctx(e), request(e));
    expect(e.sim.state.vm(built.vmid)!.template).toBe(true);
  });
});

describe('simulator: template conversion', () => {
  it('converts once (qmtemplate) and refuses a second time in Proxmox words', async () => {
    const e = await env();
    e.sim.state.addVm('pv1-1', { vmid: 777, config: { name: 'x', scsi0: 'local-lvm:vm-777-disk-0,size=3G' } });
    const upid = (await pve(e.sim, 'POST', '/nodes/pv1-1/qemu/777/template')).data as string;
    expect(upid).toContain(':qmtemplate:777:');
    await rawWaitTask(e.sim, upid);
    expect(e.sim.state.vm(777)!.config.scsi0).toBe('local-lvm:base-777-disk-0,size=3G');
    const again = await pve(e.sim, 'POST', '/nodes/pv1-1/qemu/777/template');
    expect(again.reason).toBe("you can't convert a template to a template");
  });
});
