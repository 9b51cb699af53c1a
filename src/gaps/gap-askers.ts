/** The channels whose asks name no asker: the HTTP API and the CLI, shown as "API". */
const API_CHANNELS: ReadonlySet<string> = new Set(['http', 'cli']);

/** A gap's askers: each chat asker once (by hashed id), each ask that names nobody once; and how many of those came over the API. */
export function askersOf(rows: readonly { readonly userHash: string | null; readonly channel: string }[]): {
  askers: number;
  apiAskers: number;
} {
  const named = new Set(rows.flatMap((r) => (r.userHash === null ? [] : [r.userHash])));
  const unnamed = rows.filter((r) => r.userHash === null);
  return { askers: named.size + unnamed.length, apiAskers: unnamed.filter((r) => API_CHANNELS.has(r.channel)).length };
}
