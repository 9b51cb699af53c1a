import type { AnswerabilityView } from '../../ask/decision.js';
import type { filterChoices } from '../console-queries.js';
import type { InteractionFilter, listInteractions } from '../interaction-list.js';
import { CONFIDENCES } from './console-filters.js';
import { formatMs, formatNumber, formatTime, href, html, truncate, type Html } from './html.js';

type Listed = Awaited<ReturnType<typeof listInteractions>>;

/** The most rows an export holds (newest first); the page says so beside the links. */
export const EXPORT_CAP = 100_000;

const SOURCE_TEXT = { live: 'live channels', imported: 'imported (benchmark replies)', all: 'all' } as const;

/**
 * The interaction list: live channels unless the source filter says otherwise, text search over questions
 * and replies, a date range, the decision/confidence/reason/channel/KB filters, newest first, a page at a time, and the
 * current filter exported as CSV or JSON lines.
 */
export function interactionsPage(
  list: Listed,
  choices: Awaited<ReturnType<typeof filterChoices>>,
  filter: InteractionFilter,
  params: Record<string, string | undefined>,
  page: number,
): Html {
  const source = filter.source ?? 'live';
  return html` ${filtersForm(choices, filter, params, source)}
    <p class="muted">
      Showing ${SOURCE_TEXT[source]}${source === 'live' ? html` (imported benchmark replies: <a href="${href('/interactions', { ...params, source: 'imported', page: undefined })}">source: imported</a>)` : ''}.
      Export this filter:
      <a href="${href('/interactions.csv', params)}" data-testid="export-csv" download>CSV</a> ·
      <a href="${href('/interactions.jsonl', params)}" data-testid="export-jsonl" download>JSON lines</a>
      (newest first, at most ${EXPORT_CAP.toLocaleString('en')} rows).
    </p>
    ${list.rows.length === 0 ? html`<p class="muted" data-testid="no-interactions">No interactions match.</p>` : interactionsTable(list.rows)}
    <nav class="pager" aria-label="Pages">
      ${page > 1 ? html`<a href="${href('/interactions', { ...params, page: page - 1 })}" rel="prev">← newer</a> ` : ''}${
        list.more ? html`<a href="${href('/interactions', { ...params, page: page + 1 })}" rel="next" data-testid="older">older →</a>` : ''
      }
    </nav>`;
}

/** Text search, the decision, confidence, reason, channel, KB and source filters, and the date range. */
function filtersForm(
  choices: Awaited<ReturnType<typeof filterChoices>>,
  filter: InteractionFilter,
  params: Record<string, string | undefined>,
  source: keyof typeof SOURCE_TEXT,
): Html {
  const select = (name: 'decision' | 'confidence' | 'reason' | 'channel' | 'kb', label: string, values: readonly string[]) =>
    html`<label
      >${label}<select name="${name}" data-testid="filter-${name}">
        <option value="">any</option>
        ${values.map((v) => html`<option value="${v}" ${filter[name] === v ? html` selected` : ''}>${v}</option>`)}
      </select></label
    >`;
  return html`<form class="filters" method="get" action="/interactions" role="search">
      <label>Search<input type="search" name="q" value="${filter.text ?? ''}" maxlength="200" placeholder="words in question or reply" data-testid="filter-q" /></label>
      ${select('decision', 'Decision', ['answer', 'abstain'])}${select('confidence', 'Confidence', CONFIDENCES)}${select('reason', 'Reason', choices.reasons)}${select(
        'channel',
        'Channel',
        choices.channels.filter((c) => c !== 'import'),
      )}${select('kb', 'Knowledge base', choices.kbs)}
      <label
        >Source<select name="source" data-testid="filter-source">
          ${(['live', 'imported', 'all'] as const).map(
            (s) => html`<option value="${s === 'live' ? '' : s}" ${s === source ? html` selected` : ''}>${SOURCE_TEXT[s]}</option>`,
          )}
        </select></label
      >
      <label>From<input type="date" name="from" value="${params.from ?? ''}" data-testid="filter-from" /></label>
      <label>To<input type="date" name="to" value="${params.to ?? ''}" data-testid="filter-to" /></label>
      <button type="submit">Filter</button>
    </form>`;
}

/** The page's interactions, newest first, each a link to its detail. */
function interactionsTable(rows: Listed['rows']): Html {
  return html`<div class="panel">
            <table data-testid="interactions">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">when</th>
                  <th scope="col">channel</th>
                  <th scope="col">KB</th>
                  <th scope="col">question</th>
                  <th scope="col">decision</th>
                  <th scope="col">reason</th>
                  <th scope="col">confidence</th>
                  <th scope="col" class="num">answerability</th>
                  <th scope="col" class="num">latency</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (r) =>
                    html`<tr>
                      <td><a href="/interactions/${r.id}">${r.id}</a></td>
                      <td class="muted">${formatTime(r.createdAt)}</td>
                      <td>${r.channel}</td>
                      <td>${r.kb ?? '–'}${r.kbVersion ? html`<span class="muted"> v${r.kbVersion}</span>` : ''}</td>
                      <td><a href="/interactions/${r.id}">${truncate(r.question, 110)}</a></td>
                      <td class="${r.decision === 'answer' ? 'answer' : 'abstain'}">${r.decision ?? ''}</td>
                      <td class="mono">${r.reason ?? ''}</td>
                      <td data-testid="confidence">${r.confidence ?? ''}</td>
                      <td class="num">${formatNumber((r.answerability as AnswerabilityView | null)?.score)}</td>
                      <td class="num">${formatMs(r.latencyMs)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
}
