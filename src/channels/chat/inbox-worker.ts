import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { ClaimedEntry, Inbox } from '../../inbox/inbox-store.js';
import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { instruments } from '../../telemetry/instruments.js';

export interface InboxWorkerOptions {
  readonly channel: string;
  /** Rows worked on at once. @default 4 */
  readonly concurrency?: number;
  /** How long a claim lasts without renewal; renewed every third of it while a row is worked on. @default 60000 */
  readonly leaseMs?: number;
  /** How often to look for rows another replica stored or a dead worker left. @default 1000 */
  readonly pollMs?: number;
  /** Tries before a row is given up (the last try tells the person). @default 5 */
  readonly maxAttempts?: number;
  /**
   * Makes every claimed row claimable before the first look: for the embedded store, which one process
   * holds, so any claim found at start is a dead process's. @default false
   */
  readonly recoverFirst?: boolean;
  /**
   * While this says so, no new row is started (rows in flight go on): acknowledgements come first, so a burst
   * of events is acknowledged before its answers take the event loop and the embedded database. @default never
   */
  readonly holdWhile?: () => boolean;
  /**
   * The longest `holdWhile` holds answering back in one stretch: under traffic that never pauses, answering
   * then goes on beside it (as if nothing held it) until `holdWhile` lets go once. @default 2000
   */
  readonly maxHoldMs?: number;
  /** The clock holds are timed with. @default performance.now */
  readonly now?: () => number;
  /** Answers and delivers one row; returns the posted reply's id (null when nothing could be posted). */
  readonly process: (entry: ClaimedEntry, context: { readonly final: boolean }) => Promise<string | null>;
  readonly log: Log;
}

export interface InboxWorker {
  /** Looks for work now (after a put on this replica). */
  wake(): void;
  /** Rows being worked on. */
  readonly busy: number;
  /** Stops claiming, waits up to `graceMs` for rows in flight, and gives back what it still holds. */
  stop(graceMs: number): Promise<void>;
}

/** How often a held worker looks again. */
const HOLD_POLL_MS = 5;

/**
 * Works a channel's inbox rows: claims them under a lease (so two replicas
 * never work one row, and a dead worker's rows are taken again once its lease
 * runs out), answers and delivers through `process`, and marks each done. A
 * failed try is retried with backoff; after `maxAttempts` the row is given up
 * and kept, with the error, for an operator.
 */
export function startInboxWorker(inbox: Inbox, options: InboxWorkerOptions): InboxWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 60_000;
  const inFlight = new Map<number, Promise<void>>();
  let stopping = false;
  let pumping = false;
  let again = false;
  const hold = holdBack(options, () => void pump());
  // Nothing is claimed before the start-up recovery is through (it would hand this worker's own rows back).
  const ready = options.recoverFirst ? recoverAtStart(inbox, options) : Promise.resolve();

  /**
   * Claims what there is room for and starts working it: 'full' when it claimed all it had room for (there may be
   * more), 'claimed' when fewer, 'stop' when it claimed nothing (stopping, no room, held back, or the claim failed).
   */
  const claimMore = async (): Promise<'full' | 'claimed' | 'stop'> => {
    const free = concurrency - inFlight.size;
    if (stopping || free <= 0 || hold.holding()) return 'stop';
    let claimed: ClaimedEntry[];
    try {
      claimed = await inbox.claim(options.channel, owner, free, leaseMs);
    } catch (error) {
      options.log('warn', 'inbox: could not claim questions', { channel: options.channel, error: describeError(error) });
      return 'stop';
    }
    for (const entry of claimed) {
      const job = workEntry(inbox, { ...options, owner, leaseMs }, entry).finally(() => {
        inFlight.delete(entry.id);
        void pump();
      });
      inFlight.set(entry.id, job);
    }
    return claimed.length === free ? 'full' : 'claimed';
  };

  // One pump at a time; a call while it runs makes it go round once more.
  const pump = async (): Promise<void> => {
    await ready;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        const claimed = await claimMore();
        if (claimed === 'stop') return;
        if (claimed === 'full') again = true;
      } while (again);
    } finally {
      pumping = false;
    }
  };

  const poll = setInterval(() => void pump(), options.pollMs ?? 1_000);
  poll.unref();
  void pump();
  return {
    wake: () => void pump(),
    get busy() {
      return inFlight.size;
    },
    async stop(graceMs) {
      stopping = true;
      clearInterval(poll);
      hold.clear();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight.values()]).then(() => undefined), grace]);
      await inbox.release(owner).catch(() => undefined);
    },
  };
}

/**
 * Whether to hold answering back now (`holdWhile`, for at most `maxHoldMs` in one stretch); while holding, one
 * timer looks again soon — every wake during a burst must not start a polling loop of its own.
 */
function holdBack(options: InboxWorkerOptions, lookAgain: () => void): { holding(): boolean; clear(): void } {
  const now = options.now ?? (() => performance.now());
  const maxHoldMs = options.maxHoldMs ?? 2_000;
  /** When the current hold began (undefined: not holding). */
  let holdingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    holding() {
      if (!options.holdWhile?.()) {
        holdingSince = undefined;
        return false;
      }
      holdingSince ??= now();
      if (now() - holdingSince >= maxHoldMs) return false;
      timer ??= setTimeout(() => {
        timer = undefined;
        lookAgain();
      }, HOLD_POLL_MS);
      timer.unref();
      return true;
    },
    clear: () => clearTimeout(timer),
  };
}

/** Answers and delivers one claimed row under a renewed lease, and marks it done, or failed (retried or given up). */
async function workEntry(
  inbox: Inbox,
  context: Pick<InboxWorkerOptions, 'channel' | 'maxAttempts' | 'process' | 'log'> & { owner: string; leaseMs: number },
  entry: ClaimedEntry,
): Promise<void> {
  const { channel, owner, leaseMs, log } = context;
  const renew = setInterval(() => void inbox.extend([entry.id], owner, leaseMs).catch(() => undefined), Math.max(50, leaseMs / 3));
  renew.unref();
  const final = entry.attempts >= (context.maxAttempts ?? 5);
  if (entry.attempts > 1) instruments.inboxRetries().add(1, { channel });
  try {
    const ref = await context.process(entry, { final });
    await inbox.done(entry.id, owner, ref);
  } catch (error) {
    const message = describeError(error);
    log(final ? 'error' : 'warn', final ? 'inbox: gave up on a question' : 'inbox: will retry a question', {
      channel,
      eventId: entry.eventId,
      attempt: entry.attempts,
      error: message,
    });
    // If the database is what failed, this fails too; the lease then runs out and the row is taken again.
    await inbox.fail(entry.id, owner, message, { final, retryInMs: Math.min(60_000, 500 * 2 ** entry.attempts) }).catch(() => undefined);
  } finally {
    clearInterval(renew);
  }
}

/** Makes every claimed row claimable again (the embedded store's dead claims); a failure only delays them to their leases. */
async function recoverAtStart(inbox: Inbox, options: Pick<InboxWorkerOptions, 'channel' | 'log'>): Promise<void> {
  const recovered = await inbox.recoverAll().catch(() => 0);
  if (recovered > 0)
    options.log('info', 'inbox: took back questions a stopped process had claimed', { channel: options.channel, recovered });
}
