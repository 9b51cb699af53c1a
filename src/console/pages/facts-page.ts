import type { ExpertFactView } from '../../gaps/expert-facts-list.js';
import { csrfInput } from './csrf.js';
import { formatTime, href, html, type Html } from './html.js';

/** What a fact change redirected with, shown once above the list. */
export interface FactsNotice {
  readonly done: 'retired' | 'confirmed' | 'edited';
  readonly fact: number;
  /** The fact that replaced it (confirmed, edited). */
  readonly replacement?: number | undefined;
}

const STATUS_TEXT: Readonly<Record<ExpertFactView['status'], string>> = {
  active: 'in use',
  due: 're-confirmation due',
  retired: 'retired',
};

/**
 * The expert facts of a KB: what experts answered, who and when, and forms to
 * re-confirm or edit each (plain form posts, checked as the ask box is) and to retire it
 * (after a confirmation page: retireConfirmPage).
 */
export function factsPage(
  facts: readonly ExpertFactView[] | null,
  kbs: readonly string[],
  kb: string,
  all: boolean,
  outcome: { notice?: FactsNotice | undefined; error?: string | undefined } = {},
  csrf: string | null = null,
): Html {
  const form = html`<form class="filters" method="get" action="/facts">
    <input type="hidden" name="source" value="expert" />
    <label
      >Knowledge base<select name="kb">
        ${kbs.map((k) => html`<option value="${k}" ${k === kb ? html` selected` : ''}>${k}</option>`)}
      </select></label
    >
    <label class="check"><input type="checkbox" name="all" value="1" ${all ? html` checked` : ''} /> retired ones too</label>
    <button type="submit">Show</button>
  </form>`;
  const notice = outcome.notice;
  const message = notice
    ? html`<p class="notice" role="status" data-testid="facts-notice">
        ${
          notice.done === 'retired'
            ? `Fact ${notice.fact} is retired: the bot no longer answers with it.`
            : `Fact ${notice.fact} is ${notice.done === 'edited' ? 'edited' : 're-confirmed'}: it is now fact ${notice.replacement ?? '?'}.`
        }
      </p>`
    : '';
  const error = outcome.error ? html`<p class="error" role="alert" data-testid="facts-error">${outcome.error}</p>` : '';
  if (!facts)
    return html`${form}${error}
      <p class="muted">There is no knowledge base named “${kb}” yet.</p>`;
  return html`${form}${message}${error}
    <p class="muted" data-testid="facts-summary">
      ${facts.length} expert fact${facts.length === 1 ? '' : 's'} in “${kb}”. Experts add them by answering
      <a href="${href('/gaps', { kb })}">KB gaps</a>; each change here is a new KB version, and answers already given keep
      naming the text they cited.
    </p>
    ${facts.map((f) => factSection(f, kb, all, csrf))}`;
}

function factSection(f: ExpertFactView, kb: string, all: boolean, csrf: string | null): Html {
  const hidden = html`${csrfInput(csrf)}<input type="hidden" name="fact" value="${f.id}" /><input type="hidden" name="kb" value="${kb}" />${
    all ? html`<input type="hidden" name="all" value="1" />` : ''
  }`;
  return html`<section class="gap" id="fact-${f.id}" data-testid="expert-fact">
    <h3>
      <span class="mono" data-testid="fact-id">fact ${f.id}</span>
      <span class="badge fact-${f.status}" data-testid="fact-status">${STATUS_TEXT[f.status]}</span>
    </h3>
    <p class="reply" data-testid="fact-text">${f.text}</p>
    <p class="muted">
      ${f.question ? html`Answers “${f.question}” · ` : ''}by ${f.author ?? 'an expert'} <span class="mono">(${f.source})</span>
      ${f.confirmedAt ? html` · confirmed ${formatTime(f.confirmedAt)}` : ''}
      ${f.dueAt && f.status !== 'retired' ? html` · ${f.status === 'due' ? 'was due' : 'due'} for re-confirmation ${formatTime(f.dueAt)}` : ''} · added in
      version ${f.addedInVersion}${f.retiredInVersion !== null ? html`, retired in version ${f.retiredInVersion}` : ''}
    </p>
    ${
      f.status === 'retired'
        ? ''
        : html`<div class="fact-actions">
          <form method="post" action="/facts">
            ${hidden}<input type="hidden" name="action" value="confirm" />
            <button type="submit" data-testid="fact-confirm">Re-confirm</button>
          </form>
          <form method="get" action="/facts">
            <input type="hidden" name="kb" value="${kb}" /><input type="hidden" name="retire" value="${f.id}" />${
              all ? html`<input type="hidden" name="all" value="1" />` : ''
            }
            <button type="submit" class="danger" data-testid="fact-retire">Retire…</button>
          </form>
          <details>
            <summary>Edit</summary>
            <form method="post" action="/facts">
              ${hidden}<input type="hidden" name="action" value="edit" />
              <label>New text<textarea name="text" required maxlength="4000" data-testid="fact-edit-text">${f.text}</textarea></label>
              <button type="submit" data-testid="fact-edit">Save as a new version</button>
            </form>
          </details>
        </div>`
    }
  </section>`;
}
