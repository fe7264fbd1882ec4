/**
 * Cloud-config starting points for the four proxy kinds the Create dialog
 * offers. Content, not rules: each is a cloud-config with the listening
 * port filled in; the admin edits the result freely. Access is limited to
 * private networks so a preset never makes an open proxy on the internet,
 * and the HTTP presets hide the client from the target (no
 * X-Forwarded-For, no Via).
 *
 * With `credentials` (issue 24, the Create dialog's "require a username and
 * password", on by default) each preset also asks for a username and
 * password. It carries only the placeholders of
 * shared/domain/proxy-credentials.ts: main fills them when it builds the
 * seed, so the password never reaches the renderer. Where the daemon takes a
 * hash (Squid's htpasswd file) the seed carries the hash; tinyproxy and
 * microsocks take the password itself, in a file only root (tinyproxy's
 * group) reads. Dante's `username` method checks the system's users, so its
 * seed carries the `$1$` crypt hash, set for a system user with `chpasswd -e`:
 * the clear text is nowhere on the VM.
 */

import { cloudConfig, literalBlock } from '../../../../shared/domain/cloud-yaml';
import { CREDENTIAL_PLACEHOLDERS as P } from '../../../../shared/domain/proxy-credentials';

export interface PresetOptions {
  /** Ask clients for the proxy's username and password (the placeholders main fills). */
  credentials?: boolean;
}

export interface Preset {
  id: 'squid' | 'tinyproxy' | 'socks5' | 'dante';
  label: string;
  protocol: 'http' | 'socks5';
  defaultPort: number;
  render(port: number, options?: PresetOptions): string;
}

/** Dante's `external:` as written, until the seed's first runcmd line puts the default route's interface there. */
export const DANTE_EXTERNAL_PLACEHOLDER = 'eth0';

const privateNets = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

/** Debian's squid.conf: the ports a request may go to, and the one CONNECT may open (https). */
const safePorts = ['80', '21', '443', '70', '210', '1025-65535', '280', '488', '591', '777'];

// The YAML is written by cloud-yaml.ts (every string quoted, so cloud-init's YAML 1.1 reader reads what is meant);
// the config files inside are the daemons' own formats, kept readable as literal blocks.
const squid: Preset = {
  id: 'squid',
  label: 'Squid (HTTP proxy)',
  protocol: 'http',
  defaultPort: 3128,
  render: (port, options = {}) =>
    cloudConfig({
      package_update: true,
      packages: ['squid'],
      write_files: [
        {
          path: '/etc/squid/squid.conf',
          content: literalBlock(
            lines(
              ...(options.credentials
                ? [
                    'auth_param basic program /usr/lib/squid/basic_ncsa_auth /etc/squid/passwords',
                    'auth_param basic realm Egress Desk proxy',
                    'acl authenticated proxy_auth REQUIRED',
                  ]
                : []),
              `http_port ${port}`,
              `acl private_nets src ${privateNets.join(' ')}`,
              'acl SSL_ports port 443',
              `acl Safe_ports port ${safePorts.join(' ')}`,
              'acl CONNECT method CONNECT',
              'http_access deny !Safe_ports',
              'http_access deny CONNECT !SSL_ports',
              options.credentials ? 'http_access allow private_nets authenticated' : 'http_access allow private_nets',
              'http_access deny all',
              'forwarded_for delete',
              'via off',
              'cache deny all',
            ),
          ),
        },
        // The htpasswd file: the username and the password's hash ($apr1$), readable by Squid's helper (group proxy) only.
        ...(options.credentials
          ? [{ path: '/etc/squid/passwords', owner: 'root:proxy', permissions: '0640', content: `${P.user}:${P.apr1}\n` }]
          : []),
      ],
      runcmd: ['systemctl restart squid', 'systemctl enable squid'],
    }),
};

const tinyproxy: Preset = {
  id: 'tinyproxy',
  label: 'tinyproxy (small HTTP proxy)',
  protocol: 'http',
  defaultPort: 8888,
  render: (port, options = {}) =>
    cloudConfig(
      {
        package_update: true,
        packages: ['tinyproxy'],
        write_files: [
          {
            path: '/etc/tinyproxy/tinyproxy.conf',
            // tinyproxy takes the password itself: the file is root's, and tinyproxy's group once the package made it.
            ...(options.credentials ? { permissions: '0640' } : {}),
            content: literalBlock(
              lines(
                'User tinyproxy',
                'Group tinyproxy',
                `Port ${port}`,
                'Timeout 600',
                'MaxClients 100',
                'DisableViaHeader Yes',
                ...privateNets.map((n) => `Allow ${n}`),
                ...(options.credentials ? [`BasicAuth ${P.user} ${P.password}`] : []),
              ),
            ),
          },
        ],
        runcmd: [
          ...(options.credentials ? ['chgrp tinyproxy /etc/tinyproxy/tinyproxy.conf'] : []),
          'systemctl restart tinyproxy',
          'systemctl enable tinyproxy',
        ],
      },
      options.credentials ? { write_files: 'BasicAuth takes the password in clear text: this file is readable by root and tinyproxy only.' } : {},
    ),
};

const socks5: Preset = {
  id: 'socks5',
  label: 'microsocks (SOCKS5 proxy)',
  protocol: 'socks5',
  defaultPort: 1080,
  render: (port, options = {}) =>
    cloudConfig(
      {
        package_update: true,
        packages: ['microsocks'],
        write_files: [
          // microsocks takes the password itself (-P): systemd reads it, as root, from a file only root reads.
          ...(options.credentials
            ? [
                {
                  path: '/etc/microsocks.env',
                  permissions: '0600',
                  content: literalBlock(lines(`MICROSOCKS_USER=${P.user}`, `MICROSOCKS_PASSWORD=${P.password}`)),
                },
              ]
            : []),
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
                ...(options.credentials
                  ? [
                      'EnvironmentFile=/etc/microsocks.env',
                      `ExecStart=/usr/bin/microsocks -i 0.0.0.0 -p ${port} -u \${MICROSOCKS_USER} -P \${MICROSOCKS_PASSWORD}`,
                    ]
                  : [`ExecStart=/usr/bin/microsocks -i 0.0.0.0 -p ${port}`]),
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
      {
        runcmd: options.credentials
          ? 'microsocks has no address allow-list: keep this VM on a private network; clients need the username and password.'
          : 'microsocks has no address allow-list: keep this VM on a private network, or ask for a username and password.',
      },
    ),
};

/**
 * Dante (Debian's dante-server): SOCKS5 with the `username` method (RFC 1929) checked against a system user whose
 * /etc/shadow entry is the `$1$` hash the seed carries (`chpasswd -e`), or no method without credentials. Clients
 * pass only from the private networks, and SOCKS5 CONNECT only to the ports Squid's preset lets a request reach
 * (Debian's Safe_ports: never SMTP's 25), with no BIND or UDP relaying.
 *
 * Dante needs the interface it connects out from (`external:`; it refuses a wildcard, and `external.rotation: route`
 * still picks only among the listed ones, danted.conf(5)). The interface's name depends on the image and the NIC
 * (`ens18` for a virtio NIC on Debian 12's cloud images, `eth0` elsewhere), so the seed does not guess it: a runcmd
 * line writes the name of the interface the default route leaves by (IPv4, else IPv6) into the file before the
 * daemon starts, the same NIC main/core/seed/network-config.ts configures by its MAC.
 */
const dante: Preset = {
  id: 'dante',
  label: 'Dante (SOCKS5 proxy)',
  protocol: 'socks5',
  defaultPort: 1080,
  render: (port, options = {}) =>
    cloudConfig(
      {
        package_update: true,
        packages: ['dante-server'],
        write_files: [
          {
            path: '/etc/danted.conf',
            content: literalBlock(
              lines(
                'logoutput: syslog',
                `internal: 0.0.0.0 port = ${port}`,
                `external: ${DANTE_EXTERNAL_PLACEHOLDER}`,
                'clientmethod: none',
                `socksmethod: ${options.credentials ? 'username' : 'none'}`,
                // Root reads /etc/shadow for the username method; each client's session runs as nobody.
                'user.privileged: root',
                'user.unprivileged: nobody',
                ...privateNets.map((n) => `client pass { from: ${n} to: 0.0.0.0/0 log: error }`),
                'client block { from: 0.0.0.0/0 to: 0.0.0.0/0 log: connect error }',
                // The client rules above already let in only the private networks; these say where their requests may go.
                ...safePorts.map(
                  (p) => `socks pass { from: 0/0 to: 0/0 port ${p.includes('-') ? p.replace('-', ' - ') : `= ${p}`} command: connect }`,
                ),
                'socks block { from: 0/0 to: 0/0 log: connect error }',
              ),
            ),
          },
        ],
        runcmd: [
          `dev=$(ip route show default | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -n 1); [ -n "$dev" ] || dev=$(ip -6 route show default | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -n 1); [ -n "$dev" ] && sed -i "s/^external: .*/external: $dev/" /etc/danted.conf`,
          ...(options.credentials
            ? [
                `id -u ${P.user} >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin ${P.user}`,
                `printf '%s\\n' '${P.user}:${P.crypt}' | chpasswd -e`,
              ]
            : []),
          'systemctl restart danted',
          'systemctl enable danted',
        ],
      },
      {
        runcmd: options.credentials
          ? "The first line names the interface Dante connects out from; the proxy's user is a system user without a shell, its password set from its hash."
          : 'The first line names the interface Dante connects out from.',
      },
    ),
};

/** A config file's text: the lines, each ended by a newline. */
function lines(...each: string[]): string {
  return each.map((line) => `${line}\n`).join('');
}

export const presets: readonly Preset[] = [squid, tinyproxy, socks5, dante];
