import type { NearMiss } from '../../core/answer/near-misses.js';
import { formatNumber, formatPercent, html, type Html } from './html.js';

/**
 * A refusal's best retrieved facts — what nearly answered — with their scores and why each did not suffice:
 * what a KB owner reads to tell a missing fact from a badly worded one.
 */
export function nearMissesView(considered: readonly NearMiss[] | null): Html {
  const heading = html`<h2 id="nearly-answered">Retrieved facts that nearly answered</h2>`;
  if (considered === null)
    return html`${heading}
      <p class="muted" data-testid="near-misses-none">Not kept for this refusal (it was recorded before refusals kept what they retrieved, or the gate could not run).</p>`;
  if (considered.length === 0)
    return html`${heading}
      <p class="muted" data-testid="near-misses-none">Retrieval found nothing in the knowledge base for this question.</p>`;
  return html`${heading}
    <p class="muted">
      ${considered.length === 1 ? 'The one fact retrieval found.' : `The ${considered.length} best facts retrieval found, best first.`} The score is the L2R score (similarity × confidence);
      “covers” is the IDF-weighted share of the question’s words the fact holds. None was enough: the layers above say why
      the question was refused as a whole, and each row why the fact alone does not answer.
    </p>
    <div class="panel">
      <table data-testid="near-misses">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">fact</th>
            <th scope="col">text</th>
            <th scope="col" class="num">score</th>
            <th scope="col" class="num">similarity</th>
            <th scope="col" class="num">confidence</th>
            <th scope="col" class="num">covers</th>
            <th scope="col">why it did not suffice</th>
          </tr>
        </thead>
        <tbody>
          ${considered.map(
            (f, i) =>
              html`<tr data-testid="near-miss">
                <td class="num">${i + 1}</td>
                <td class="mono">${f.factId}</td>
                <td>${f.text}<div class="muted">${f.source}</div></td>
                <td class="num" data-testid="near-miss-score">${formatNumber(f.score)}</td>
                <td class="num">${formatNumber(f.similarity)}${f.cosine === undefined ? '' : html`<div class="muted">cos ${formatNumber(f.cosine)}</div>`}</td>
                <td class="num">${formatNumber(f.confidence)}</td>
                <td class="num">${formatPercent(f.covers)}</td>
                <td data-testid="near-miss-why">
                  ${
                    f.why.length === 0
                      ? html`<span class="muted">holds the question’s words; the refusal came from the evidence as a whole</span>`
                      : html`<ul class="why">
                          ${f.why.map((w) => html`<li>${w}</li>`)}
                        </ul>`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
