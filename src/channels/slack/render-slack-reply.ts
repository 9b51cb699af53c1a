import type { Reply } from '../chat/chat-message.js';
import { citationLabel, citeDecision, type Citation } from '../chat/cited-sources.js';
import { initialReplyActions, replyActionsBlock, type ReplyButtons, type SlackActionsBlock } from './reply-actions.js';

/** Slack's documented limits for one chat.postMessage. */
export const SLACK_LIMITS = {
  sectionText: 3000,
  blocksPerMessage: 50,
  contextElements: 10,
  contextElementText: 3000,
  /** Notification/fallback text; Slack truncates `text` far above this, but shorter reads better. */
  fallbackText: 4000,
} as const;

type Text = { type: 'mrkdwn'; text: string } | { type: 'plain_text'; text: string; emoji: false };
export type SlackBlock = { type: 'section'; text: Text } | { type: 'context'; elements: Text[] } | SlackActionsBlock;

export interface SlackMessage {
  /** Fallback for notifications and clients without blocks (mrkdwn, escaped). */
  readonly text: string;
  readonly blocks: SlackBlock[];
}

/**
 * Renders a reply as one or more Slack messages within Slack's limits: a
 * caveat (when the answer has one), the answer (or refusal) as sections of at
 * most 3,000 characters, then the sources (or nearby topics) as a context
 * block, at most 50 blocks a message. Knowledge-base text is escaped, so it can
 * never mention anyone; the only links are the sources' own http(s) URLs.
 * With `buttons`, the last message ends with the reply's buttons (👍/👎,
 * "Ask an expert"), leaving room for the note a press adds under them.
 */
export function renderSlackReply(reply: Reply, buttons?: ReplyButtons): SlackMessage[] {
  const sections: string[] = [];
  const context: string[] = [];
  if (reply.kind === 'decision' && reply.decision.understoodAs)
    sections.push(`_Understood as: ${escapeMrkdwn(reply.decision.understoodAs)}_`);
  if (reply.kind === 'problem') {
    sections.push(escapeMrkdwn(reply.message));
  } else if (reply.decision.decision === 'answer') {
    const d = reply.decision;
    const { answer, citations } = citeDecision(d);
    if (d.caveat) sections.push(`:warning: ${escapeMrkdwn(d.caveat)}`);
    sections.push(escapeMrkdwn(answer));
    if (citations.length > 0) context.push(`*Sources*`, ...citations.map(slackCitation));
    context.push(`Knowledge base ${escapeMrkdwn(d.kb.name)} v${d.kb.version}`);
  } else {
    const d = reply.decision;
    const refusal = d.refusal ?? "I couldn't find an answer in the knowledge base.";
    sections.push(`*I don't know.* ${escapeMrkdwn(refusal)}`);
    const unmentioned = d.nearbyTopics.filter((t) => !refusal.includes(t));
    if (unmentioned.length > 0) context.push(`The knowledge base does cover: ${unmentioned.map((t) => `“${escapeMrkdwn(t)}”`).join('; ')}`);
  }
  const sectionBlocks: SlackBlock[] = sections
    .flatMap((s) => splitText(s, SLACK_LIMITS.sectionText))
    .map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));
  const contextBlock: SlackBlock[] =
    context.length === 0 ? [] : [{ type: 'context', elements: fitContext(context).map((text) => ({ type: 'mrkdwn', text })) }];
  const blocks = [...sectionBlocks, ...contextBlock];
  const messages: SlackMessage[] = [];
  for (let i = 0; i < blocks.length; i += SLACK_LIMITS.blocksPerMessage) {
    const chunk = blocks.slice(i, i + SLACK_LIMITS.blocksPerMessage);
    messages.push({ text: fallbackText(chunk), blocks: chunk });
  }
  const state = buttons && reply.kind === 'decision' ? initialReplyActions(reply.decision.decision, buttons.askExpert) : null;
  if (buttons && state) {
    const actions = replyActionsBlock(buttons.action, state);
    const last = messages.at(-1);
    // Two blocks: the buttons, and the note a press puts under them.
    if (last && last.blocks.length <= SLACK_LIMITS.blocksPerMessage - 2) last.blocks.push(actions);
    else messages.push({ text: state.kind === 'answer' ? 'Was this answer helpful?' : 'Ask an expert?', blocks: [actions] });
  }
  return messages;
}

/** `[n] <url|Title › Section>`, or the label as plain text when the source has no http(s) link. */
export function slackCitation(c: Citation): string {
  const label = escapeMrkdwn(citationLabel(c));
  if (c.url === null) return `[${c.n}] ${label}`;
  // A label cannot hold `|` (it ends the URL part); the URL is already percent-encoded but for `|` and `&`.
  const url = c.url.replace(/&/g, '&amp;').replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
  return `[${c.n}] <${url}|${label.replace(/\|/g, '∣')}>`;
}

/** Escapes the three characters Slack's mrkdwn treats as control (mentions, links). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Splits text into pieces of at most `max` characters, preferring paragraph,
 * then line, then word boundaries, and never cutting an `&amp;`-style entity.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'));
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) {
      cut = max;
      const amp = window.lastIndexOf('&');
      if (amp > max - 6 && !window.slice(amp).includes(';')) cut = amp;
    }
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^\s+/, '');
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}

/**
 * At most 10 elements of at most 3,000 characters: surplus elements are merged
 * into the last one, whole (a cut link would show as raw markup), and what does
 * not fit is counted instead.
 */
function fitContext(elements: string[]): string[] {
  const max = SLACK_LIMITS.contextElements;
  const fitted = elements.length <= max ? elements : [...elements.slice(0, max - 1), joinWithin(elements.slice(max - 1))];
  return fitted.map((e) => truncate(e, SLACK_LIMITS.contextElementText));
}

function joinWithin(parts: string[]): string {
  const room = SLACK_LIMITS.contextElementText - 20;
  let joined = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) {
    const next = `${joined} · ${parts[i]}`;
    if (next.length > room) return `${joined} · … and ${parts.length - i} more`;
    joined = next;
  }
  return joined;
}

function fallbackText(blocks: SlackBlock[]): string {
  const text = blocks
    .flatMap((b) => (b.type === 'section' ? [b.text.text] : b.type === 'context' ? b.elements.map((e) => e.text) : []))
    .join('\n');
  return truncate(text, SLACK_LIMITS.fallbackText);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = splitText(text, max - 1)[0] ?? '';
  return `${cut}…`;
}
