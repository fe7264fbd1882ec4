/** Where browser mode keeps its profiles: EGRESS_DESK_DATA_DIR, else `egress-desk` in the user's config folder. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function browserModeDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.EGRESS_DESK_DATA_DIR) return env.EGRESS_DESK_DATA_DIR;
  const config =
    platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(config, 'egress-desk');
}
