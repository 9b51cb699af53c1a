/** Entries of one kind left out, and the first of them (an example for the note). */
export interface Counted {
  count: number;
  example: string | null;
}

/** What a sitemap listing left out, and why. */
export interface Tally {
  readonly invalid: Counted;
  readonly offSite: Counted;
  readonly excluded: Counted;
  readonly disallowed: Counted;
  /** Pages past --max-pages. */
  leftOut: number;
  /** Sitemaps not read: past --max-pages or the most sitemaps a listing reads. */
  sitemapsNotRead: number;
  /** Sitemaps nested deeper than a listing reads. */
  tooDeep: number;
  /** Why each sitemap named by an index, now gone, was not read. */
  readonly goneSitemaps: string[];
}

export function emptyTally(): Tally {
  const counted = (): Counted => ({ count: 0, example: null });
  return {
    invalid: counted(),
    offSite: counted(),
    excluded: counted(),
    disallowed: counted(),
    leftOut: 0,
    sitemapsNotRead: 0,
    tooDeep: 0,
    goneSitemaps: [],
  };
}

export function count(counted: Counted, example: string): void {
  counted.count += 1;
  counted.example ??= example;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const eg = (counted: Counted): string => (counted.example === null ? '' : ` (e.g. ${counted.example})`);

/** One line per kind of entry left out, for the listing's notes. */
export function listingNotes(
  tally: Tally,
  { maxPages, includeGlob, site }: { maxPages: number; includeGlob: string | null; site: { origin: string } },
): string[] {
  const notes: string[] = [];
  if (tally.leftOut > 0 || tally.sitemapsNotRead > 0) {
    const pages = tally.leftOut > 0 ? `${plural(tally.leftOut, 'page')} left out` : '';
    const sitemaps = tally.sitemapsNotRead > 0 ? `${plural(tally.sitemapsNotRead, 'sitemap')} not read` : '';
    notes.push(`${[pages, sitemaps].filter(Boolean).join(', and ')}: the source lists at most ${plural(maxPages, 'page')} (max pages)`);
  }
  if (tally.offSite.count > 0) {
    notes.push(`${plural(tally.offSite.count, 'URL')} on other sites skipped${eg(tally.offSite)}: a source reads only ${site.origin}`);
  }
  if (tally.excluded.count > 0) {
    notes.push(`${plural(tally.excluded.count, 'page')} not matching the include glob ${includeGlob ?? ''} skipped${eg(tally.excluded)}`);
  }
  if (tally.disallowed.count > 0) {
    notes.push(`${plural(tally.disallowed.count, 'URL')} disallowed by robots.txt skipped${eg(tally.disallowed)}`);
  }
  if (tally.invalid.count > 0) {
    notes.push(`${plural(tally.invalid.count, '<loc>')} that are not http(s) URLs skipped${eg(tally.invalid)}`);
  }
  if (tally.tooDeep > 0) notes.push(`${plural(tally.tooDeep, 'sitemap')} nested too deep not read`);
  for (const gone of tally.goneSitemaps) notes.push(`${gone}: gone, its pages are not listed`);
  return notes;
}

/** Why a listing that kept no page fails: a source that lists nothing would otherwise retire every fact of its KB. */
export function nothingListed(root: URL, tally: Tally, includeGlob: string | null): string {
  const why = [
    tally.offSite.count > 0 ? `${plural(tally.offSite.count, 'URL')} on other sites` : '',
    tally.excluded.count > 0 ? `${plural(tally.excluded.count, 'page')} not matching the include glob ${includeGlob ?? ''}` : '',
    tally.disallowed.count > 0 ? `${plural(tally.disallowed.count, 'URL')} disallowed by robots.txt` : '',
    tally.invalid.count > 0 ? `${plural(tally.invalid.count, '<loc>')} not http(s) URLs` : '',
    tally.goneSitemaps.length > 0 ? `${plural(tally.goneSitemaps.length, 'sitemap')} gone` : '',
    tally.tooDeep > 0 ? `${plural(tally.tooDeep, 'sitemap')} nested too deep` : '',
  ].filter(Boolean);
  if (why.length === 0) return `sitemap ${root.href} lists no pages`;
  return `sitemap ${root.href} lists no page this source may read: ${why.join(', ')}`;
}
