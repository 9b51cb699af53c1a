import type { Answered, EvidenceView } from '../../ask/decision.js';
import { httpUrl } from '../../core/text/http-url.js';

/** One source as a reply lists it: once, however many cited facts come from it. */
export interface Citation {
  /** Its number in the reply: the `[n]` in a model's answer, the `n.` in the list. */
  readonly n: number;
  /** The document's title, or the fact's source label when the document has none. */
  readonly title: string;
  /** The section (heading path); null when there is none or the title already names it. */
  readonly section: string | null;
  /** An http(s) link people can open; null when the source has none or it is any other scheme. */
  readonly url: string | null;
  /** The knowledge base it is from, when several were searched together; null otherwise. */
  readonly kb: string | null;
}

export interface CitedAnswer {
  /** The answer, its `[n]` markers renumbered to the citations when sources were merged. */
  readonly answer: string;
  readonly citations: readonly Citation[];
}

/** A runaway title (PDF metadata, a whole first paragraph) is cut; the link still opens the document. */
const MAX_TITLE = 150;
const MAX_SECTION = 150;

/**
 * The sources of an answer, numbered once each: cited facts that share a link
 * and section (or, without a link, a title and section) are one citation. With
 * `markers` (a model's answer, whose `[n]` name evidence items in order) the
 * markers are renumbered to match; an extractive answer's text is left alone,
 * since a bracketed number in it is the knowledge base's own.
 */
export function citeAnswer(answer: string, evidence: readonly EvidenceView[], options: { markers: boolean }): CitedAnswer {
  const citations: Citation[] = [];
  const byKey = new Map<string, Citation>();
  const numberOf: number[] = [];
  for (const e of evidence) {
    const url = httpUrl(e.url);
    const title = clean(e.title) ?? clean(e.source) ?? e.factId;
    const rawSection = clean(e.section);
    const section = rawSection === null || title === rawSection || title.endsWith(` › ${rawSection}`) ? null : rawSection;
    const kb = e.kb ?? null;
    const key = `${kb ?? ''}\u0000${url === null ? `title\u0000${title}` : `url\u0000${url}`}\u0000${section ?? ''}`;
    let citation = byKey.get(key);
    if (!citation) {
      citation = { n: citations.length + 1, title: cap(title, MAX_TITLE), section: section && cap(section, MAX_SECTION), url, kb };
      byKey.set(key, citation);
      citations.push(citation);
    }
    numberOf.push(citation.n);
  }
  const merged = citations.length < evidence.length;
  return { answer: options.markers && merged ? renumber(answer, numberOf) : answer, citations };
}

/** An answer's citations; a model's `[n]` markers (there is a model when `generation` is set) are renumbered to match. */
export function citeDecision(d: Pick<Answered, 'answer' | 'evidence' | 'generation'>): CitedAnswer {
  return citeAnswer(d.answer, d.evidence, { markers: d.generation !== undefined });
}

/** "Title › Section", or the title alone; "(KB name)" after it when several KBs were searched. */
export function citationLabel(c: Citation): string {
  const label = c.section === null ? c.title : `${c.title} › ${c.section}`;
  return c.kb === null ? label : `${label} (${c.kb})`;
}

/** `[2]` → `[1]` when evidence 2 joined citation 1; `[1][1]` and `[1, 1]` collapse. Numbers out of range stay as written. */
function renumber(answer: string, numberOf: readonly number[]): string {
  const mapped = answer.replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (marker, list: string) => {
    const numbers = list.split(',').map((n) => Number(n.trim()));
    if (!numbers.every((n) => n >= 1 && n <= numberOf.length)) return marker;
    return `[${[...new Set(numbers.map((n) => numberOf[n - 1]))].join(', ')}]`;
  });
  return mapped.replace(/\[(\d+)\](?:\s*\[\1\])+/g, '[$1]');
}

/** One line of printable text: control characters dropped (they could drive a terminal), whitespace collapsed. */
function clean(text: string | null | undefined): string | null {
  if (!text) return null;
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? null : line;
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
