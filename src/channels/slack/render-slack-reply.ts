import type { Reply } from '../chat/chat-message.js';

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
export type SlackBlock = { type: 'section'; text: Text } | { type: 'context'; elements: Text[] };

export interface SlackMessage {
  /** Fallback for notifications and clients without blocks (mrkdwn, escaped). */
  readonly text: string;
  readonly blocks: SlackBlock[];
}

/**
 * Renders a reply as one or more Slack messages within Slack's limits: the
 * answer (or refusal) as sections of at most 3,000 characters, then the
 * sources (or nearby topics) as a context block, at most 50 blocks a message.
 * Knowledge-base text is escaped, so it can never mention or link anyone.
 */
export function renderSlackReply(reply: Reply): SlackMessage[] {
  const sections: string[] = [];
  const context: string[] = [];
  if (reply.kind === 'problem') {
    sections.push(escapeMrkdwn(reply.message));
  } else if (reply.decision.decision === 'answer') {
    const d = reply.decision;
    sections.push(escapeMrkdwn(d.answer ?? ''));
    const sources = d.evidence.map((e, i) => `[${i + 1}] ${escapeMrkdwn(e.source)}`);
    if (sources.length > 0) context.push(`*Sources*`, ...sources);
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
  return messages;
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

/** At most 10 elements of at most 3,000 characters; surplus elements are merged into the last one. */
function fitContext(elements: string[]): string[] {
  const max = SLACK_LIMITS.contextElements;
  const fitted = elements.length <= max ? elements : [...elements.slice(0, max - 1), elements.slice(max - 1).join(' · ')];
  return fitted.map((e) => truncate(e, SLACK_LIMITS.contextElementText));
}

function fallbackText(blocks: SlackBlock[]): string {
  const text = blocks.flatMap((b) => (b.type === 'section' ? [b.text.text] : b.elements.map((e) => e.text))).join('\n');
  return truncate(text, SLACK_LIMITS.fallbackText);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = splitText(text, max - 1)[0] ?? '';
  return `${cut}…`;
}
