/**
 * The vendor-data payload that gets qemu-guest-agent running, so the app
 * can read the VM's address from Proxmox (spec entry 7). It is a shell
 * script and not a cloud-config on purpose: cloud-init merges a vendor-data
 * cloud-config under the user-data with mergers that keep the user-data's
 * value for every top-level key and never append lists, so a proxy with its
 * own `packages:` would silently lose the agent. Scripts bypass the merge.
 *
 * Provenance: lines 1-6 and the closing `fi` are the operator's
 * `nocloud.GuestAgentScript` verbatim (the seed's diff shows only those);
 * the install and start steps between them are not in the seeds and are
 * rebuilt here to the same behaviour (skip when the agent exists, install
 * it with the distro's package manager, enable and start it; F21 saw the
 * apt-get path install the agent on a real guest).
 */
export const GUEST_AGENT_SCRIPT = `#!/bin/sh
# Added by egress-proxies-operator: installs and starts qemu-guest-agent so
# the operator can learn this VM's IP address from the hypervisor.
# To leave this out, set installGuestAgent: false in the provider's config.
set -e
if command -v qemu-ga >/dev/null 2>&1 || [ -x /usr/sbin/qemu-ga ]; then
  echo "qemu-guest-agent is already installed"
elif command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y qemu-guest-agent
elif command -v dnf >/dev/null 2>&1; then
  dnf install -y qemu-guest-agent
elif command -v yum >/dev/null 2>&1; then
  yum install -y qemu-guest-agent
elif command -v zypper >/dev/null 2>&1; then
  zypper --non-interactive install qemu-guest-agent
elif command -v apk >/dev/null 2>&1; then
  apk add qemu-guest-agent
else
  echo "no known package manager: cannot install qemu-guest-agent" >&2
  exit 1
fi
if command -v systemctl >/dev/null 2>&1; then
  systemctl enable --now qemu-guest-agent
else
  rc-update add qemu-guest-agent default 2>/dev/null || true
  service qemu-guest-agent start
fi
`;
