/** Browser mode finds its profile folder where the admin said, or in the platform's config folder. */
import { describe, expect, it } from 'vitest';
import { browserModeDataDir } from '../../../../main/files/data-dir';

describe('browser-mode data folder', () => {
  it('uses EGRESS_DESK_DATA_DIR first', () => {
    expect(browserModeDataDir({ EGRESS_DESK_DATA_DIR: '/srv/desk', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/srv/desk');
  });
  it('otherwise an egress-desk folder in the config folder of the platform', () => {
    expect(browserModeDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/egress-desk');
    expect(browserModeDataDir({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toMatch(/Roaming.egress-desk$/);
    expect(browserModeDataDir({}, 'darwin')).toMatch(/Library.Application Support.egress-desk$/);
  });
});
