/**
 * Issue 24: a proxy's username and password, revealed only on an explicit
 * action (the drawer's "Show password" and "Copy URL with credentials"), for
 * that one proxy. Nothing else crosses IPC with the password in it: no
 * snapshot, event or other answer carries it.
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';

export const ProxyCredentialsAnswer = z.object({ username: z.string(), password: z.string() }).strict();
export type ProxyCredentialsAnswer = z.infer<typeof ProxyCredentialsAnswer>;

export const proxyCredentialsChannels = defineChannels({
  /** The proxy's credentials, as the app keeps them; not-found when it keeps none (a proxy made without, or elsewhere). */
  'proxies.credentials': {
    input: z.object({ clusterId: boundedText(200).min(1), vmid: z.number().int().min(100).max(999_999_999) }).strict(),
    output: ProxyCredentialsAnswer,
  },
  /**
   * Rotate the proxy's credentials without recreating it: new ones made and kept, a new seed with them, Proxmox's
   * reboot, then a check with them; only then do they replace the old. Starts a task (`rotate-credentials`). Refused
   * before any task for a proxy the app keeps no user-data of, one made without credentials, one not running, or
   * one another task of the app works on.
   */
  'proxies.rotateCredentials': {
    input: z
      .object({ clusterId: boundedText(200).min(1), vmid: z.number().int().min(100).max(999_999_999), name: boundedText(64).min(1) })
      .strict(),
    output: z.object({ taskId: z.string() }).strict(),
  },
});
