/**
 * A page that shows Slack messages the way Slack's desktop client lays them out — a thread with the asker's
 * question and the bot's reply — drawn from the Block Kit blocks Candor posts (renderSlackReply), for the
 * docs' screenshot of a reply. Only what those blocks use is drawn: sections and context elements in mrkdwn
 * (bold, italic, links, the emoji codes Candor writes) and buttons.
 */
import type { SlackBlock, SlackMessage } from '../src/channels/slack/render-slack-reply.js';

export interface SlackThread {
  /** The channel shown in the thread's header, e.g. "ask-hr". */
  readonly channel: string;
  readonly asker: string;
  readonly question: string;
  /** What the bot posted: each message's blocks, as sent to chat.postMessage. */
  readonly replies: readonly SlackMessage[];
}

const EMOJI: Readonly<Record<string, string>> = { warning: '⚠️', hourglass_flowing_sand: '⏳', white_check_mark: '✅', x: '❌' };

/**
 * Slack draws emoji as images of its own; a machine without an emoji font would draw the buttons' 👍 and 👎 as
 * empty boxes, so they are drawn as a thumb (Material Design's thumb_up path, Apache 2.0) in emoji yellow.
 */
const THUMB =
  'M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z';
const thumb = (down: boolean) =>
  `<svg class="emoji" viewBox="0 0 24 24" width="15" height="15"${down ? ' transform="rotate(180)"' : ''}><path fill="#f4b400" d="${THUMB}"/></svg>`;

/** A button's text with its thumbs drawn (the text is escaped first). */
function buttonText(text: string): string {
  return escapeHtml(text).replace(/👍/g, thumb(false)).replace(/👎/g, thumb(true));
}

export function slackThreadHtml(thread: SlackThread): string {
  const asked = message({ initial: thread.asker[0] ?? '?', colour: '#4a154b', name: thread.asker, app: false, time: '10:41 AM' }, [
    `<div class="section">${escapeHtml(thread.question)}</div>`,
  ]);
  const replies = thread.replies.map((reply) =>
    message({ initial: 'C', colour: '#2c2d30', name: 'Candor', app: true, time: '10:41 AM' }, reply.blocks.map(block)),
  );
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>
<div class="thread" data-testid="thread"><header><b>Thread</b> <span>#${escapeHtml(thread.channel)}</span></header>
${asked}<div class="replies">1 reply</div>${replies.join('\n')}</div></body></html>`;
}

function message(who: { initial: string; colour: string; name: string; app: boolean; time: string }, body: string[]): string {
  return `<div class="message"><div class="avatar" style="background:${who.colour}">${escapeHtml(who.initial)}</div>
<div class="content"><div class="meta"><b>${escapeHtml(who.name)}</b>${who.app ? ' <span class="app">APP</span>' : ''} <span class="time">${who.time}</span></div>
${body.join('\n')}</div></div>`;
}

function block(b: SlackBlock): string {
  if (b.type === 'section') return `<div class="section">${mrkdwn(b.text.type === 'mrkdwn' ? b.text.text : escapeHtml(b.text.text))}</div>`;
  if (b.type === 'context')
    return `<div class="context">${b.elements.map((e) => `<span>${e.type === 'mrkdwn' ? mrkdwn(e.text) : escapeHtml(e.text)}</span>`).join('')}</div>`;
  return `<div class="actions">${b.elements.map((e) => `<span class="button ${e.style ?? ''}">${buttonText(e.text.text)}</span>`).join('')}</div>`;
}

/**
 * Slack mrkdwn as Candor writes it. The text already has `&`, `<` and `>` escaped (escapeMrkdwn), so it is safe
 * HTML but for links, `<url|label>`, which are the only raw angle brackets left.
 */
export function mrkdwn(text: string): string {
  return text
    .split(/(<[^<>|]+\|[^<>]+>)/)
    .map((part) => {
      const link = /^<([^<>|]+)\|([^<>]+)>$/.exec(part);
      if (link) return `<a href="${(link[1] ?? '').replace(/"/g, '%22')}">${inline(link[2] ?? '')}</a>`;
      return inline(part);
    })
    .join('')
    .replace(/\n/g, '<br>');
}

function inline(text: string): string {
  return text
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,:;!?])/g, '$1<b>$2</b>')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,:;!?])/g, '$1<i>$2</i>')
    .replace(/:([a-z0-9_+-]+):/g, (code, name: string) => EMOJI[name] ?? code);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `
body { margin: 0; background: #fff; font: 15px/1.47 Lato, "Helvetica Neue", Helvetica, Arial, sans-serif; color: #1d1c1d; }
.thread { width: 640px; padding: 0 0 12px; border: 1px solid #ddd; }
header { padding: 12px 20px; border-bottom: 1px solid #ddd; font-size: 17px; }
header span { color: #616061; font-size: 13px; margin-left: 6px; }
.message { display: flex; gap: 8px; padding: 8px 20px; }
.avatar { flex: none; width: 36px; height: 36px; border-radius: 6px; color: #fff; font-weight: 700; font-size: 18px;
  display: flex; align-items: center; justify-content: center; }
.meta b { font-weight: 900; }
.app { background: #e8e8e8; color: #616061; font-size: 10px; font-weight: 700; padding: 1px 3px; border-radius: 2px; vertical-align: 2px; }
.time { color: #616061; font-size: 12px; margin-left: 4px; }
.section { margin: 2px 0 6px; white-space: normal; }
.context { color: #616061; font-size: 12px; margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 4px 10px; }
a { color: #1264a3; text-decoration: none; }
.actions { display: flex; gap: 8px; margin: 6px 0 2px; }
.button { border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px; font-size: 13px; font-weight: 700; }
.emoji { vertical-align: -2px; margin-right: 2px; }
.button.primary { background: #007a5a; border-color: #007a5a; color: #fff; }
.replies { margin: 2px 20px 6px 64px; padding-top: 8px; border-top: 1px solid #eee; color: #616061; font-size: 13px; }
`;
