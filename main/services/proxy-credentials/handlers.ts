/** Issue 24: `proxies.credentials`, the explicit reveal of one proxy's username and password; `proxies.rotateCredentials`. */
import type { proxyCredentialsChannels } from '../../../shared/channels/proxy-credentials';
import { AppError } from '../../errors/app-error';
import type { AreaHandlers } from '../../ipc/router';
import type { ProxyCredentialLookup } from '../../ports/proxy-credentials';

/** Starts a credentials rotate (the task manager's rotateCredentials). */
export type RotateCredentials = (input: { clusterId: string; vmid: number; name: string }) => Promise<{ taskId: string }>;

export function proxyCredentialsHandlers(
  credentials: ProxyCredentialLookup,
  rotate: RotateCredentials,
): AreaHandlers<typeof proxyCredentialsChannels> {
  return {
    'proxies.rotateCredentials': (input) => rotate(input),
    'proxies.credentials': async ({ clusterId, vmid }) => {
      const held = await credentials.credentialsOf(clusterId, vmid);
      if (!held)
        throw new AppError(
          'not-found',
          `The app keeps no username and password for VM ${vmid}.`,
          'It was made without "require a username and password", outside the app, or its password was kept for a session only. Recreate it with credentials to have some.',
        );
      return held;
    },
  };
}
