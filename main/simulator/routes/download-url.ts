/**
 * Issue 14: POST /nodes/{node}/storage/{storage}/download-url, a cloud image
 * onto a storage. pve-storage src/PVE/API2/Storage/Status.pm `download_url`
 * (checks, texts, the `download` task named after the file) and pve-common
 * PVE::Tools `download_file_from_url` (the log: wget's
 * `--progress=dot:giga` rows, `calculating checksum...OK, checksum
 * verified`, the existing-file cases; a failure leaves no file). Takes size /
 * min(storage bandwidth, download link) on simulated time; a full storage
 * fails after writing what fits.
 *
 * Texts: the sim_* fixtures named in main/simulator/texts.ts (each cites its source).
 */
import type { Route, RouteRequest, SimContext } from '../context';
import { formatSize } from '../disks';
import { fieldText, forbidden, paramError, textError } from '../errors';
import { simImages, storagePath, wgetRate, wgetRow, type ImportVolume, type RemoteImage } from '../images';
import { optBool, optStr, str } from '../params';
import { TaskFailure, type SimTask } from '../tasks';
import { exitStatus, fieldError } from '../texts';
import type { StorageDefinition } from '../types';
import { storageUsage } from '../views';
import { CAPTURED_FILE, contents, FILE_BASED, storageOn } from './storage-common';

const CHECKSUM_ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
type Algo = (typeof CHECKSUM_ALGORITHMS)[number];
const ROW = 32 * 1024 * 1024;
const CAPTURED_HEX_GOT = 'd41d8cd98f00b204e9800998ecf8427e';
const CAPTURED_HEX_EXPECT = '0cc175b9c0f1b6a831c399e269772661';

/** One accepted download: where it goes and what it must match. */
interface Download {
  node: string;
  s: StorageDefinition;
  content: string;
  filename: string;
  dest: string;
  url: string;
  algorithm?: Algo;
  expected?: string;
}

/** pve-storage `normalize_content_filename`: any path part goes, unsafe characters become `_`. */
function normalize(filename: string): string {
  return (filename.split('/').pop() ?? filename).replace(/[^a-zA-Z0-9\-.+=_]/g, '_');
}

/** download_url's `check`: Datastore.AllocateTemplate on the storage and (Sys.Audit + Sys.Modify on / or Sys.AccessNetwork on the node). */
function checkDownload(req: RouteRequest): void {
  const { sim, tokenId, path, params } = req;
  // Parameter verification first (server.ts ran it against the newest enum): the release's own enum.
  if (!sim.version.downloadUrlContents.includes(params.content!))
    throw paramError({
      content: fieldText('paramEnum', { vms: params.content!, 'vm, storage, node, sdn': sim.version.downloadUrlContents.join(', ') }),
    });
  sim.tokens.requireAll(tokenId, `/storage/${path.storage}`, ['Datastore.AllocateTemplate']);
  const root = sim.tokens.holds(tokenId, '/', 'Sys.Audit') && sim.tokens.holds(tokenId, '/', 'Sys.Modify');
  if (!root && !sim.tokens.holds(tokenId, `/nodes/${path.node}`, 'Sys.AccessNetwork'))
    throw forbidden(`/nodes/${path.node}`, 'Sys.AccessNetwork');
}

/** The request's checks (storage type, content, file name), then the `download` task; answers its UPID. */
function downloadUrl(req: RouteRequest): string {
  const { sim, params } = req;
  const node = req.path.node!;
  const s = storageOn(req, req.path.storage!);
  if (!FILE_BASED.has(s.type)) throw textError('downloadNotFileBased', 500, { "'lvmthin'": `'${s.type}'` });
  const content = params.content!;
  if (!contents(s).includes(content))
    throw textError('downloadContentNotAllowed', 500, { "'local'": `'${s.storage}'`, "'import'": `'${content}'` });
  const filename = normalize(params.filename!);
  if (content === 'import') {
    const ext = sim.version.importDiskImages ? /^[a-zA-Z0-9\-.+=_]+\.(?:ova|qcow2|raw|vmdk)$/ : /^[a-zA-Z0-9\-.+=_]+\.ova$/;
    if (!ext.test(filename)) throw paramError({ filename: fieldError('downloadBadExtension').text });
  } else if (content === 'iso' ? !/\.(?:iso|img)$/i.test(filename) : !/\.tar\.(?:gz|xz|zst)$/.test(filename)) {
    throw paramError({ filename: 'wrong file extension' });
  }
  const dir = `${storagePath(s.storage, s.type)}/${content === 'import' ? 'import' : content === 'iso' ? 'template/iso' : 'template/cache'}`;
  const download: Download = { node, s, content, filename, dest: `${dir}/${filename}`, url: params.url! };
  if (params['checksum-algorithm'] !== undefined) download.algorithm = params['checksum-algorithm'] as Algo;
  if (params.checksum !== undefined) download.expected = params.checksum.toLowerCase();
  return sim.tasks.start(node, 'download', filename, { tokenId: req.tokenId }, (t) => runDownload(sim, download, t)).upid;
}

const mismatch = (d: Download, name: 'downloadChecksumMismatch' | 'downloadExistsMismatch', got: string) =>
  new TaskFailure(exitStatus(name, { [CAPTURED_HEX_GOT]: got, [CAPTURED_HEX_EXPECT]: d.expected ?? '' }));

/** download_file_from_url: an existing file is checked, never overwritten; else fetched, checked, and stored. */
async function runDownload(sim: SimContext, d: Download, t: SimTask): Promise<void> {
  const images = simImages(sim);
  const tmp = `${d.dest}.tmp_dwnl.${t.pid}`;
  t.log.push(`downloading ${d.url} to ${d.dest}`);
  const existing = d.content === 'import' ? images.volume(d.node, d.s.storage, d.filename) : undefined;
  if (existing) return checkExisting(sim, d, existing, t);
  const remote = await fetchRemote(sim, d, t, tmp);
  if (d.algorithm && d.expected) {
    const got = images.checksum(d.url, d.algorithm);
    if (got !== d.expected) {
      t.log.push('calculating checksum...');
      throw mismatch(d, 'downloadChecksumMismatch', got);
    }
    t.log.push('calculating checksum...OK, checksum verified');
  }
  if (d.content !== 'import') {
    // An ISO or container template: listed as such, with a small stand-in for its bytes (only import volumes are modelled in full).
    if (d.content === 'iso') sim.state.putIso(d.node, d.s.storage, d.filename, new Uint8Array(64 * 1024));
    t.log.push(`download of '${d.url}' to '${d.dest}' finished`);
    return;
  }
  images.put(d.node, d.s.storage, {
    filename: d.filename,
    bytes: remote.bytes,
    virtualBytes: remote.virtualBytes,
    format: remote.format,
    checksums: { ...remote.checksums },
    url: d.url,
    ctime: Math.floor(Date.now() / 1000),
  });
  d.s.usedBytes = storageUsage(d.s).used + remote.bytes;
  t.log.push(`download of '${d.url}' to '${d.dest}' finished`);
}

/** download-url sets no allow_overwrite: an existing import volume must match the checksum asked for. */
function checkExisting(sim: SimContext, d: Download, existing: ImportVolume, t: SimTask): void {
  const { algorithm, expected } = d;
  if (!algorithm || !expected) throw new TaskFailure(exitStatus('downloadExists', { [`/var/lib/vz/import/${CAPTURED_FILE}`]: d.dest }));
  const got = existing.checksums[algorithm] ?? simImages(sim).checksum(existing.url, algorithm);
  if (got !== expected) {
    t.log.push('calculating checksum of existing file...');
    throw mismatch(d, 'downloadExistsMismatch', got);
  }
  t.log.push('calculating checksum of existing file...OK, got correct file already, no need to download');
}

/** wget on simulated time: the connection, a row per 32 MiB at the bandwidth it gets, and a full storage's failure. */
async function fetchRemote(sim: SimContext, d: Download, t: SimTask, tmp: string): Promise<RemoteImage> {
  const { url, node, s } = d;
  const images = simImages(sim);
  const host = new URL(url).hostname;
  const stamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
  t.log.push(`--${stamp()}--  ${url}`);
  const remote = images.remote.get(url);
  if (!remote) {
    t.log.push(`Resolving ${host} (${host})... failed: Name or service not known.`);
    throw new TaskFailure(exitStatus('downloadUnreachable', { "'cloud.debian.org'": `'${host}'` }));
  }
  t.log.push(
    `Resolving ${host} (${host})... 192.0.2.10`,
    `Connecting to ${host} (${host})|192.0.2.10|:443... connected.`,
    'HTTP request sent, awaiting response... 200 OK',
    `Length: ${remote.bytes} (${formatSize(Math.round(remote.bytes / 1024 ** 2) * 1024 ** 2)}) [application/octet-stream]`,
    `Saving to: '${tmp}'`,
    '',
  );
  const fits = Math.min(remote.bytes, Math.max(0, storageUsage(s).avail));
  const { physics, clock } = sim;
  const started = clock.now();
  for (let offset = 0; offset < fits; offset += ROW) {
    const chunk = Math.min(ROW, fits - offset);
    const t0 = clock.now();
    await Promise.all([
      physics.flows.transfer(chunk, [physics.storageKey(node, s.storage)]),
      clock.sleep((chunk / images.downloadBytesPerSec) * 1000),
    ]);
    const rate = chunk / Math.max(0.001, (clock.now() - t0) / 1000);
    const last = offset + chunk >= remote.bytes;
    const tail = last ? `=${((clock.now() - started) / 1000).toFixed(1)}s` : ` ${Math.round((remote.bytes - offset - chunk) / rate)}s`;
    t.log.push(wgetRow(offset, chunk, remote.bytes, rate, tail));
  }
  if (fits < remote.bytes)
    throw new TaskFailure(exitStatus('downloadNoSpace', { [`/var/lib/vz/import/${CAPTURED_FILE}.tmp_dwnl.1118208`]: tmp }));
  const seconds = Math.max(0.001, (clock.now() - started) / 1000);
  t.log.push('', `${stamp()} (${wgetRate(remote.bytes / seconds)}B/s) - '${tmp}' saved [${remote.bytes}/${remote.bytes}]`, '');
  return remote;
}

export const downloadUrlRoutes: Route[] = [
  {
    method: 'POST',
    path: '/nodes/{node}/storage/{storage}/download-url',
    params: {
      node: str,
      storage: str,
      url: { type: 'string', pattern: /https?:\/\/.*/ },
      content: { type: 'string', enum: ['iso', 'vztmpl', 'import'] },
      filename: str,
      checksum: optStr,
      'checksum-algorithm': { type: 'string', optional: true, enum: CHECKSUM_ALGORITHMS },
      compression: optStr,
      'verify-certificates': optBool,
    },
    check: checkDownload,
    handle: downloadUrl,
  },
];
