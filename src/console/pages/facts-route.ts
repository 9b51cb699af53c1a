import { storableText } from '../../core/text/storable-text.js';
import { CandorError } from '../../kernel/errors.js';
import type { ConsoleFactEdits, ConsoleReads } from '../console-reads.js';
import type { ConsoleRequest } from './console-context.js';
import { redirect } from './console-http.js';
import { factsPage, type FactsNotice } from './facts-page.js';
import { href } from './html.js';
import { retireConfirmPage } from './retire-confirm-page.js';

interface FactsDeps {
  readonly reads: ConsoleReads;
  readonly facts: ConsoleFactEdits;
  readonly defaultKb: string;
  readonly now: () => number;
}

/** `/facts`: the expert facts of a KB, and their retire / re-confirm / edit forms (by "console" or "console:NAME"). */
export async function factsRoute(deps: FactsDeps, r: ConsoleRequest): Promise<true> {
  if (!r.form) {
    const kb = r.kb ?? deps.defaultKb;
    const retire = Number(r.q('retire'));
    if (Number.isSafeInteger(retire) && retire > 0) return confirmRetire(deps, r, kb, r.q('all') === '1', retire);
    return showFacts(deps, r, kb, r.q('all') === '1', { notice: readNotice(r.url.searchParams) });
  }
  const form = r.form;
  const kb = storableText(form.get('kb') || deps.defaultKb);
  const all = form.get('all') === '1';
  const fact = Number(form.get('fact'));
  const action = form.get('action');
  if (!Number.isSafeInteger(fact) || fact < 1 || (action !== 'retire' && action !== 'confirm' && action !== 'edit'))
    return showFacts(deps, r, kb, all, { error: 'Choose a fact and what to do with it (retire, re-confirm or edit).' }, 400);
  // Who did it, as the KB versions and the fact's source record it.
  const actor = r.user === 'token' ? 'console' : `console:${r.user}`;
  const name = r.user === 'token' ? 'console' : r.user;
  try {
    const back = (notice: FactsNotice) => redirect(r.res, href('/facts', { kb, source: 'expert', all: all ? 1 : undefined, ...notice }));
    if (action === 'retire') {
      // Retiring cannot be undone: a post without the confirmation page's `confirmed=yes` gets that page.
      if (form.get('confirmed') !== 'yes') return await confirmRetire(deps, r, kb, all, fact);
      await deps.facts.retire(fact, actor);
      return back({ done: 'retired', fact });
    }
    const text = action === 'edit' ? storableText(form.get('text') ?? '') : undefined;
    const revised = await deps.facts.confirm(fact, { text, actor, name });
    return back({ done: action === 'edit' ? 'edited' : 'confirmed', fact, replacement: revised.factId });
  } catch (error) {
    if (!(error instanceof CandorError) || error.status >= 500) throw error;
    return showFacts(deps, r, kb, all, { error: error.message }, error.status);
  }
}

/** Asks before retiring a fact in use (its own page and form); a fact not in use gets the facts page, saying so (404). */
async function confirmRetire(deps: FactsDeps, r: ConsoleRequest, kb: string, all: boolean, factId: number): Promise<true> {
  const list = r.kbs.includes(kb) ? await deps.reads.expertFacts({ kb, includeRetired: false, now: new Date(deps.now()) }) : [];
  const fact = list.find((f) => f.id === factId);
  if (!fact) return showFacts(deps, r, kb, all, { error: `Fact ${factId} is not an expert fact in use in “${kb}”.` }, 404);
  return r.page(`Retire fact ${factId}?`, '/facts', retireConfirmPage(fact, kb, all, r.csrf), { kb });
}

/** The facts page of a KB (retired ones too when `all`), with what the last change did or why it was refused. */
async function showFacts(
  deps: FactsDeps,
  r: ConsoleRequest,
  kb: string,
  all: boolean,
  outcome: Parameters<typeof factsPage>[4],
  status = 200,
): Promise<true> {
  const list = r.kbs.includes(kb) ? await deps.reads.expertFacts({ kb, includeRetired: all, now: new Date(deps.now()) }) : null;
  return r.page('Expert facts', '/facts', factsPage(list, r.kbs, kb, all, outcome, r.csrf), { status, kb });
}

/** The outcome a fact change redirected with (only known words and numbers: nothing from it is echoed). */
function readNotice(params: URLSearchParams): FactsNotice | undefined {
  const done = params.get('done');
  const fact = Number(params.get('fact'));
  const replacement = Number(params.get('replacement'));
  if ((done !== 'retired' && done !== 'confirmed' && done !== 'edited') || !Number.isSafeInteger(fact) || fact < 1) return undefined;
  return { done, fact, replacement: Number.isSafeInteger(replacement) && replacement > 0 ? replacement : undefined };
}
