/**
 * Issue 24 §3: the proxies of an export, resolved, then written in the
 * format asked for (formats/, pure). The scope is the selection (what the
 * user picked, a foreign VM only then) or every marked VM with a tag; each
 * proxy gets the address the inventory lists (an IP address, checked: a
 * guest agent's answer is the guest's to make), the endpoint the checks use
 * and, only when the request asks and the user confirmed the warning once
 * (AppSettings.exportCredentialsAcknowledged), the credentials the port
 * ProxyCredentialLookup gives. Proxies left out are named with the reason.
 * Nothing here logs a text or a credential.
 */
import { isIP } from 'node:net';
import type { ExportInput, ExportResult } from '../../../shared/channels/exports';
import type { InventorySnapshot, VmRow } from '../../../shared/channels/inventory';
import type { AppSettings } from '../../../shared/domain/profile';
import type { ProxyEndpoint } from '../../../shared/domain/proxy-endpoint';
import { AppError } from '../../errors/app-error';
import type { FileSaver } from '../../ports/file-saver';
import type { ProxyCredentialLookup } from '../../ports/proxy-credentials';
import { formats, type ExportProxy } from './formats';

export interface ExportServiceOptions {
  inventory: { snapshot(): InventorySnapshot };
  /** The protocol and port the scheduled checks use for the proxy (checks' runner.endpointOf). */
  endpointOf(clusterId: string, vmid: number): ProxyEndpoint;
  credentials: ProxyCredentialLookup;
  settings(): AppSettings;
  saver: FileSaver;
}

export interface ExportService {
  render(input: ExportInput): Promise<ExportResult>;
  save(input: ExportInput): Promise<{ saved: boolean; path?: string }>;
}

const credentialsNotConfirmed = () =>
  new AppError(
    'invalid-input',
    'Credentials were asked for, but the warning about them has not been confirmed.',
    'Tick “include credentials” again and confirm the warning: the text will hold each proxy’s password in clear.',
    'includeCredentials',
  );

const label = (vm: VmRow) => vm.name ?? `VM ${vm.vmid}`;

interface Found {
  vm: VmRow;
  clusterName: string;
}

export function createExportService(options: ExportServiceOptions): ExportService {
  const scopeVms = (input: ExportInput): { found: Found[]; leftOut: ExportResult['leftOut'] } => {
    const clusters = options.inventory.snapshot().clusters;
    const leftOut: ExportResult['leftOut'] = [];
    if (input.scope.kind === 'tag') {
      const tag = input.scope.tag.toLowerCase();
      const found: Found[] = [];
      for (const c of clusters)
        for (const vm of c.vms) {
          if (!vm.tags.some((t) => t.toLowerCase() === tag)) continue;
          // A VM that only looks like a proxy is exported only when the user selects it.
          if (vm.owner !== 'marked') leftOut.push({ name: label(vm), reason: 'not a proxy (no mark): select it to export it' });
          else found.push({ vm, clusterName: c.name });
        }
      return { found, leftOut };
    }
    const seen = new Set<string>();
    const found: Found[] = [];
    for (const ref of input.scope.proxies) {
      const key = `${ref.clusterId}/${ref.vmid}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const cluster = clusters.find((c) => c.clusterId === ref.clusterId);
      const vm = cluster?.vms.find((v) => v.vmid === ref.vmid);
      if (!cluster || !vm) leftOut.push({ name: `VM ${ref.vmid}`, reason: 'no longer listed' });
      else found.push({ vm, clusterName: cluster.name });
    }
    return { found, leftOut };
  };

  const resolve = async (input: ExportInput) => {
    const withCredentials = input.options.includeCredentials;
    if (withCredentials && !options.settings().exportCredentialsAcknowledged) throw credentialsNotConfirmed();
    const { found, leftOut } = scopeVms(input);
    const proxies: ExportProxy[] = [];
    for (const { vm, clusterName } of found) {
      if (!vm.address) {
        leftOut.push({ name: label(vm), reason: 'no address yet (the guest agent has not reported one)' });
        continue;
      }
      if (isIP(vm.address) === 0) {
        leftOut.push({ name: label(vm), reason: 'its reported address is not an IP address' });
        continue;
      }
      const credentials = withCredentials ? await options.credentials.credentialsOf(vm.clusterId, vm.vmid) : undefined;
      proxies.push({
        name: label(vm),
        clusterName,
        node: vm.node,
        vmid: vm.vmid,
        host: vm.address,
        endpoint: options.endpointOf(vm.clusterId, vm.vmid),
        tags: vm.tags,
        ...(credentials ? { credentials } : {}),
      });
    }
    if (proxies.length === 0) {
      const scope = input.scope.kind === 'tag' ? `with the tag “${input.scope.tag}”` : 'in the selection';
      const why = leftOut.length ? ` (${leftOut.map((l) => `${l.name}: ${l.reason}`).join('; ')})` : '';
      throw new AppError('not-found', `No proxy ${scope} can be exported${why}.`, 'Pick proxies that are running and have an address.');
    }
    return { proxies, leftOut };
  };

  const render = async (input: ExportInput): Promise<ExportResult> => {
    const { proxies, leftOut } = await resolve(input);
    const format = formats[input.format];
    const rendered = format.render(proxies, input.options);
    const notes = [...rendered.notes];
    if (input.options.includeCredentials && proxies.every((p) => !p.credentials))
      notes.push('None of these proxies has credentials that Egress Desk keeps: the text has none.');
    return {
      text: rendered.text,
      fileName: format.fileName,
      mediaType: format.mediaType,
      included: proxies.map((p) => p.name),
      leftOut,
      notes,
      withCredentials: rendered.withCredentials,
    };
  };

  return {
    render,
    async save(input) {
      const result = await render(input);
      const path = await options.saver.save(result.fileName, result.text);
      return path === undefined ? { saved: false } : { saved: true, path };
    },
  };
}
