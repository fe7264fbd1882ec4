/**
 * The profile file through electron-store, which is conf with Electron's
 * paths: same options, same atomic writes, same migrations. electron-store
 * loads the real `electron` module, so it is imported only inside a real
 * Electron runtime; the shell's tests run under a stand-in electron module
 * in plain Node, where conf itself (the very same store) is used.
 */
import { confOptions, documentStoreOver, openConfDocumentStore, type DocumentStoreOpener } from '../services/profiles/document-store';

export async function loadElectronDocumentStore(): Promise<DocumentStoreOpener> {
  if (!process.versions.electron) return openConfDocumentStore;
  const { default: ElectronStore } = await import('electron-store');
  return (spec) => documentStoreOver(new ElectronStore<Record<string, unknown>>({ ...confOptions(spec), name: spec.name }));
}
