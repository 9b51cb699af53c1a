/**
 * A light, deterministic suffix stripper (S-stemmer plus -ing/-ed/-ly).
 * Aggressive stemmers merge words the gate must keep apart (e.g. "policy" and
 * "police"); this one only folds inflections, which is what coverage needs.
 */
export function stem(token: string): string {
  if (token.length <= 3) return token;
  const known = STEMS.get(token);
  if (known !== undefined) return known;
  const stemmed = stemOnce(token);
  if (STEMS.size >= STEM_CACHE_SIZE) STEMS.clear();
  STEMS.set(token, stemmed);
  return stemmed;
}

/** Stems of words seen lately: indexing a large KB stems the same few thousand words again and again. */
const STEMS = new Map<string, string>();
const STEM_CACHE_SIZE = 100_000;

function stemOnce(token: string): string {
  if (/\d/.test(token)) return token;
  let t = token;
  if (t.endsWith('ies') && t.length > 4) t = `${t.slice(0, -3)}y`;
  else if (t.endsWith('sses')) t = t.slice(0, -2);
  else if (/(?:ches|shes|xes|zes)$/.test(t)) t = t.slice(0, -2);
  else if (t.endsWith('s') && !/(?:ss|us|is)$/.test(t)) t = t.slice(0, -1);
  if (t.length > 5 && t.endsWith('ing')) t = undouble(t.slice(0, -3));
  else if (t.length > 4 && t.endsWith('ied')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 4 && t.endsWith('ed') && !t.endsWith('eed')) t = undouble(t.slice(0, -2));
  else if (t.length > 5 && t.endsWith('ly')) t = t.slice(0, -2);
  return t.endsWith('e') && t.length > 3 ? t.slice(0, -1) : t;
}

function undouble(t: string): string {
  return /([bdgmnprt])\1$/.test(t) ? t.slice(0, -1) : t;
}
