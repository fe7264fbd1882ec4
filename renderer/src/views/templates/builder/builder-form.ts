/** The builder form's state and the request it makes (issue 14). Pure: no store, no DOM. */
import type { BuildPreflightView, BuildTemplateInput } from '../../../../../shared/channels/templates';
import { customImageUrlProblem, customImageFileName } from '../../../../../shared/domain/custom-image-url';
import { catalogueImage, checksumFromPaste, CUSTOM_IMAGE, type ChecksumAlgorithm } from '../../../../../shared/domain/image-catalogue';
import type { ProfileSummary } from '../../../../../shared/domain/profile';

export const DEFAULT_IMAGE = 'debian-13-amd64';

export interface BuilderForm {
  /** A catalogue image's id, or CUSTOM_IMAGE.id ('custom') for a URL. */
  image: string;
  /** The custom image's URL (image 'custom'). */
  customUrl: string;
  /** The algorithm of a custom image's checksum (the user's choice; a catalogue image has its publisher's). */
  checksumAlgorithm: ChecksumAlgorithm;
  node: string;
  /** '' : main's default. */
  targetStorage: string;
  importStorage: string;
  bridge: string;
  vlanTag: string;
  name: string;
  vmid: string;
  /** What the user pasted: the value, or the whole line of the publisher's list. */
  checksumText: string;
  keepImage: boolean;
}

export function initialForm(profile: ProfileSummary): BuilderForm {
  return {
    image: DEFAULT_IMAGE,
    customUrl: '',
    checksumAlgorithm: 'sha256',
    node: profile.nodes[0] ?? '',
    targetStorage: '',
    importStorage: '',
    bridge: profile.bridge ?? '',
    vlanTag: profile.vlanTag !== undefined ? String(profile.vlanTag) : '',
    name: '',
    vmid: '',
    checksumText: '',
    keepImage: false,
  };
}

export const isCustom = (form: BuilderForm) => form.image === CUSTOM_IMAGE.id;

/** The custom URL as main will get it: its problem in words (the shared schema's), or the file name it is stored under. */
export function customImageOf(form: BuilderForm): { url: string; fileName?: string; problem?: string } {
  const url = form.customUrl.trim();
  const problem = customImageUrlProblem(url);
  if (problem) return { url, problem };
  const fileName = customImageFileName(url);
  return { url, ...(fileName ? { fileName } : {}) };
}

/** The checksum algorithm of the form's image: the publisher's for a catalogue image, the chosen one for a custom URL. */
export function checksumAlgorithmOf(form: BuilderForm): ChecksumAlgorithm | undefined {
  if (isCustom(form)) return form.checksumAlgorithm;
  return catalogueImage(form.image)?.checksum.algorithm;
}

/** The checksum the form holds: the value, a problem in words, or nothing pasted. */
export function checksumOf(form: BuilderForm): { value?: string; problem?: string } {
  const algorithm = checksumAlgorithmOf(form);
  const text = form.checksumText.trim();
  if (!algorithm || text === '') return {};
  const value = checksumFromPaste(text, algorithm);
  if (value) return { value };
  const image = catalogueImage(form.image);
  return {
    problem: image
      ? `Not a ${algorithm} value: paste the line of “${image.checksum.listEntry}” from the list, or its value.`
      : `Not a ${algorithm} value: paste the publisher’s line for this file, or its value, or pick the algorithm it was published with.`,
  };
}

/** What keeps the form from being sent to main at all (the preflight waits for it). */
export function formProblem(form: BuilderForm): string | undefined {
  return isCustom(form) ? customImageOf(form).problem : undefined;
}

const int = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

/** The request for main: only what the user chose; with `pf`, the VMID the preflight proposed is fixed. */
export function inputOf(clusterId: string, form: BuilderForm, pf?: BuildPreflightView): BuildTemplateInput {
  const algorithm = checksumAlgorithmOf(form);
  const checksum = checksumOf(form).value;
  const vmid = int(form.vmid) ?? pf?.vmid;
  const vlan = int(form.vlanTag);
  const custom = isCustom(form) ? customImageOf(form) : undefined;
  return {
    clusterId,
    node: form.node,
    image: custom
      ? { kind: 'custom', url: custom.url, ...(custom.fileName ? { fileName: custom.fileName } : {}) }
      : { kind: 'catalogue', id: form.image },
    ...(checksum && algorithm ? { checksum: { algorithm, value: checksum } } : {}),
    ...(form.targetStorage ? { targetStorage: form.targetStorage } : {}),
    ...(form.importStorage ? { importStorage: form.importStorage } : {}),
    ...(form.bridge ? { bridge: form.bridge } : {}),
    ...(vlan !== undefined ? { vlanTag: vlan } : {}),
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    ...(vmid !== undefined ? { vmid } : {}),
    ...(form.keepImage ? { keepImage: true } : {}),
  };
}
