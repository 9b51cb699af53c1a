import type { Db } from '../store/open-store.js';
import { loadEmbeddings } from './embed-facts.js';
import type { IndexSnapshots } from './index-snapshots.js';
import { buildSegment, KnowledgeIndex, type Slicing } from './knowledge-index.js';
import { ExpertExpiry, factsRetiredSince, relinkedSince, versionFacts } from './version-facts.js';
import { versionStamp } from './version-stamp.js';

/** What loading a KB version needs besides the store. */
export interface VersionLoaderDeps {
  readonly embeddingModel: string | undefined;
  readonly expertDays: (kb: string) => number | undefined;
  readonly now: () => number;
  readonly slicing: () => Slicing;
  /** Where built indexes are kept for the next start; null: nowhere. */
  readonly snapshots: () => IndexSnapshots | null;
  /** Told why a kept index was not used (damaged, outdated); not told when there was none. */
  readonly snapshotSkipped: (kb: string, reason: string) => void;
}

/**
 * Loads a KB version's index: the index already built (in this process, or kept from the last start) with what
 * changed since — a segment of the facts added, less those retired — or, for a KB's first index, once an
 * expert answer in it fell due, when documents were re-linked, or when most of it was retired, every fact.
 */
export class VersionLoader {
  /** Per KB: the snapshot save in progress (saves of one KB never overlap). */
  private readonly saving = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly deps: VersionLoaderDeps,
  ) {}

  async load(
    kb: { readonly kbId: number; readonly name: string; readonly version: number },
    ready: KnowledgeIndex | undefined,
  ): Promise<KnowledgeIndex> {
    const { kbId, name, version } = kb;
    const expiry = new ExpertExpiry(this.deps.expertDays(name), this.deps.now());
    const slicing = this.deps.slicing();
    const vectors = this.deps.embeddingModel
      ? await loadEmbeddings(this.db, kbId, this.deps.embeddingModel)
      : new Map<number, Float32Array>();
    const usable = (index: KnowledgeIndex | undefined | null) =>
      index && index.kbId === kbId && index.version <= version && this.deps.now() < index.expiresAt ? index : null;
    const since = usable(ready) ?? usable(await this.kept(kb));
    if (since?.version === version) {
      const same = since.withChanges(version, { add: null, remove: [], vectors });
      same.expiresAt = since.expiresAt;
      return same;
    }
    const range = since ? { kbId, version, since: since.version } : null;
    // Most of the index retired (a whole KB ingested again): a full build is cheaper than a segment and a merge.
    const remove = range && !(await relinkedSince(this.db, range)) ? await factsRetiredSince(this.db, range) : null;
    if (since && range && remove && remove.length <= since.size / 2) {
      const add = await buildSegment(versionFacts(this.db, range, expiry), slicing, kbId);
      const index = since.withChanges(version, { add, remove, vectors });
      index.expiresAt = Math.min(since.expiresAt, expiry.expiresAt);
      return index;
    }
    const index = await KnowledgeIndex.build(kb, versionFacts(this.db, { kbId, version, since: null }, expiry), vectors, slicing);
    index.expiresAt = expiry.expiresAt;
    return index;
  }

  /** Keeps the index for the next start (after any save of the KB in progress); a failed save is reported, not thrown. */
  save(index: KnowledgeIndex): Promise<void> {
    const snapshots = this.deps.snapshots();
    if (!snapshots) return Promise.resolve();
    const previous = this.saving.get(index.name) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const stamp = await versionStamp(this.db, index.kbId, index.version);
        if (stamp === null) throw new Error(`version ${index.version} is not in the store`);
        await snapshots.save(index, stamp);
      })
      .catch((error: unknown) =>
        this.deps.snapshotSkipped(index.name, `saving it failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        if (this.saving.get(index.name) === next) this.saving.delete(index.name);
      });
    this.saving.set(index.name, next);
    return next;
  }

  /** The saves in progress (for a test, or a stop). */
  async saved(): Promise<void> {
    await Promise.all(this.saving.values());
  }

  /** The KB's index kept from the last start, if any can be trusted. */
  private async kept(kb: { readonly kbId: number; readonly name: string; readonly version: number }): Promise<KnowledgeIndex | null> {
    const snapshots = this.deps.snapshots();
    if (!snapshots) return null;
    const stampOf = (version: number) => versionStamp(this.db, kb.kbId, version);
    const loaded = await snapshots.load(kb, kb.version, this.deps.now(), stampOf).catch((error: unknown) => ({
      kb: kb.name,
      reason: error instanceof Error ? error.message : String(error),
    }));
    if (loaded instanceof KnowledgeIndex) return loaded;
    if (loaded.reason !== 'none saved') this.deps.snapshotSkipped(kb.name, loaded.reason);
    return null;
  }
}
