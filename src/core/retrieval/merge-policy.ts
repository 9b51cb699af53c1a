/** A segment as the merge policy sees it: facts live in it, and deleted from it. */
export interface SegmentSize {
  readonly live: number;
  readonly deleted: number;
}

/** More segments than this, and the newest are merged. */
export const MAX_SEGMENTS = 6;

/** Segments this small (live facts) merge with any newer ones: a few expert answers are not kept apart. */
export const SMALL_SEGMENT = 10_000;

/** A segment with more than this share of its facts deleted is rewritten without them. */
export const MAX_DELETED_SHARE = 0.5;

/**
 * Which neighbouring segments to merge next (inclusive range, oldest first), or null. Segments are kept few
 * and merges small, as a log-structured merge does: the newest segments are merged once there are more than
 * MAX_SEGMENTS, taking the longest run of newest segments whose facts together are no more than the segment
 * before the run holds, or which are all small (at least the two newest), so a merge rewrites small segments and the largest is
 * rewritten only when most of it was deleted. Only neighbours merge: the facts keep their order.
 */
export function segmentsToMerge(segments: readonly SegmentSize[]): { readonly from: number; readonly to: number } | null {
  const heavy = segments.findIndex((s) => s.deleted > 0 && s.deleted > (s.live + s.deleted) * MAX_DELETED_SHARE);
  if (heavy >= 0) return { from: heavy, to: heavy };
  if (segments.length <= MAX_SEGMENTS) return null;
  const last = segments.length - 1;
  let from = last;
  let run = (segments[last] as SegmentSize).live;
  while (from > 1) {
    const before = segments[from - 1] as SegmentSize;
    const earlier = segments[from - 2] as SegmentSize;
    if (run + before.live > earlier.live && before.live > SMALL_SEGMENT) break;
    run += before.live;
    from -= 1;
  }
  return { from: Math.min(from, last - 1), to: last };
}
