/**
 * `ws(s)://{host}{base_path}{path}?{query}`: the agent server's sockets sit under the same base path as its REST
 * API, without the `/api` prefix; `http(s)` becomes `ws(s)`. Each protocol's adapter names its path and its
 * parameters; socket-auth.ts adds the key when it goes in the query. Parameters keep the order given.
 */
export function socketUrl(baseUrl: string, path: string, query: Record<string, string>): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}
