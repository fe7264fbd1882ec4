/** The FileSaver and FolderSaver ports in the desktop shell: Electron's save dialog over the window, then 0600 writes. */
import { join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { writePrivateText, type FileSaver } from '../ports/file-saver';
import { writePrivateFolder, type FolderSaver } from '../ports/folder-saver';

export function createElectronFileSaver(window: () => BrowserWindow | undefined): FileSaver {
  return {
    async save(suggestedName, text) {
      const options = { title: 'Save the export', defaultPath: join(app.getPath('downloads'), suggestedName) };
      const w = window();
      const answer = w && !w.isDestroyed() ? await dialog.showSaveDialog(w, options) : await dialog.showSaveDialog(options);
      if (answer.canceled || !answer.filePath) return undefined;
      await writePrivateText(answer.filePath, text);
      return answer.filePath;
    },
  };
}

/** The FolderSaver port (issue 26): the save dialog names a new folder, which is made 0700 with each file 0600. */
export function createElectronFolderSaver(window: () => BrowserWindow | undefined): FolderSaver {
  return {
    async saveFolder(suggestedName, files) {
      const options = { title: 'Save the hand-off bundle as a new folder', defaultPath: join(app.getPath('downloads'), suggestedName) };
      const w = window();
      const answer = w && !w.isDestroyed() ? await dialog.showSaveDialog(w, options) : await dialog.showSaveDialog(options);
      if (answer.canceled || !answer.filePath) return undefined;
      await writePrivateFolder(answer.filePath, files);
      return answer.filePath;
    },
  };
}
