/**
 * Every Proxmox text the simulator sends, taken from the fixtures. A text
 * that names a VM, node, storage or field in the captured answer becomes a
 * template: the captured value is replaced by the one at hand, so the words
 * around it are always Proxmox's own.
 */
import { fixture, fixtureJson, fixtureMessage } from '../../fixtures';

/** Fixture names per concept; `sim_*` ones are reconstructed by the simulator's author. */
export const TEXT_FIXTURES = {
  configMissing: 'err_config_missing',
  locked: 'err_config_locked',
  agentNotRunning: 'err_agent_not_running',
  agentUnconfigured: 'err_agent_unconfigured',
  vmNotRunning: 'err_agent_vm_stopped',
  badParam: 'err_bad_param',
  storageNoImages: 'err_clone_storage_no_images',
  forbidden: 'err_forbidden',
  authFailed: 'err_auth_failed',
  noTicket: 'err_no_ticket',
  tagInvalid: 'err_tag_invalid',
  uploadBadName: 'err_upload_bad_name',
  newidInUse: 'err_clone_vmid_taken',
  noSuchStorage: 'storage_status_missing',
  shrink: 'task_status_stopped_error',
  paramUnknown: 'sim_err_param_unknown',
  paramMissing: 'sim_err_param_missing',
  paramEnum: 'sim_err_param_enum',
  paramPattern: 'sim_err_param_pattern',
  notImplemented: 'sim_err_not_implemented',
  unknownNode: 'sim_err_unknown_node',
  nodeRefused: 'err_proxy_595',
  nodeTimeout: 'err_proxy_596',
  destroyRunning: 'sim_err_destroy_running',
  taskMissing: 'sim_err_task_missing',
  alreadyRunning: 'sim_task_already_running',
  noSuchDisk: 'sim_task_resize_no_disk',
  // Issue 11: qemu-server clone_vm's locality checks and pve-storage's node check (docs/simulator.md, Physics).
  cloneLocalStorage: 'sim_err_clone_local_storage',
  cloneNonSharedStorage: 'sim_err_clone_nonshared_storage',
  storageNotOnNode: 'sim_err_storage_not_on_node',
  linkedCloneStorage: 'sim_err_clone_linked_storage',
  linkedCloneFormat: 'sim_err_clone_linked_format',
  // Issue 14: the template builder's download-url, VM create with import-from, template conversion and nextid.
  downloadContentNotAllowed: 'sim_err_download_content_not_allowed',
  downloadNotFileBased: 'sim_err_download_not_file_based',
  downloadBadExtension: 'sim_err_download_bad_extension',
  downloadChecksumMismatch: 'sim_task_download_checksum_mismatch',
  downloadExistsMismatch: 'sim_task_download_exists_mismatch',
  downloadExists: 'sim_task_download_exists',
  downloadUnreachable: 'sim_task_download_unreachable',
  downloadNoSpace: 'sim_task_download_no_space',
  createImportWrongType: 'sim_err_create_import_wrong_type',
  createStorageNoImages: 'sim_err_create_storage_no_images',
  createImportSyntax: 'sim_err_create_import_syntax',
  createVmidExists: 'sim_err_create_vmid_exists',
  createSourceMissing: 'sim_task_create_source_missing',
  templateTwice: 'sim_err_template_twice',
  templateRunning: 'sim_err_template_running',
  nextidTaken: 'sim_err_nextid_taken',
  // Issue 11: qemu-server migrate_vm and QemuMigrate (docs/simulator.md, Physics).
  migrateLocalNode: 'sim_err_migrate_local_node',
  migrateRunning: 'sim_err_migrate_running',
  migrateAborted: 'sim_task_migrate_aborted',
  // Issue 16: qemu-server vm_shutdown, vm_reboot, vm_resume and _do_vm_stop.
  pausedCannotShutdown: 'sim_err_paused_cannot_shutdown',
  vmNotRunningPower: 'sim_err_vm_not_running',
  shutdownTimeout: 'sim_task_shutdown_timeout',
  // Issue 25: snapshots (pve-guest-common AbstractConfig.pm, qemu-server API2/Qemu.pm; snapshots.ts).
  snapshotUnavailable: 'sim_err_snapshot_unavailable',
  snapshotNameUsed: 'sim_err_snapshot_name_used',
  snapshotMissing: 'sim_err_snapshot_missing',
  snapshotReserved: 'sim_err_snapshot_reserved',
  snapshotIncomplete: 'sim_err_snapshot_incomplete',
  snapshotTemplate: 'sim_err_snapshot_template',
} as const;

export type TextName = keyof typeof TEXT_FIXTURES;

/** Replaces each captured value (key) by the wanted one (value), so `pv1-1`/`199999` become the request's node and VMID. */
export function substitute(text: string, replacements: Record<string, string | number>): string {
  let out = text;
  for (const [captured, wanted] of Object.entries(replacements)) out = out.split(captured).join(String(wanted));
  return out;
}

export function message(name: TextName, replacements: Record<string, string | number> = {}): string {
  return substitute(fixtureMessage(TEXT_FIXTURES[name]), replacements);
}

/** The single per-field text of a 400 fixture (`errors: {field: text}`), with its field name. */
export function fieldError(name: TextName): { field: string; text: string } {
  const body = fixtureJson<{ errors?: Record<string, string> }>(TEXT_FIXTURES[name]);
  const first = Object.entries(body?.errors ?? {})[0];
  if (!first) throw new Error(`fixture ${TEXT_FIXTURES[name]} carries no field error`);
  return { field: first[0], text: first[1] };
}

/** A task's failing exitstatus as a task-status fixture records it. */
export function exitStatus(name: TextName, replacements: Record<string, string | number> = {}): string {
  const body = fixtureJson<{ data?: { exitstatus?: string } }>(TEXT_FIXTURES[name]);
  const text = body?.data?.exitstatus;
  if (typeof text !== 'string') throw new Error(`fixture ${TEXT_FIXTURES[name]} carries no exitstatus`);
  return substitute(text, replacements);
}

/** Status and reason phrase of a fixture whose body is empty (401, 595, 596). */
export function bare(name: TextName): { status: number; reason: string } {
  const f = fixture(TEXT_FIXTURES[name]);
  return { status: f.status, reason: f.reason };
}
