/**
 * The server's RSS over a run, read on a timer. A Node process's RSS is a saw:
 * the heap fills and a major GC empties it, often 200 MB apart. Comparing two
 * single readings measures where the saw stood; the troughs (the lowest
 * reading in a stretch of the run) are what the process keeps, so growth is
 * the last quarter's trough minus the trough of the quarter after warm-up.
 */
export interface RssReport {
  readonly rssStartMb: number | null;
  readonly rssEndMb: number | null;
  readonly rssPeakMb: number | null;
  readonly rssGrowthMb: number | null;
  /** Up to 40 readings across the run (MB), to see the saw. */
  readonly rssSeriesMb: number[];
}

export function watchRss(read: () => number | null, progress: () => number, everyMs = 250) {
  const samples: { done: number; mb: number }[] = [];
  const sample = () => {
    const mb = read();
    if (mb !== null) samples.push({ done: progress(), mb });
  };
  const timer = setInterval(sample, everyMs);
  return {
    latest: () => samples.at(-1)?.mb ?? null,
    /** Stops reading; `warmup` and `total` are request counts (the run may have ended early: `total` is what was done). */
    stop(warmup: number, total: number): RssReport {
      clearInterval(timer);
      sample();
      const after = samples.filter((s) => s.done >= warmup);
      const span = Math.max(1, total - warmup);
      const trough = (from: number, to: number) => {
        const window = after.filter((s) => s.done >= from && s.done <= to).map((s) => s.mb);
        return window.length > 0 ? Math.min(...window) : null;
      };
      const rssStartMb = trough(warmup, warmup + span / 4);
      const rssEndMb = trough(total - span / 4, total);
      const step = Math.max(1, Math.ceil(samples.length / 40));
      return {
        rssStartMb,
        rssEndMb,
        rssPeakMb: samples.length > 0 ? Math.max(...samples.map((s) => s.mb)) : null,
        rssGrowthMb: rssStartMb !== null && rssEndMb !== null ? Math.round((rssEndMb - rssStartMb) * 10) / 10 : null,
        rssSeriesMb: samples.filter((_, i) => i % step === 0).map((s) => Math.round(s.mb)),
      };
    },
  };
}
