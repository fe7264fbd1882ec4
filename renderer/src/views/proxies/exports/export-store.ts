/**
 * Issue 24 §3: the Export dialog's one open state (the selection it was
 * opened on) and main's exports asked through the transport. The text is
 * main's (main/services/exports/); the renderer only shows it, copies it and
 * saves it: through main's save dialog in the desktop app, as a download in
 * browser mode.
 */
import { create } from 'zustand';
import type { ExportInput, ExportResult } from '../../../../../shared/channels/exports';
import type { Envelope } from '../../../../../shared/errors';
import { notAttached } from '../../../stores/not-attached';
import { useTasks } from '../../../stores/tasks';
import type { ProxyRow } from '../rows';

interface ExportState {
  /** The selection the dialog was opened on; undefined while it is closed. */
  rows: ProxyRow[] | undefined;
  open(rows: readonly ProxyRow[]): void;
  close(): void;
}

export const useExportDialog = create<ExportState>((set) => ({
  rows: undefined,
  open: (rows) => set({ rows: [...rows] }),
  close: () => set({ rows: undefined }),
}));

export function requestExport(input: ExportInput): Promise<Envelope<ExportResult>> {
  return useTasks.getState().api?.request['proxies.export'](input) ?? notAttached();
}

export function requestExportSave(input: ExportInput): Promise<Envelope<{ saved: boolean; path?: string }>> {
  return useTasks.getState().api?.request['proxies.exportSave'](input) ?? notAttached();
}


/** Browser mode: the text saved as the browser's download. */
export function download(fileName: string, mediaType: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: mediaType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}
