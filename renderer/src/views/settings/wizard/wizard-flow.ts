/**
 * Which page of the connect wizard a doctor report leads to, and how the
 * admin's choices become a profile. Decisions come from the report's own
 * `blocking` flags; nothing here second-guesses the doctor.
 */
import type { DoctorReport } from '../../../../../shared/channels/doctor';
import { fitDraftToCluster, type ProfileDraft } from '../../../../../shared/domain/operator-profile';
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
  /** From a providers-config entry taken in: the fields this page does not show, saved as they came. */
  carried?: Carried | undefined;
}

/** What an imported entry gives that the last page has no input for. */
export type Carried = Pick<ProfileDraft, 'storage' | 'vlanTag' | 'requestTimeoutSeconds' | 'vendorData' | 'installGuestAgent'> & {
  /** The entry's machine types; the first is the page's one (its name and size may be edited there). */
  machineTypes: ProfileDraft['machineTypes'];
  firstMachineType: string | undefined;
};

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

/**
 * The last page's choices from an imported entry's draft (main's), kept to what the doctor found on the cluster:
 * what the cluster lacks falls back to the doctor's suggestion and is said in `notes` (shared/domain/operator-profile.ts).
 */
export function seededChoices(choices: Choices, report: DoctorReport, draft: ProfileDraft): { choices: Choices; notes: string[] } {
  const d = report.discovery.data;
  const fit = fitDraftToCluster(draft, {
    nodes: d.nodes.map((n) => n.node),
    isoStorages: d.isoStorages.map((s) => s.storage),
    bridges: d.bridges.map((b) => b.iface),
    templates: d.templates.filter((t) => t.suitable).map((t) => t.vmid),
  });
  const [first] = Object.entries(draft.machineTypes);
  return {
    choices: {
      ...choices,
      name: draft.name,
      nodes: fit.nodes.length > 0 ? fit.nodes : choices.nodes,
      isoStorage: fit.isoStorage ?? choices.isoStorage,
      templates: Object.keys(fit.templates).length > 0 ? fit.templates : choices.templates,
      // The operator keeps the cloned net0's bridge when the entry names none: so does Proxmox's default here.
      bridge: draft.bridge === undefined ? '' : (fit.bridge ?? choices.bridge),
      vmidMin: draft.vmidRange?.min ?? choices.vmidMin,
      vmidMax: draft.vmidRange?.max ?? choices.vmidMax,
      machineType: first ? { name: first[0], cores: first[1].cores, memoryMiB: first[1].memoryMiB } : choices.machineType,
      carried: {
        storage: draft.storage,
        vlanTag: draft.vlanTag,
        requestTimeoutSeconds: draft.requestTimeoutSeconds,
        vendorData: draft.vendorData,
        installGuestAgent: draft.installGuestAgent,
        machineTypes: draft.machineTypes,
        firstMachineType: first?.[0],
      },
    },
    notes: fit.notes,
  };
}

function machineTypesOf(choices: Choices): ProfileFields['machineTypes'] {
  const { machineType: m, carried } = choices;
  const others = Object.entries(carried?.machineTypes ?? {}).filter(([name]) => name !== carried?.firstMachineType && name !== m.name);
  const disk = carried?.firstMachineType !== undefined ? carried.machineTypes[carried.firstMachineType]?.diskGiB : undefined;
  return {
    ...Object.fromEntries(others),
    [m.name]: { cores: m.cores, memoryMiB: m.memoryMiB, ...(disk !== undefined ? { diskGiB: disk } : {}) },
  };
}

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

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
    machineTypes: machineTypesOf(choices),
    ...(choices.carried
      ? defined({
          storage: choices.carried.storage,
          vlanTag: choices.carried.vlanTag,
          requestTimeoutSeconds: choices.carried.requestTimeoutSeconds,
          vendorData: choices.carried.vendorData,
          installGuestAgent: choices.carried.installGuestAgent,
        })
      : {}),
  };
}
