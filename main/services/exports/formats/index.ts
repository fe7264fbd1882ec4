/** Every export format by its name in the contract (shared/channels/exports.ts), one module each. */
import type { ExportFormat } from '../../../../shared/channels/exports';
import { csvFormat } from './csv';
import { foxyProxyFormat } from './foxyproxy';
import { jsonFormat } from './json';
import { listFormat } from './list';
import { pacFormat } from './pac';
import { proxychainsFormat } from './proxychains';
import { shellFormat } from './shell';
import { switchyOmegaFormat } from './switchyomega';
import type { ExportFormatter } from './types';

export const formats: Record<ExportFormat, ExportFormatter> = {
  list: listFormat,
  json: jsonFormat,
  csv: csvFormat,
  pac: pacFormat,
  foxyproxy: foxyProxyFormat,
  switchyomega: switchyOmegaFormat,
  proxychains: proxychainsFormat,
  shell: shellFormat,
};

export type { ExportFormatter, ExportProxy, Rendered } from './types';
