/**
 * Which page of the connect wizard a doctor report leads to, and how the
 * admin's choices become a profile. Decisions come from the report's own
 * `blocking` flags; nothing here second-guesses the doctor.
 */
import type { DoctorReport } from '../../../../../shared/channels/doctor';
import type { ProfileFields, SecretStorage } from '../../../../../shared/domain/profile';

export type WizardStep = 'connect' | 'trust' | 'privileges' | 'choices';

export function stepAfter(report: DoctorReport): WizardStep {
  if (report.tls.blocking) return 'trust';
  if (report.token.blocking || report.token.status === 'fail') return 'connect';
  if (report.privileges.blocking || report.privileges.status === 'fail') return 'privileges';
  return 'choices';
}

export interface MachineTypeChoice {
  name: string;
  cores: number;
  memoryMiB: number;
}

export interface Choices {
  name: string;
  nodes: string[];
  isoStorage: string;
  /** Template name -> VMID, of the templates ticked. */
  templates: Record<string, { vmid: number }>;
  bridge: string;
  vmidMin: number;
  vmidMax: number;
  machineType: MachineTypeChoice;
  secretStorage: Exclude<SecretStorage, 'file'>;
}

export function initialChoices(report: DoctorReport, secretStorage: Choices['secretStorage']): Choices {
  const s = report.suggestedProfile;
  return {
    // Proxmox's name for the cluster; the URL's host only when that could not be read.
    name: s.clusterName ?? new URL(report.url).hostname,
    nodes: s.nodes,
    isoStorage: s.isoStorage ?? '',
    templates: s.templates,
    bridge: s.bridge ?? '',
    vmidMin: s.vmidRange.min,
    vmidMax: s.vmidRange.max,
    machineType: { name: 'small', cores: 1, memoryMiB: 1024 },
    secretStorage,
  };
}

export function profileFrom(report: DoctorReport, tokenId: string, choices: Choices): ProfileFields {
  return {
    name: choices.name,
    url: report.suggestedProfile.url,
    // The doctor's verified choice has the profile's own shape, so it is saved as is.
    tls: report.suggestedProfile.tls ?? report.tls.data.choice ?? { mode: 'system' },
    token: { secretStorage: choices.secretStorage, tokenId },
    nodes: choices.nodes,
    isoStorage: choices.isoStorage,
    bridge: choices.bridge || undefined,
    vmidRange: { min: choices.vmidMin, max: choices.vmidMax },
    templates: choices.templates,
    machineTypes: {
      [choices.machineType.name]: { cores: choices.machineType.cores, memoryMiB: choices.machineType.memoryMiB },
    },
  };
}
