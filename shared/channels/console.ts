/**
 * Issue 16: a VM's console. The Proxmox web UI's own console page (noVNC,
 * or xterm.js for a VM with a serial port), opened in the system browser on
 * the user's own Proxmox login: the app only reads where the VM is now and
 * builds the URL (main/core/provider/operations/console.ts); nothing is sent to the VM.
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';

export const ConsoleViewer = z.enum(['novnc', 'xtermjs']);
export type ConsoleViewer = z.infer<typeof ConsoleViewer>;

export const ConsoleLinks = z
  .object({
    /** The node the VM is on now (it may have moved since the last listing). */
    node: z.string(),
    vmid: z.number().int(),
    /** noVNC first; xterm.js too when the VM has a serial port. */
    links: z.array(z.object({ viewer: ConsoleViewer, url: z.string(), needs: z.string() }).strict()),
  })
  .strict();
export type ConsoleLinks = z.infer<typeof ConsoleLinks>;

export const consoleChannels = defineChannels({
  /**
   * The console URLs of one VM (reads only). `name` is the VM's name as listed: a VM that no longer has it is
   * not-found, so the page opened is the VM the user picked. Any VM may be asked, foreign ones too: the console
   * runs on the user's own login, and Proxmox checks VM.Console itself.
   */
  'console.links': {
    input: z
      .object({ clusterId: boundedText(200).min(1), vmid: z.number().int().min(100).max(999_999_999), name: boundedText(128).min(1) })
      .strict(),
    output: ConsoleLinks,
  },
});
