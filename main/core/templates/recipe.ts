/**
 * The template recipe of the operator's guide (prerequisite 2), as API
 * parameters and as shell commands: a cloud image imported on scsi0, UEFI
 * (Debian's genericcloud hangs in GRUB under BIOS on a headless VM), the
 * guest agent on, a serial console, one virtio NIC, boot from scsi0, and no
 * Proxmox cloud-init drive (Egress Desk brings its own seed on ide2).
 *
 * The description says what the VM is and who made it, in words an operator
 * reads in the Notes panel, plus two `egress-desk-…` lines the builder uses
 * to recognise its own VM on a resume or a cleanup. It carries no
 * `proxy-operator-*` line: it must never look like a proxy (mark.ts).
 */
export const BUILD_ID_KEY = 'egress-desk-template-build';
export const BUILD_IMAGE_KEY = 'egress-desk-template-image';

export interface RecipeInput {
  vmid: number;
  name: string;
  buildId: string;
  imageLabel: string;
  imageUrl: string;
  /** `<storage>:import/<file>` (API path) or an absolute path (shell path). */
  importFrom: string;
  targetStorage: string;
  bridge: string;
  vlanTag?: number;
  cores: number;
  memoryMiB: number;
  builtAt: Date;
}

export function templateDescription(r: Pick<RecipeInput, 'buildId' | 'imageLabel' | 'imageUrl' | 'builtAt'>): string {
  return [
    'Proxy template built by Egress Desk from a cloud image. Proxies are cloned from it; it is not a proxy itself.',
    `Image: ${r.imageLabel} (${r.imageUrl})`,
    '',
    `${BUILD_ID_KEY}=${r.buildId}`,
    `${BUILD_IMAGE_KEY}=${r.imageUrl}`,
    `egress-desk-template-built-at=${r.builtAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
  ].join('\n');
}

/** The build id a description carries, if it is one of ours. */
export function buildIdOf(description: string | undefined): string | undefined {
  for (const line of (description ?? '').split('\n')) {
    const t = line.trim();
    if (t.startsWith(`${BUILD_ID_KEY}=`)) return t.slice(BUILD_ID_KEY.length + 1);
  }
  return undefined;
}

export function net0For(bridge: string, vlanTag?: number): string {
  return `virtio,bridge=${bridge}${vlanTag !== undefined ? `,tag=${vlanTag}` : ''}`;
}

/** POST /nodes/{node}/qemu's form: every key checked against the official schema (test/integration/templates). */
export function createParams(r: RecipeInput): Record<string, string | number> {
  const params: Record<string, string | number> = {
    vmid: r.vmid,
    name: r.name,
    description: templateDescription(r),
    ostype: 'l26',
    cores: r.cores,
    memory: String(r.memoryMiB),
    bios: 'ovmf',
    machine: 'q35',
    efidisk0: `${r.targetStorage}:1,efitype=4m,pre-enrolled-keys=0`,
    scsihw: 'virtio-scsi-single',
    scsi0: `${r.targetStorage}:0,import-from=${r.importFrom}`,
    agent: 'enabled=1',
    serial0: 'socket',
    vga: 'serial0',
    net0: net0For(r.bridge, r.vlanTag),
    boot: 'order=scsi0',
  };
  return params;
}

/** Single-quotes a shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface ShellRecipeInput extends Omit<RecipeInput, 'importFrom'> {
  fileName: string;
  checksum?: { algorithm: string; value: string };
  shellImport: 'import-from' | 'importdisk';
}

/**
 * Root's commands on the node, as one block: download to /var/tmp, check the
 * checksum when one is known, create, import, convert, remove the download.
 * `qm set --scsi0 <storage>:0,import-from=<path>` needs PVE 7.2+; older nodes
 * get `qm importdisk` and attach the first unused disk.
 */
export function shellCommands(r: ShellRecipeInput): string {
  const file = `/var/tmp/${r.fileName}`;
  const params = createParams({ ...r, importFrom: file });
  const lines = [`set -e`, `wget -O ${shellQuote(file)} ${shellQuote(r.imageUrl)}`];
  if (r.checksum) lines.push(`echo ${shellQuote(`${r.checksum.value}  ${file}`)} | ${r.checksum.algorithm}sum -c -`);
  const createKeys = [
    'name',
    'description',
    'ostype',
    'cores',
    'memory',
    'bios',
    'machine',
    'efidisk0',
    'scsihw',
    'agent',
    'serial0',
    'vga',
    'net0',
  ];
  lines.push(`qm create ${r.vmid} ${createKeys.map((k) => `--${k} ${shellQuote(String(params[k]))}`).join(' ')}`);
  if (r.shellImport === 'import-from') lines.push(`qm set ${r.vmid} --scsi0 ${shellQuote(`${r.targetStorage}:0,import-from=${file}`)}`);
  else {
    lines.push(`qm importdisk ${r.vmid} ${shellQuote(file)} ${shellQuote(r.targetStorage)}`);
    lines.push(`qm set ${r.vmid} --scsi0 "$(qm config ${r.vmid} | sed -n 's/^unused0: //p')"`);
  }
  lines.push(`qm set ${r.vmid} --boot order=scsi0`, `qm template ${r.vmid}`, `rm -f ${shellQuote(file)}`);
  return lines.join('\n');
}
