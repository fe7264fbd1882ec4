/**
 * SwitchyOmega's options backup, what its Import/Export > Restore from file
 * reads (FelisCatus/SwitchyOmega at 19f9d73): options.coffee `reset`
 * parses the JSON and `upgrade` accepts schemaVersion 2 only; the keys are
 * those of omega-target/src/default_options.coffee (`-` options, `+name`
 * profiles). Each proxy is a FixedProfile (omega-pac/src/profiles.coffee:
 * `fallbackProxy: {scheme, host, port}`, `bypassList` of BypassCondition,
 * credentials in `auth.fallbackProxy`, which
 * omega-target-chromium-extension/src/module/proxy/proxy_auth.coffee hands
 * to the browser), and one SwitchProfile "egress desk" sends the routing's
 * host patterns (HostWildcardCondition) to the first proxy, the rest to
 * `direct`, or every host to the first proxy when there is no pattern.
 */
import { hostForPort } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter, ExportProxy } from './types';

/** omega-pac's built-in profiles ('+direct', '+system') and the switch profile below keep their names. */
const reserved = new Set(['direct', 'system', 'auto_detect', 'egress desk']);
const SWITCH = 'egress desk';
const colors = ['#99ccee', '#99dd99', '#ffaa88', '#cc99ee', '#eedd77', '#88cccc'];

/** A unique profile name per proxy: its VM name, then the cluster and VMID where two share one. */
function profileNames(proxies: readonly ExportProxy[]): string[] {
  const taken = new Set<string>(reserved);
  return proxies.map((p) => {
    let name = p.name;
    if (taken.has(name.toLowerCase())) name = `${p.name} (${p.clusterName} ${p.vmid})`;
    taken.add(name.toLowerCase());
    return name;
  });
}

export const switchyOmegaFormat: ExportFormatter = {
  fileName: 'switchyomega-options.bak',
  mediaType: 'application/json',
  render(proxies, options) {
    const names = profileNames(proxies);
    const profiles = Object.fromEntries(
      proxies.map((p, i) => [
        `+${names[i]!}`,
        {
          name: names[i]!,
          profileType: 'FixedProfile',
          color: colors[i % colors.length]!,
          fallbackProxy: { scheme: p.endpoint.protocol, host: hostForPort(p.host), port: p.endpoint.port },
          bypassList: ['127.0.0.1', '::1', 'localhost'].map((pattern) => ({ conditionType: 'BypassCondition', pattern })),
          ...(p.credentials ? { auth: { fallbackProxy: { username: p.credentials.username, password: p.credentials.password } } } : {}),
        },
      ]),
    );
    const { hosts, fallback } = options.routing;
    const first = names[0] ?? 'direct';
    const switchProfile = {
      name: SWITCH,
      profileType: 'SwitchProfile',
      color: '#99dd99',
      defaultProfileName: hosts.length === 0 ? first : 'direct',
      rules: hosts.map((pattern) => ({ condition: { conditionType: 'HostWildcardCondition', pattern }, profileName: first })),
    };
    const backup = {
      schemaVersion: 2,
      '-enableQuickSwitch': false,
      '-refreshOnProfileChange': true,
      '-startupProfileName': '',
      '-quickSwitchProfiles': [],
      '-revertProxyChanges': true,
      '-confirmDeletion': true,
      '-showInspectMenu': true,
      '-addConditionsToBottom': false,
      '-showExternalProfile': true,
      '-downloadInterval': 1440,
      ...profiles,
      [`+${SWITCH}`]: switchProfile,
    };
    const notes = ['Restore it in SwitchyOmega: Options › Import/Export › Restore from file. It replaces SwitchyOmega’s profiles.'];
    if (proxies.length > 1) notes.push(`The “${SWITCH}” switch profile sends its hosts to ${first}; each proxy is its own profile too.`);
    if (fallback === 'none') notes.push('SwitchyOmega has no “no fallback”: a proxy that fails is not replaced by another.');
    return { text: `${JSON.stringify(backup, null, 2)}\n`, notes, withCredentials: proxies.some((p) => p.credentials) };
  },
};
