import pg from 'pg';

import type { Log } from '../kernel/log.js';

/** The channel the store's triggers notify when a KB's version or calibrated gate setting changes (migration 0010), or its grounding setting (0018). */
export const KB_CHANGE_CHANNEL = 'candor_kb_change';

/** Told a KB's name when it changed; null when anything may have changed (the listener reconnected). */
export type KbChangeNotify = (kb: string | null) => void;

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * LISTENs on a connection of its own (a pooled one would be handed to queries). When the connection drops it
 * says "anything may have changed" and reconnects with backoff; meanwhile the cache's bounded poll covers.
 */
export async function listenForKbChanges(url: string, notify: KbChangeNotify, log?: Log): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | null = null;

  const lost = (why: string) => {
    if (stopped || retry) return;
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = null;
    notify(null);
    log?.('warn', 'store: lost the connection that listens for KB changes; reconnecting', { error: why, retryMs });
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, retryMs);
    retry.unref();
    retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      if (message.channel === KB_CHANGE_CHANNEL) notify(message.payload ?? null);
    });
    next.on('error', (error) => lost(error.message));
    next.on('end', () => lost('connection ended'));
    try {
      await next.connect();
      await next.query(`LISTEN ${KB_CHANGE_CHANNEL}`);
    } catch (error) {
      client = next;
      lost((error as Error).message);
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = FIRST_RETRY_MS;
    notify(null); // changes made while not listening
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const last = client;
    client = null;
    last?.removeAllListeners();
    await last?.end().catch(() => undefined);
  };
}
