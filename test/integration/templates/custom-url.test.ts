/**
 * Issue 14: a template built from a custom URL, through the templates
 * channels' handlers and the build-template task, against the simulator. The
 * simulator's "internet" is its remote-image table: the test registers the URL
 * (nothing is fetched). The URL is checked by the shared schema in words, the
 * file name is derived as the form shows it, and the optional checksum is
 * verified by the node with the algorithm the user picked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BuildTemplateInput } from '../../../shared/channels/templates';
import { customImageFileName, customImageUrlProblem } from '../../../shared/domain/custom-image-url';
import type { RequestContext } from '../../../main/ipc/router';
import type { TemplateCatalogue } from '../../../main/services/tasks/runners/build-template';
import { templatesHandlers } from '../../../main/services/templates/handlers';
import { minimalCluster, simImages, type ClusterDefinition } from '../../../main/simulator';
import { startEnv, type Env } from '../services/tasks/harness';

const GiB = 1024 ** 3;
const URL_IMG = 'https://images.example.test/cloud/alma-9-genericcloud.x86_64.img';

function noTemplates(): ClusterDefinition {
  const def = minimalCluster();
  const node = def.nodes[0]!;
  node.storages = node.storages.map((s) =>
    s.storage === 'local' ? { ...s, content: 'iso,vztmpl,backup,import', totalBytes: 100 * GiB } : s,
  );
  node.vms = node.vms.filter((v) => !v.template);
  return def;
}

class FakeCatalogue implements TemplateCatalogue {
  added: { key: string; node: string; vmid: number }[] = [];
  add(_clusterId: string, key: string, node: string, vmid: number) {
    this.added.push({ key, node, vmid });
    return Promise.resolve({ catalogue: 'added' as const });
  }
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const ctx = {} as RequestContext;

async function open() {
  const catalogue = new FakeCatalogue();
  env = await startEnv(
    { dataset: noTemplates(), timeScale: 0.001 },
    { templateBuild: { catalogue, budgets: { youngPollMs: 2, oldPollMs: 5, youngForMs: 200 } } },
  );
  return { e: env, catalogue, handlers: templatesHandlers({ directory: env.t.directory, tasks: env.manager, catalogue }) };
}

describe('the custom URL schema', () => {
  it('takes an http(s) URL of a disk image and derives the stored file name', () => {
    expect(customImageUrlProblem(URL_IMG)).toBeUndefined();
    expect(customImageFileName(URL_IMG)).toBe('alma-9-genericcloud.x86_64.qcow2');
    expect(customImageFileName('http://mirror.test/disk.raw?token=1')).toBe('disk.raw');
    expect(customImageFileName('https://mirror.test/a/b.vmdk')).toBe('b.vmdk');
  });

  it('refuses other schemes, files that are not disk images, credentials and non-URLs, in words', () => {
    expect(customImageUrlProblem('ftp://mirror.test/a.qcow2')).toMatch(/only http:\/\/ and https:\/\/ URLs, not ftp: URLs/);
    expect(customImageUrlProblem('https://mirror.test/debian.iso')).toMatch(/ending in \.qcow2, \.img, \.raw or \.vmdk .*“debian\.iso”/);
    expect(customImageUrlProblem('https://mirror.test/')).toMatch(/ending in \.qcow2/);
    expect(customImageUrlProblem('https://me:pw@mirror.test/a.qcow2')).toMatch(/user name or password/);
    expect(customImageUrlProblem('mirror.test/a.qcow2')).toMatch(/not a URL/);
    expect(customImageUrlProblem('')).toMatch(/Enter the URL/);
  });

  it('is what the channel checks: main refuses exactly what the form refuses', () => {
    const base = { clusterId: 'sim', node: 'pv1-1' };
    expect(BuildTemplateInput.safeParse({ ...base, image: { kind: 'custom', url: URL_IMG } }).success).toBe(true);
    const bad = BuildTemplateInput.safeParse({ ...base, image: { kind: 'custom', url: 'ftp://mirror.test/a.qcow2' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(customImageUrlProblem('ftp://mirror.test/a.qcow2'));
    expect(BuildTemplateInput.safeParse({ ...base, image: { kind: 'custom', url: URL_IMG, fileName: 'x.iso' } }).success).toBe(false);
  });
});

describe('a build from a custom URL', () => {
  it('downloads the URL under the derived name, verifies the sha256 given, builds and adds the template', async () => {
    const { e, catalogue, handlers } = await open();
    const sha256 = 'c0ffee'.repeat(10) + 'beef';
    simImages(e.t.sim).register(URL_IMG, { bytes: 400 * 1024 * 1024, virtualBytes: 10 * GiB, checksums: { sha256 } });
    const fileName = customImageFileName(URL_IMG)!;
    const input: BuildTemplateInput = {
      clusterId: 'sim',
      node: 'pv1-1',
      image: { kind: 'custom', url: URL_IMG, fileName },
      checksum: { algorithm: 'sha256', value: sha256.toUpperCase() },
      targetStorage: 'local-lvm',
      bridge: 'vmbr0',
      name: 'alma-9',
    };
    const pf = await handlers['templates.preflight'](input, ctx);
    expect(pf.ok).toBe(true);
    expect(pf.image).toMatchObject({ id: 'custom', url: URL_IMG, fileName });
    expect(pf.checksumList).toBeUndefined();
    expect(pf.warnings.map((w) => w.code)).toContain('space-unknown');
    expect(pf.warnings.map((w) => w.code)).not.toContain('no-checksum');

    const { taskId } = await handlers['templates.build']({ ...input, vmid: pf.vmid }, ctx);
    const done = await e.manager.wait(taskId);
    expect(done.error).toBeUndefined();
    expect(done.state).toBe('succeeded');
    expect(done.template).toMatchObject({ catalogueKey: 'alma-9', vmid: pf.vmid, catalogue: 'added' });
    expect(catalogue.added).toEqual([{ key: 'alma-9', node: 'pv1-1', vmid: pf.vmid }]);
    const download = [...e.t.sim.tasks.tasks.values()].find((t) => t.type === 'download')!;
    expect(download.log.join('\n')).toContain(`downloading ${URL_IMG} to /var/lib/vz/import/${fileName}`);
    expect(e.t.sim.state.vm(pf.vmid)!.template).toBe(true);
    expect(String(e.t.sim.state.vm(pf.vmid)!.config.scsi0)).not.toContain('import-from');
    // The image was the build's own download: deleted afterwards.
    expect(simImages(e.t.sim).list('pv1-1', 'local')).toEqual([]);
  });

  it('a wrong checksum fails the download in words and leaves nothing', async () => {
    const { e, handlers } = await open();
    simImages(e.t.sim).register(URL_IMG, { bytes: 100 * 1024 * 1024 });
    const { taskId } = await handlers['templates.build'](
      {
        clusterId: 'sim',
        node: 'pv1-1',
        image: { kind: 'custom', url: URL_IMG },
        checksum: { algorithm: 'sha256', value: '0'.repeat(64) },
        targetStorage: 'local-lvm',
      },
      ctx,
    );
    const done = await e.manager.wait(taskId);
    expect(done.state).toBe('failed');
    expect(done.error?.message).toMatch(/does not match the checksum/);
    expect(done.error?.hint).toMatch(/Check the checksum and its algorithm/);
    expect(simImages(e.t.sim).list('pv1-1', 'local')).toEqual([]);
  });

  it('main refuses a URL that is not an http(s) disk image before any request', async () => {
    const { e, handlers } = await open();
    await expect(
      handlers['templates.build']({ clusterId: 'sim', node: 'pv1-1', image: { kind: 'custom', url: 'ftp://mirror.test/a.qcow2' } }, ctx),
    ).rejects.toMatchObject({ message: customImageUrlProblem('ftp://mirror.test/a.qcow2') });
    expect(e.t.sim.requests.records.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
