import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { Bm25Index } from '../core/retrieval/bm25-index.js';
import { Bm25Segment } from '../core/retrieval/bm25-segment.js';
import type { FactSegment } from './fact-segment.js';
import { KnowledgeIndex } from './knowledge-index.js';
import { readSegmentFile, SEGMENT_FORMAT, segmentFileBytes } from './segment-file.js';
import { writeAtomically } from './write-atomically.js';

/** A segment file no manifest names is left this long (a worker may be writing it) before it is removed as a stray. */
const STRAY_MS = 3_600_000;

/** What a KB's snapshot holds: the version, and its segments' files with the positions deleted from each. */
interface Manifest {
  readonly format: number;
  readonly kbId: number;
  readonly version: number;
  /** The version's stamp in the database it was built from (see versionStamp). */
  readonly stamp: string;
  /** When the first expert answer in it falls due (ms since epoch; null: never): the snapshot is not used after. */
  readonly expiresAt: number | null;
  readonly segments: readonly { readonly file: string; readonly deleted: readonly number[] }[];
}

/** Why a snapshot was not used, for the log. */
export interface SnapshotSkipped {
  readonly kb: string;
  readonly reason: string;
}

/**
 * Built indexes kept on disk beside the store (the data folder), so a restarted replica loads a KB's index
 * instead of reading and indexing every fact: each segment in a file of its own, written once (segments never
 * change), and per KB a manifest naming the version, its segments and what was deleted from them. A snapshot
 * of another KB, of a version the store does not have, of another format, or one whose checksum differs is
 * not trusted: the index is built from the store, and the next save replaces it.
 */
export class IndexSnapshots {
  /** Per KB: the segment files its last manifest saved by this process named (removed once no manifest names them). */
  private readonly named = new Map<number, ReadonlySet<string>>();

  constructor(private readonly dir: string) {}

  /** Fresh file name for a KB's segment, in this folder. */
  newSegmentPath(kbId: number): string {
    return join(this.dir, `kb${kbId}-${randomUUID()}.seg`);
  }

  /** Writes the index's segments not on disk yet and the KB's manifest, then removes the KB's files it no longer names. */
  async save(index: KnowledgeIndex, stamp: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const segments: { file: string; deleted: number[] }[] = [];
    for (const [s, segment] of index.segments.entries()) {
      let file = segment.storedIn;
      if (!file) {
        const path = this.newSegmentPath(index.kbId);
        await writeAtomically(
          path,
          segmentFileBytes({ kbId: index.kbId, facts: segment, arrays: (index.bm25.segments[s] as Bm25Segment).arrays }),
        );
        file = basename(path);
        segment.storedIn = file;
      }
      segments.push({ file, deleted: [...index.bm25.deletedIn(s)] });
    }
    const expiresAt = Number.isFinite(index.expiresAt) ? index.expiresAt : null;
    const manifest: Manifest = { format: SEGMENT_FORMAT, kbId: index.kbId, version: index.version, stamp, expiresAt, segments };
    await writeAtomically(this.manifestPath(index.kbId), [Buffer.from(JSON.stringify(manifest))]);
    // Files a worker is writing for a build in progress are named by no manifest yet: only files an earlier
    // manifest named are removed here (strays left by a crash are removed by `load`, once old).
    const named = new Set(segments.map((segment) => segment.file));
    for (const file of this.named.get(index.kbId) ?? []) if (!named.has(file)) await rm(join(this.dir, file), { force: true });
    this.named.set(index.kbId, named);
  }

  /** Removes the KB's segment files (and half-written ones) no manifest names, left for more than STRAY_MS. */
  private async removeStrays(kbId: number, manifest: Manifest | null, now: number): Promise<void> {
    const named = new Set(Array.isArray(manifest?.segments) ? manifest.segments.map((segment) => segment.file) : []);
    for (const file of await readdir(this.dir).catch(() => [])) {
      if (!file.startsWith(`kb${kbId}-`) || named.has(file)) continue;
      const path = join(this.dir, file);
      const changed = await stat(path).then(
        (info) => info.mtimeMs,
        () => now,
      );
      if (now - changed > STRAY_MS) await rm(path, { force: true });
    }
  }

  /**
   * The KB's index as last saved, if it can be trusted for a store at `version`: the saved version is not newer,
   * it has the stamp `stampOf` gives that version in this database (see versionStamp), and no expert answer in it
   * has fallen due by `now`. Otherwise why not.
   */
  async load(
    kb: { readonly kbId: number; readonly name: string },
    version: number,
    now: number,
    stampOf: (version: number) => Promise<string | null>,
  ): Promise<KnowledgeIndex | SnapshotSkipped> {
    const skipped = (reason: string): SnapshotSkipped => ({ kb: kb.name, reason });
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(this.manifestPath(kb.kbId), 'utf8')) as Manifest;
    } catch (error) {
      await this.removeStrays(kb.kbId, null, Date.now());
      return skipped((error as { code?: string }).code === 'ENOENT' ? 'none saved' : 'its manifest cannot be read');
    }
    await this.removeStrays(kb.kbId, manifest, Date.now());
    // The files it names are this process's to replace: the next save removes those it no longer names.
    if (Array.isArray(manifest.segments)) this.named.set(kb.kbId, new Set(manifest.segments.map((segment) => segment.file)));
    if (manifest.format !== SEGMENT_FORMAT || manifest.kbId !== kb.kbId || !Array.isArray(manifest.segments))
      return skipped('it is of another format or KB');
    if (manifest.version > version) return skipped(`it is of version ${manifest.version}, newer than the store's ${version}`);
    if (manifest.expiresAt !== null && now >= manifest.expiresAt) return skipped('an expert answer in it is due for re-confirmation');
    if (manifest.stamp !== (await stampOf(manifest.version))) return skipped('it was built from another database or history');
    const facts: FactSegment[] = [];
    const bm25: Bm25Segment[] = [];
    for (const { file } of manifest.segments) {
      const read = await readFile(join(this.dir, file)).catch(() => null);
      if (!read) return skipped(`its segment ${file} cannot be read`);
      const contents = await readSegmentFile(read, kb.kbId);
      if ('damaged' in contents) return skipped(`its segment ${file} is damaged: ${contents.damaged}`);
      const segment = contents.facts;
      segment.storedIn = file;
      facts.push(segment);
      bm25.push(new Bm25Segment(contents.arrays));
    }
    const lexical = Bm25Index.of(
      bm25,
      undefined,
      manifest.segments.map((segment) => segment.deleted),
    );
    const index = new KnowledgeIndex(kb.kbId, kb.name, manifest.version, { segments: facts, bm25: lexical });
    index.expiresAt = manifest.expiresAt ?? Number.POSITIVE_INFINITY;
    return index;
  }

  private manifestPath(kbId: number): string {
    return join(this.dir, `kb${kbId}.json`);
  }
}
