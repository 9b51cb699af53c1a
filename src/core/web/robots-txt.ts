/**
 * robots.txt as RFC 9309 reads it (and Google, whose behaviour it wrote down): the groups that name a crawler's
 * product token (case-insensitively; merged when several do), or else the `*` groups, give Allow and Disallow
 * rules; the longest matching pattern decides, Allow winning a tie; `*` matches any run of characters and a final
 * `$` anchors the end; no matching rule allows. Pure.
 */

/** One Allow or Disallow line of the group that applies. */
export interface RobotsRule {
  readonly allow: boolean;
  /** The pattern as written, percent-encoding normalised ("/private/*.pdf$"). */
  readonly pattern: string;
}

interface Group {
  readonly agents: string[];
  readonly rules: RobotsRule[];
}

/** The rules of `text` that apply to the crawler whose product token is `productToken` ("CandorBot"). */
export function robotsRulesFor(text: string, productToken: string): RobotsRule[] {
  const groups = robotsGroups(text);
  const token = productToken.toLowerCase();
  const own = groups.filter((g) => g.agents.includes(token));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.includes('*'));
  return chosen.flatMap((g) => g.rules);
}

/** The rule that decides for `path` (a URL's path and query, "/a/b?c=d"), or null when none matches (allowed). */
export function decidingRule(rules: readonly RobotsRule[], path: string): RobotsRule | null {
  const target = normaliseEncoding(path);
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!patternMatches(rule.pattern, target)) continue;
    const longer = best === null || rule.pattern.length > best.pattern.length;
    const tieAllow = best !== null && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
    if (longer || tieAllow) best = rule;
  }
  return best;
}

/** Whether `rules` let the crawler read `path`. /robots.txt itself is always allowed. */
export function robotsAllow(rules: readonly RobotsRule[], path: string): boolean {
  if (path === '/robots.txt') return true;
  return decidingRule(rules, path)?.allow ?? true;
}

/**
 * The groups of a robots.txt: one or more consecutive user-agent lines, then their rules. Comments, unknown
 * lines (Sitemap, Crawl-delay) and rules before any user-agent are ignored; an empty Disallow allows all.
 */
function robotsGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let inAgents = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const match = /^\s*([A-Za-z][A-Za-z -]*?)\s*:\s*(.*)$/.exec(line.replace(/#.*$/, ''));
    if (!match) continue;
    const key = match[1]!.toLowerCase().replace(/[ -]/g, '');
    const value = match[2]!.trim();
    if (key === 'useragent') {
      if (current === null || !inAgents) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(agentToken(value));
      inAgents = true;
    } else if (key === 'allow' || key === 'disallow') {
      inAgents = false;
      if (current !== null && value !== '') current.rules.push({ allow: key === 'allow', pattern: normalisePattern(value) });
    }
  }
  return groups;
}

/** "CandorBot/1.0 (+https://…)" → "candorbot": the product token, as RFC 9309 matches it. */
function agentToken(value: string): string {
  return (value.split(/[\s/]/)[0] ?? '').toLowerCase();
}

function normalisePattern(value: string): string {
  const pattern = value.startsWith('/') || value.startsWith('*') ? value : `/${value}`;
  return normaliseEncoding(pattern);
}

/** Non-ASCII characters percent-encoded as UTF-8 and every escape in upper case, so "/caf%c3%a9" and "/café" compare equal. */
function normaliseEncoding(value: string): string {
  const encoded = value.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  return encoded.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/**
 * Whether `pattern` matches the start of `path` (all of it with a final `$`): `*` is any run of characters.
 * Matched by the classic wildcard walk that backtracks to the last `*` only, so a pattern full of stars costs
 * at most length × length steps, never the exponential time a regular expression could take.
 */
function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let p = 0;
  let s = 0;
  let star = -1;
  let resume = 0;
  while (s < path.length) {
    if (p < body.length && body[p] !== '*' && body[p] === path[s]) {
      p += 1;
      s += 1;
    } else if (p < body.length && body[p] === '*') {
      star = p;
      p += 1;
      resume = s;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      s = resume;
    } else {
      return false;
    }
  }
  while (p < body.length && body[p] === '*') p += 1;
  return p === body.length;
}
