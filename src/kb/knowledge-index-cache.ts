import { eq } from 'drizzle-orm';

import { segmentsToMerge } from '../core/retrieval/merge-policy.js';
import { CandorError } from '../kernel/errors.js';
import { withinTime } from '../kernel/within-time.js';
import type { Db } from '../store/open-store.js';
import { knowledgeBases } from '../store/schema.js';
import { IndexSnapshots } from './index-snapshots.js';
import { refreshSettings, settingVersions } from './kb-settings.js';
import type { KnowledgeIndex, Slicing } from './knowledge-index.js';
import { VersionLoader } from './version-loader.js';

/** Options of a KB's index cache. */
export interface IndexCacheOptions {
  /** Load that model's fact embeddings with each version (vector retrieval). */
  readonly embeddingModel?: string | undefined;
  /** Days after which a KB's expert answers stop being used unless re-confirmed (CANDOR_EXPERTS reconfirmDays). */
  readonly expertDays?: ((kb: string) => number | undefined) | undefined;
  /** @default Date.now */
  readonly now?: () => number;
  /** What a build awaits between slices of facts. @default a turn of the event loop (setImmediate) */
  readonly pause?: () => Promise<void>;
  /** Facts indexed between pauses. @default 500 */
  readonly sliceSize?: number;
  /** Build segments (a KB's first index, a version's changes, merges) in a worker thread. @default false */
  readonly offThread?: boolean;
  /** Segments of at most this many facts are built on this thread all the same. @default INLINE_FACTS (2,000) */
  readonly inlineFacts?: number;
}

/** A KB's index as /healthz reports it. */
export interface IndexReadiness {
  readonly kb: string;
  /** The version answers come from now; null: none built yet. */
  readonly version: number | null;
  /** A build in progress (a newer version, or the first). */
  readonly building: number | null;
  readonly facts: number | null;
}

/**
 * Keeps one index per KB and rebuilds it when the stored version moves on, so
 * every replica answers from the newest version after an ingest elsewhere.
 * Builds yield to the event loop between slices. In serving mode
 * (`serveWhileBuilding`) a rebuild runs off the request path: asks keep the
 * previous version until the new one is ready, and an ask for a KB with no
 * index yet waits at most `maxWaitMs`, then is told to come back (kb_warming).
 */
export class KnowledgeIndexCache {
  /** The newest index built per KB. */
  private readonly ready = new Map<string, KnowledgeIndex>();
  private readonly building = new Map<
    string,
    { readonly kbId: number; readonly version: number; readonly promise: Promise<KnowledgeIndex> }
  >();
  /** A merge of segments in progress per KB (see segmentsToMerge). */
  private readonly merging = new Map<string, Promise<void>>();
  private serving: ServingOptions | null = null;
  /** Each KB's version as last read from the store, and when; trusted for `trustVersionsMs` while serving. */
  private readonly known = new Map<string, { readonly kb: CurrentKb; readonly at: number }>();
  /** Bumped by every change notice, so that a read begun before a notice is not trusted after it. */
  private changes = 0;

  private readonly expertDays: (kb: string) => number | undefined;
  private readonly now: () => number;
  private readonly pause: () => Promise<void>;
  private slicing: Slicing;
  private snapshots: IndexSnapshots | null = null;
  private readonly loader: VersionLoader;

  constructor(
    private readonly db: Db,
    options: IndexCacheOptions = {},
  ) {
    this.expertDays = options.expertDays ?? (() => undefined);
    this.now = options.now ?? Date.now;
    this.pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.slicing = { pause: this.pause, sliceSize: options.sliceSize, offThread: options.offThread, inlineFacts: options.inlineFacts };
    this.loader = new VersionLoader(db, {
      embeddingModel: options.embeddingModel,
      expertDays: this.expertDays,
      now: this.now,
      slicing: () => this.slicing,
      snapshots: () => this.snapshots,
      snapshotSkipped: (kb, reason) => this.serving?.snapshotSkipped?.(kb, reason),
    });
  }

  /** Days after which the KB's expert answers stop being used unless re-confirmed; undefined: never. */
  reconfirmDays(kb: string): number | undefined {
    return this.expertDays(kb);
  }

  /**
   * Server mode: rebuilds off the request path (see the class), their index work in a worker thread, and built
   * indexes kept in `snapshotDir` for the next start.
   */
  serveWhileBuilding(options: ServingOptions): void {
    this.serving = options;
    const snapshots = options.snapshotDir ? new IndexSnapshots(options.snapshotDir) : null;
    this.snapshots = snapshots;
    this.slicing = { ...this.slicing, offThread: true, snapshotPath: snapshots ? (kbId) => snapshots.newSegmentPath(kbId) : undefined };
  }

  /** Resolves once the indexes built so far are kept on disk (serving with a snapshot folder). */
  async snapshotsSaved(): Promise<void> {
    await this.loader.saved();
  }

  /**
   * A KB's version or a setting of it (gate, grounding) changed (null: any KB's may have): the next ask reads it from the store
   * again, and a served KB's new version starts building now rather than on that ask.
   */
  changed(kb: string | null): void {
    this.changes += 1;
    if (kb === null) this.known.clear();
    else this.known.delete(kb);
  }

  async get(name: string): Promise<KnowledgeIndex> {
    const kb = await this.currentKnown(name);
    let index = this.ready.get(name);
    if (!index || index.version !== kb.version || index.kbId !== kb.id || this.now() >= index.expiresAt) {
      const build = this.build(name, kb);
      if (this.serving && index && index.kbId === kb.id) {
        // The previous version answers until the new one is ready; a failed build is tried again by the next ask.
        build.catch(() => undefined);
      } else {
        index = this.serving ? await readyWithin(build, this.serving.maxWaitMs, name) : await build;
      }
    }
    await refreshSettings(this.db, index, kb);
    return index;
  }

  /** Starts building the current version of these KBs (those that exist), without waiting: a server's start. */
  async warm(names: readonly string[]): Promise<void> {
    for (const name of names) {
      const kb = await this.current(name).catch((error: unknown) => {
        if (error instanceof CandorError && error.code === 'kb_not_found') return null;
        throw error;
      });
      if (kb && this.ready.get(name)?.version !== kb.version) this.build(name, kb).catch(() => undefined);
    }
  }

  /** Resolves once the builds in progress for these KBs end, or after `ms`, whichever is first (never rejects). */
  async built(names: readonly string[], ms: number): Promise<void> {
    const builds = names.flatMap((name) => {
      const inFlight = this.building.get(name);
      return [...(inFlight ? [inFlight.promise.catch(() => undefined)] : []), ...(this.merging.has(name) ? [this.merging.get(name)] : [])];
    });
    await withinTime(
      Promise.all(builds).then(() => undefined),
      ms,
      () => undefined,
    );
  }

  /** Each KB's index (these and every KB asked so far): the version answers come from, and a build in progress. */
  readiness(names: readonly string[] = []): IndexReadiness[] {
    return [...new Set([...names, ...this.ready.keys(), ...this.building.keys()])].sort().map((kb) => {
      const index = this.ready.get(kb);
      return { kb, version: index?.version ?? null, building: this.building.get(kb)?.version ?? null, facts: index?.size ?? null };
    });
  }

  /**
   * The KB's version: while serving with change notices, the one last read if it is younger than
   * `trustVersionsMs` (no round trip per ask; a notice drops it at once); otherwise read from the store.
   */
  private async currentKnown(name: string): Promise<CurrentKb> {
    const trustMs = this.serving?.trustVersionsMs ?? 0;
    const entry = this.known.get(name);
    if (entry && this.now() - entry.at < trustMs) return entry.kb;
    return this.current(name);
  }

  /** The KB's version read from the store (and noted as known, unless a change notice came meanwhile). */
  private async current(name: string): Promise<CurrentKb> {
    const changes = this.changes;
    const [kb] = await this.db
      .select({
        id: knowledgeBases.id,
        version: knowledgeBases.currentVersion,
        ...settingVersions,
      })
      .from(knowledgeBases)
      .where(eq(knowledgeBases.name, name));
    if (!kb)
      throw new CandorError(
        'kb_not_found',
        `There is no knowledge base named "${name}". Ingest documents with: candor ingest PATH --kb ${name}`,
        { status: 404 },
      );
    if (this.serving?.trustVersionsMs && changes === this.changes) this.known.set(name, { kb, at: this.now() });
    return kb;
  }

  /** The build of this version: the one in progress, or a new one. The newest version built is kept. */
  private build(name: string, kb: { readonly id: number; readonly version: number }): Promise<KnowledgeIndex> {
    const inFlight = this.building.get(name);
    if (inFlight && inFlight.kbId === kb.id && inFlight.version === kb.version) return inFlight.promise;
    const promise = this.loader
      .load({ kbId: kb.id, name, version: kb.version }, this.ready.get(name))
      .then((index) => {
        const kept = this.ready.get(name);
        if (!kept || kept.kbId !== index.kbId || kept.version <= index.version) {
          this.ready.set(name, index);
          void this.loader.save(index);
          this.mergeIfDue(name, index);
        }
        return index;
      })
      .finally(() => {
        if (this.building.get(name)?.promise === promise) this.building.delete(name);
      });
    this.building.set(name, { kbId: kb.id, version: kb.version, promise });
    return promise;
  }

  /**
   * Merges the index's segments in the background when the merge policy says so; the merged index (the same
   * version, answering the same) takes the index's place if it is still the newest, and is looked at again.
   */
  private mergeIfDue(name: string, index: KnowledgeIndex): void {
    if (this.merging.has(name)) return;
    const range = segmentsToMerge(
      index.segments.map((segment, s) => {
        const deleted = index.bm25.deletedIn(s).size;
        return { live: segment.size - deleted, deleted };
      }),
    );
    if (!range) return;
    const merging = index
      .merged(range, this.slicing)
      .then((merged) => {
        this.merging.delete(name);
        if (this.ready.get(name) !== index) return;
        this.ready.set(name, merged);
        void this.loader.save(merged);
        this.mergeIfDue(name, merged);
      })
      .catch(() => {
        this.merging.delete(name); // the unmerged index serves on; the next version tries again
      });
    this.merging.set(name, merging);
  }
}

interface ServingOptions {
  /** How long an ask for a KB with no index yet waits for its first build before a 503 (kb_warming). */
  readonly maxWaitMs: number;
  /**
   * How long a KB's version, once read, is used without reading it again (0: read on every ask). Set it only
   * where change notices reach the cache (`changed`): it bounds how stale a missed notice can leave a replica.
   */
  readonly trustVersionsMs?: number;
  /** Keep built indexes in this folder and load them at the next start (see IndexSnapshots); null: don't. */
  readonly snapshotDir?: string | null;
  /** Told why a kept index was not used or could not be saved. */
  readonly snapshotSkipped?: (kb: string, reason: string) => void;
}

interface CurrentKb {
  readonly id: number;
  readonly version: number;
  readonly gateVersion: number | null;
  readonly groundingVersion: number | null;
}

/** The index once built, if that is within `ms`; else a 503 the caller can come back from. */
function readyWithin(build: Promise<KnowledgeIndex>, ms: number, name: string): Promise<KnowledgeIndex> {
  return withinTime(build, ms, () => {
    throw new CandorError('kb_warming', `The knowledge base "${name}" is being loaded; ask again in a few seconds.`, {
      status: 503,
      retryable: true,
    });
  });
}
