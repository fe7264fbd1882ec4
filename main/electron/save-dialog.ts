/** The FileSaver port in the desktop shell: Electron's save dialog over the window, then a 0600 write. */
import { join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { writePrivateText, type FileSaver } from '../ports/file-saver';

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
