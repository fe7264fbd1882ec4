/**
 * Cloud-config starting points for the three proxy kinds the Create dialog
 * offers. Content, not rules: each is a cloud-config with the listening
 * port filled in; the admin edits the result freely. Access is limited to
 * private networks so a preset never makes an open proxy on the internet.
 */

import { cloudConfig, literalBlock } from '../../../../shared/domain/cloud-yaml';

export interface Preset {
  id: 'squid' | 'tinyproxy' | 'socks5';
  label: string;
  protocol: 'http' | 'socks5';
  defaultPort: number;
  render(port: number): string;
}

const privateNets = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

// The YAML is written by cloud-yaml.ts (every string quoted, so cloud-init's YAML 1.1 reader reads what is meant);
// the config files inside are the daemons' own formats, kept readable as literal blocks.
const squid: Preset = {
  id: 'squid',
  label: 'Squid (HTTP proxy)',
  protocol: 'http',
  defaultPort: 3128,
  render: (port) =>
    cloudConfig({
      package_update: true,
      packages: ['squid'],
      write_files: [
        {
          path: '/etc/squid/squid.conf',
          content: literalBlock(
            lines(
              `http_port ${port}`,
              `acl private_nets src ${privateNets.join(' ')}`,
              'http_access allow private_nets',
              'http_access deny all',
              'cache deny all',
            ),
          ),
        },
      ],
      runcmd: ['systemctl restart squid', 'systemctl enable squid'],
    }),
};

const tinyproxy: Preset = {
  id: 'tinyproxy',
  label: 'tinyproxy (small HTTP proxy)',
  protocol: 'http',
  defaultPort: 8888,
  render: (port) =>
    cloudConfig({
      package_update: true,
      packages: ['tinyproxy'],
      write_files: [
        {
          path: '/etc/tinyproxy/tinyproxy.conf',
          content: literalBlock(
            lines(
              'User tinyproxy',
              'Group tinyproxy',
              `Port ${port}`,
              'Timeout 600',
              'MaxClients 100',
              ...privateNets.map((n) => `Allow ${n}`),
            ),
          ),
        },
      ],
      runcmd: ['systemctl restart tinyproxy', 'systemctl enable tinyproxy'],
    }),
};

const socks5: Preset = {
  id: 'socks5',
  label: 'microsocks (SOCKS5 proxy)',
  protocol: 'socks5',
  defaultPort: 1080,
  render: (port) =>
    cloudConfig(
      {
        package_update: true,
        packages: ['microsocks'],
        write_files: [
          {
            path: '/etc/systemd/system/microsocks.service',
            content: literalBlock(
              lines(
                '[Unit]',
                'Description=microsocks SOCKS5 proxy',
                'After=network-online.target',
                'Wants=network-online.target',
                '',
                '[Service]',
                `ExecStart=/usr/bin/microsocks -i 0.0.0.0 -p ${port}`,
                'DynamicUser=yes',
                'Restart=always',
                '',
                '[Install]',
                'WantedBy=multi-user.target',
              ),
            ),
          },
        ],
        runcmd: ['systemctl daemon-reload', 'systemctl enable --now microsocks'],
      },
      { runcmd: 'microsocks has no address allow-list: keep this VM on a private network, or add -u <user> -P <password>.' },
    ),
};

/** A config file's text: the lines, each ended by a newline. */
function lines(...each: string[]): string {
  return each.map((line) => `${line}\n`).join('');
}

export const presets: readonly Preset[] = [squid, tinyproxy, socks5];
