/**
 * Issue 26: the Hand to Kubernetes… dialog's one open state (the selection it
 * was opened on) and main's hand-off channels asked through the transport.
 * The bundle, its refusals and the release are main's (main/services/handoff/).
 */
import { create } from 'zustand';
import type {
  HandoffImportInput,
  HandoffImportResult,
  HandoffInput,
  HandoffPreview,
  HandoffTargets,
} from '../../../../../shared/channels/handoff';
import type { Envelope } from '../../../../../shared/errors';
import { notAttached } from '../../../stores/not-attached';
import { useTasks } from '../../../stores/tasks';
import type { ProxyRow } from '../rows';

interface HandoffState {
  rows: ProxyRow[] | undefined;
  open(rows: readonly ProxyRow[]): void;
  close(): void;
}

export const useHandoffDialog = create<HandoffState>((set) => ({
  rows: undefined,
  open: (rows) => set({ rows: [...rows] }),
  close: () => set({ rows: undefined }),
}));

/** Take in manifests…: open or closed. */
export const useImportDialog = create<{ open: boolean; show(): void; close(): void }>((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

const api = () => useTasks.getState().api?.request;

export const requestHandoffPreview = (input: HandoffInput): Promise<Envelope<HandoffPreview>> =>
  api()?.['handoff.preview'](input) ?? notAttached();
export const requestHandoffSave = (input: HandoffInput): Promise<Envelope<{ saved: boolean; path?: string }>> =>
  api()?.['handoff.save'](input) ?? notAttached();
export const requestRelease = (input: HandoffTargets): Promise<Envelope<{ taskIds: string[] }>> =>
  api()?.['handoff.release'](input) ?? notAttached();
export const requestUndo = (input: HandoffTargets): Promise<Envelope<{ taskIds: string[] }>> =>
  api()?.['handoff.undo'](input) ?? notAttached();

/** A provider name the operator takes (lowercase letters, digits, dashes) from the cluster's name. */
export const providerSlug = (clusterName: string) =>
  clusterName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63) || 'proxmox';

export const requestImport = (input: HandoffImportInput): Promise<Envelope<HandoffImportResult>> =>
  api()?.['handoff.import'](input) ?? notAttached();
