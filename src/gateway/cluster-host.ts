/**
 * Whether a host name points inside the cluster (or the local machine / a private network), where plain
 * `http` is usual. Outside it, the gateway key would cross networks in the clear (docs/gateway-and-attribution.md).
 */
export function isClusterLocalHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isPrivateIpv4(host) || isPrivateIpv6(host)) return true;
  if (/^\d+(\.\d+){3}$/.test(host) || host.includes(':')) return false;
  // A single-label name is a Kubernetes service in the same namespace (e.g. `gw`, `openhands-gateway`).
  if (!host.includes('.')) return true;
  // Kubernetes service names end in `.svc` or `.svc.cluster.local`; `.svc.` in the middle of a name
  // (`gw.svc.evil.com`) is any domain on the internet, not the cluster.
  return host.endsWith('.svc') || host.endsWith('.cluster.local');
}

function isPrivateIpv4(host: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return false;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

function isPrivateIpv6(host: string): boolean {
  if (!host.includes(':')) return false;
  return host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host);
}
