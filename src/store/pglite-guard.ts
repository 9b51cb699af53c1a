import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

import { CandorError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { abandonPglite } from './durable-pglite.js';

export interface PgliteGuardOptions {
  /** "the embedded database in /data", for messages. */
  readonly where: string;
  /** Opens a new instance on the same folder after one stopped (throws while it cannot); absent: never reopen (memory://). */
  readonly reopen?: () => Promise<PGlite>;
  readonly log?: Log | undefined;
}

/** The part of PGlite drizzle uses (drizzle-orm/pglite calls `query` and `transaction`). */
type Client = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

interface NotifyListener {
  readonly channel: string;
  readonly notify: (payload: string | null) => void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 10_000;

/**
 * The client drizzle talks to, in front of one PGlite instance. After a PANIC
 * (a WAL write or fsync failed: a read-only or broken disk) PGlite answers the
 * error but its next statement spins forever on the main thread — no /healthz,
 * no SIGTERM. So once an instance reports a PANIC (or FATAL, or a wasm trap) it
 * is never called again: every query fails at once with store_unavailable, and
 * the first query after `retry` opens a new instance, which replays the WAL
 * (everything committed was fsynced) — as PostgreSQL's postmaster restarts its
 * backends. Transactions are run here, not by PGlite's `transaction()`, which
 * would send ROLLBACK into the stopped instance.
 */
export class PgliteGuard implements Client {
  #client: PGlite | null;
  #stopped: { reason: string; at: number } | null = null;
  #closed = false;
  #queue: Promise<unknown> = Promise.resolve();
  #retryAt = 0;
  #retryMs = FIRST_RETRY_MS;
  #listeners: NotifyListener[] = [];

  constructor(
    client: PGlite,
    private readonly options: PgliteGuardOptions,
  ) {
    this.#client = client;
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#exclusive(async () => this.#run(await this.#usable(), (c) => c.query<T>(query, params, options)));
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.#exclusive(async () => this.#run(await this.#usable(), (c) => c.exec(query, options)));
  }

  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      const client = await this.#usable();
      await this.#run(client, (c) => c.query('begin'));
      let closed = false;
      const tx = {
        query: <R>(q: string, p?: unknown[], o?: QueryOptions) => this.#run(client, (c) => c.query<R>(q, p, o)),
        sql: () => Promise.reject(new Error('tx.sql is not supported here')),
        exec: (q: string, o?: QueryOptions) => this.#run(client, (c) => c.exec(q, o)),
        rollback: async () => {
          await this.#run(client, (c) => c.query('rollback'));
          closed = true;
        },
        listen: () => Promise.reject(new Error('tx.listen is not supported here')),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      try {
        const result = await callback(tx);
        if (!closed) await this.#run(client, (c) => c.query('commit'));
        return result;
      } catch (error) {
        if (!closed && this.#client === client) await this.#run(client, (c) => c.query('rollback')).catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Calls `notify` with each notification on `channel` (delivered in process, before the notifying statement
   * resolves), and with null after the instance is reopened (notifications may have been missed while it was
   * stopped). Resolves with a function that stops listening.
   */
  async listen(channel: string, notify: (payload: string | null) => void): Promise<() => Promise<void>> {
    const listener = { channel, notify };
    this.#listeners.push(listener);
    await this.#exclusive(async () => this.#subscribe(await this.#usable(), listener));
    return async () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  async #subscribe(client: PGlite, listener: NotifyListener): Promise<void> {
    await client.listen(listener.channel, (payload) => {
      if (this.#listeners.includes(listener)) listener.notify(payload);
    });
  }

  /** Why the instance stopped, while it is stopped (null when it serves). */
  get stopped(): string | null {
    return this.#stopped?.reason ?? null;
  }

  /**
   * Closes the instance: cleanly (a checkpoint) when `flush`, else only its
   * files (a read-only folder: the WAL replays on the next start).
   */
  close(flush: boolean): Promise<void> {
    return this.#exclusive(async () => {
      this.#closed = true;
      const client = this.#client;
      this.#client = null;
      if (client && flush) await client.close();
      else if (client) abandonPglite(client);
    });
  }

  /** The instance to use now: the current one, or a reopened one once the retry time has come; throws while stopped. */
  async #usable(): Promise<PGlite> {
    if (this.#closed) throw new CandorError('store_unavailable', `${this.options.where} is closed.`, { status: 503 });
    if (this.#client) return this.#client;
    const stopped = this.#stopped!;
    const { reopen, log } = this.options;
    if (reopen && Date.now() >= this.#retryAt) {
      try {
        this.#client = await reopen();
        this.#stopped = null;
        this.#retryMs = FIRST_RETRY_MS;
        for (const listener of this.#listeners) {
          await this.#subscribe(this.#client, listener);
          listener.notify(null);
        }
        log?.('info', 'store: reopened the embedded database', { downMs: Date.now() - stopped.at });
        return this.#client;
      } catch (error) {
        this.#retryAt = Date.now() + this.#retryMs;
        this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
        stopped.reason = `${stopped.reason.split('; reopening failed')[0]}; reopening failed: ${(error as Error).message.split('\n')[0]}`;
      }
    }
    throw new CandorError('store_unavailable', `${this.options.where} stopped after a failed write (${stopped.reason}).`, {
      status: 503,
      retryable: true,
    });
  }

  async #run<R>(client: PGlite, operation: (client: PGlite) => Promise<R>): Promise<R> {
    if (this.#client !== client)
      throw new CandorError('store_unavailable', `${this.options.where} stopped during a transaction.`, { status: 503 });
    try {
      return await operation(client);
    } catch (error) {
      if (stopsInstance(error)) this.#stop(client, error as Error);
      throw error;
    }
  }

  #stop(client: PGlite, error: Error): void {
    this.#client = null;
    this.#stopped = { reason: `${(error as { severity?: string }).severity ?? error.name}: ${error.message}`, at: Date.now() };
    this.#retryAt = 0;
    abandonPglite(client);
    this.options.log?.('error', 'store: the embedded database stopped after a failed write; it reopens once its folder takes writes', {
      error: this.#stopped.reason,
    });
  }

  /** One statement or transaction at a time, as PGlite itself runs them. */
  #exclusive<R>(work: () => Promise<R>): Promise<R> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/** PANIC and FATAL end a PostgreSQL backend; a wasm trap or exit ends the instance. */
function stopsInstance(error: unknown): boolean {
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (severity === 'PANIC' || severity === 'FATAL') return true;
  const name = (error as Error | null)?.name;
  return name === 'RuntimeError' || name === 'ExitStatus' || name === 'ErrnoError';
}
