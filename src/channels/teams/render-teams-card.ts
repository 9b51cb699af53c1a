import type { Decision } from '../../ask/decision.js';
import type { Reply } from '../chat/chat-message.js';
import { citationLabel, citeDecision, type Citation } from '../chat/cited-sources.js';
import type { Block } from './card-block.js';
import { replyActions, type ReplyCardActions } from './reply-card-actions.js';

export type { Block } from './card-block.js';

/** Teams rejects messages above ~28 KB; answers are shortened well before that. */
export const TEAMS_MAX_TEXT = 12_000;
/** The sources' share of a card: with the answer at most 12,000 characters, the card stays far below Teams' limit. */
export const TEAMS_MAX_SOURCES_TEXT = 6000;

export interface AdaptiveCard {
  readonly type: 'AdaptiveCard';
  readonly $schema: string;
  readonly version: '1.4';
  readonly body: ReadonlyArray<Block>;
  /** The card's buttons, below its body. */
  readonly actions?: ReadonlyArray<Block>;
}

/**
 * The Adaptive Card for a decision: a caveat in the attention colour when the
 * answer has one, the answer, and its numbered sources as Markdown links; or
 * "I don't know." with the reason and nearby topics. With `actions`, the
 * asker's buttons: 👍/👎 on an answer, "Ask an expert" on a refusal when the
 * KB has experts. Pure JSON, no botbuilder.
 */
export function renderTeamsCard(reply: Extract<Reply, { kind: 'decision' }>, actions?: ReplyCardActions): AdaptiveCard {
  return replyCard(replyContent(reply.decision), reply.decision.decision, actions);
}

/** A reply card from its content (what renderTeamsCard shows above the buttons) and the buttons. */
export function replyCard(content: readonly Block[], decision: 'answer' | 'abstain', actions?: ReplyCardActions): AdaptiveCard {
  if (!actions) return adaptiveCard([...content]);
  const { body, actions: buttons } = replyActions(decision, actions);
  return { ...adaptiveCard([...content, ...body]), ...(buttons.length > 0 ? { actions: buttons } : {}) };
}

export function adaptiveCard(body: Block[]): AdaptiveCard {
  return { type: 'AdaptiveCard', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', version: '1.4', body };
}

/** What a reply card shows of its decision (no buttons). */
export function replyContent(d: Decision): Block[] {
  const body: Block[] = [];
  if (d.understoodAs) body.push({ ...text(`Understood as: ${shorten(d.understoodAs)}`), size: 'Small', isSubtle: true });
  if (d.decision === 'answer') {
    const { answer, citations } = citeDecision(d);
    if (d.caveat) body.push({ ...text(`⚠️ ${shorten(d.caveat)}`), color: 'Attention' });
    // One line is a soft break in a TextBlock's Markdown: each line of the answer gets its own paragraph.
    body.push(text(shorten(answer.split(/\n+/).join('\n\n'))));
    if (citations.length > 0) {
      body.push({ ...text('Sources'), weight: 'Bolder', size: 'Small', separator: true, spacing: 'Medium' });
      body.push(...sourceLines(citations).map((line) => ({ ...text(line), size: 'Small', isSubtle: true, spacing: 'None' })));
    }
    body.push({ ...text(`Knowledge base ${d.kb.name} v${d.kb.version}`), size: 'Small', isSubtle: true });
  } else {
    const refusal = d.refusal ?? "I couldn't find an answer in the knowledge base.";
    body.push({ ...text("I don't know."), weight: 'Bolder' });
    body.push(text(shorten(refusal)));
    const unmentioned = d.nearbyTopics.filter((t) => !refusal.includes(t));
    if (unmentioned.length > 0) {
      body.push({
        ...text(`The knowledge base does cover: ${unmentioned.map((t) => `“${t}”`).join('; ')}`),
        size: 'Small',
        isSubtle: true,
      });
    }
  }
  return body;
}

/**
 * `n. [Title › Section](url)` (a TextBlock renders this Markdown as a numbered
 * link), or the label as text when the source has no http(s) link.
 */
export function teamsCitation(c: Citation): string {
  // Brackets would end the link text, parentheses and spaces the destination.
  const label = citationLabel(c).replace(/\[/g, '(').replace(/\]/g, ')');
  if (c.url === null) return `${c.n}. ${label}`;
  const url = c.url.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20');
  return `${c.n}. [${label}](${url})`;
}

/** One line per source, within the sources' share of the card; the rest are counted. */
function sourceLines(citations: readonly Citation[]): string[] {
  const lines: string[] = [];
  let used = 0;
  for (const [i, c] of citations.entries()) {
    const line = teamsCitation(c);
    used += line.length;
    if (used > TEAMS_MAX_SOURCES_TEXT) return [...lines, `… and ${citations.length - i} more`];
    lines.push(line);
  }
  return lines;
}

function text(value: string): Block {
  return { type: 'TextBlock', text: value, wrap: true };
}

function shorten(value: string): string {
  return value.length <= TEAMS_MAX_TEXT ? value : `${value.slice(0, TEAMS_MAX_TEXT - 40).trimEnd()}… (shortened: too long for Teams)`;
}
