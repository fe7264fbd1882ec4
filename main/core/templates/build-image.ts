/**
 * The build's image: downloaded by the node (download-url, content import)
 * unless it is there already (then reused, or with a checksum verified by the
 * node without a second download: pve-common download_file_from_url's
 * existing-file branch), and deleted again when the build downloaded it.
 */
import { TaskFailedError } from '../pve/failures';
import { permanent, transient, type ProviderError } from '../provider/rules/errors';
import { runTaskStep } from '../provider/calls/task-step';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import { settle, type BuildResume, type Run } from './build-run';
import type { BuildPreflight, BuildTemplateRequest } from './preflight';

export async function download(run: Run, pf: BuildPreflight, resume: BuildResume): Promise<void> {
  const { ctx, request } = run;
  const storage = run.importStorage!;
  const volid = run.volid!;
  const fileName = pf.image.fileName;
  await settle(run, resume.downloadUpid ?? (await runningDownload(run, fileName)), run.budgets.downloadMs);
  const listing = await ctx.api.storageContent(run.node, storage, 'import', { signal: run.signal });
  const existing = listing.find((v) => v.volid === volid);
  if (existing && !request.checksum) {
    run.report('download', 'skipped', { node: run.node, volid, note: 'reused (same name, not verified: no checksum)' });
    return;
  }
  const submit = () => {
    if (!existing) run.downloadedByUs = true;
    return ctx.api.downloadUrl(
      run.node,
      storage,
      {
        url: pf.image.url,
        filename: fileName,
        content: 'import',
        ...(request.checksum ? { checksum: request.checksum.value.toLowerCase(), 'checksum-algorithm': request.checksum.algorithm } : {}),
        ...(request.verifyCertificates === false ? { 'verify-certificates': 0 as const } : {}),
      },
      { signal: run.signal },
    );
  };
  try {
    await runTaskStep(run.tasks, run.report, {
      step: 'download',
      at: { node: run.node, volid },
      submit,
      budgetMs: run.budgets.downloadMs,
      signal: run.signal,
      started: { fresh: !existing },
      done: { note: existing ? 'verified' : 'downloaded' },
    });
  } catch (e) {
    if (e instanceof TaskFailedError) {
      // Proxmox unlinks its temporary file (nothing was written); an existing file that failed its check is not the build's.
      run.downloadedByUs = false;
      throw downloadFailure(e.exitstatus, request, storage, volid);
    }
    throw e;
  }
}

/** The image's delete, inside the cleanup-image step (or a clean-up, which reports nothing). */
export async function deleteImageVolume(run: Run): Promise<void> {
  await runTaskStep(run.tasks, run.report, {
    step: 'cleanup-image',
    at: { node: run.node, volid: run.volid },
    submit: () => run.ctx.api.deleteVolume(run.node, run.importStorage!, run.volid!, { signal: run.signal }),
    budgetMs: run.budgets.deleteImageMs,
    signal: run.signal,
    started: false,
    done: false,
  });
  run.downloadedByUs = false;
}

/** A download task still running from an earlier attempt (no journaled UPID): the node's active task list, when the client has it. */
async function runningDownload(run: Run, fileName: string): Promise<string | undefined> {
  if (!run.ctx.api.nodeTasks) return undefined;
  try {
    const tasks = await run.ctx.api.nodeTasks(run.node, { source: 'active', typefilter: 'download' }, { signal: run.signal });
    return tasks.find((t) => t.type === 'download' && t.id === fileName)?.upid;
  } catch {
    return undefined;
  }
}

function downloadFailure(exitstatus: string, request: BuildTemplateRequest, storage: string, volid: string): ProviderError {
  const c = request.image.kind === 'catalogue' ? catalogueImage(request.image.id) : undefined;
  if (/checksum mismatch: .*, aborting$/.test(exitstatus))
    return permanent(
      `A different file named like the image is already on ${storage}: ${exitstatus}`,
      `Delete it (\`pvesm free ${volid}\` on the node) and build again, or check the checksum you pasted.`,
    );
  if (/^checksum mismatch/.test(exitstatus))
    return permanent(
      `The downloaded image does not match the checksum: ${exitstatus}`,
      c
        ? `Paste the ${c.checksum.algorithm} value of "${c.checksum.listEntry}" from ${c.checksum.listUrl} again: "latest" images change with each point release. Nothing was kept.`
        : 'Check the checksum and its algorithm against the publisher. Nothing was kept.',
    );
  if (/No space left on device/.test(exitstatus))
    return permanent(
      `Storage ${storage} is full: ${exitstatus}`,
      `Free space on ${storage} or pick another import storage. Nothing was kept.`,
    );
  if (/refusing to override existing file/.test(exitstatus))
    return permanent(exitstatus, `Build with the image's checksum (Proxmox then checks the file it has), or delete ${volid}.`);
  if (/^download failed/.test(exitstatus))
    return permanent(
      `The node could not download the image: ${exitstatus}`,
      "The download runs on the Proxmox node, not on this computer: check the URL, the node's DNS and internet access, and the HTTP proxy in Datacenter → Options. Nothing was kept.",
    );
  return transient(`The image download failed: ${exitstatus}`);
}
