import { FAKE_BOT_USER, FAKE_TEAM } from './fake-platforms.js';
import type { FuzzContext } from './fuzz-request.js';
import { junkString, junkValue, nastyString, repeatedMarkup, uriEncode } from './junk.js';
import type { Prng } from './prng.js';

type Json = Record<string, unknown>;

const QUESTIONS = ['What is the annual leave policy?', 'When are taxis reimbursed?', 'Who won the 1998 World Cup?', 'status', 'help'];

/** Sets, deletes or replaces one field of `object` with junk: the wrong type, null, absent, huge. */
function mutate(rng: Prng, object: Json, fields: readonly string[]): Json {
  const out = { ...object };
  for (let n = rng.between(1, 3); n > 0; n -= 1) {
    const field = rng.pick(fields);
    if (rng.chance(0.3)) delete out[field];
    else out[field] = rng.chance(0.5) ? junkValue(rng, 2) : junkString(rng, 5_000);
  }
  return out;
}

function envelope(ctx: FuzzContext, event: unknown): Json {
  const id = ctx.unique();
  return {
    token: 'legacy-verification-token',
    team_id: FAKE_TEAM,
    api_app_id: 'A0FUZZ',
    event,
    type: 'event_callback',
    event_id: `EvFUZZ${id}`,
    event_time: ctx.nowSeconds(),
    authorizations: [{ enterprise_id: null, team_id: FAKE_TEAM, user_id: FAKE_BOT_USER, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}

function mention(ctx: FuzzContext, text: unknown): Json {
  const id = ctx.unique();
  const ts = `${1_700_000_000 + id}.${String(id % 1_000_000).padStart(6, '0')}`;
  const direct = ctx.rng.chance(0.4);
  return {
    type: direct ? 'message' : 'app_mention',
    user: 'U0ASKER',
    text,
    ts,
    channel: direct ? 'D0FUZZ' : 'C0FUZZ',
    event_ts: ts,
    team: FAKE_TEAM,
    ...(direct ? { channel_type: 'im' } : {}),
  };
}

const EVENT_FIELDS = [
  'type',
  'user',
  'text',
  'ts',
  'channel',
  'event_ts',
  'team',
  'channel_type',
  'thread_ts',
  'subtype',
  'bot_id',
  'edited',
  'blocks',
  'files',
];
const ENVELOPE_FIELDS = [
  'event',
  'type',
  'event_id',
  'team_id',
  'api_app_id',
  'authorizations',
  'event_time',
  'token',
  'enterprise_id',
  'is_ext_shared_channel',
];
const OTHER_EVENTS = [
  'reaction_added',
  'reaction_removed',
  'app_home_opened',
  'member_joined_channel',
  'app_uninstalled',
  'tokens_revoked',
  'message_changed',
  'file_shared',
  'team_join',
  'zzz_unknown',
];

/** Events API payloads, from a question Candor should answer to ones broken at every level. */
export const slackPayloads = {
  question(ctx: FuzzContext, text?: string): Json {
    const { rng } = ctx;
    const body = text ?? `<@${FAKE_BOT_USER}> ${rng.pick(QUESTIONS)}${rng.chance(0.3) ? ` ${nastyString(rng)}` : ''}`;
    return envelope(ctx, mention(ctx, body));
  },

  brokenEnvelope(ctx: FuzzContext): Json {
    const { rng } = ctx;
    return rng.pick<() => Json>([
      () => ({ type: 'event_callback' }),
      () => ({ type: 'event_callback', event: rng.pick([null, [], 'x', 5, {}, { type: 123 }, { type: null }]) }),
      () => ({ type: rng.pick([null, 5, [], {}, '', 'EVENT_CALLBACK', 'event_callback ']), event: mention(ctx, 'hi') }),
      () => mutate(rng, envelope(ctx, mention(ctx, 'What is the leave policy?')), ENVELOPE_FIELDS),
    ])();
  },

  brokenMessage(ctx: FuzzContext): Json {
    const { rng } = ctx;
    const text = rng.pick<() => unknown>([
      () => 5,
      () => null,
      () => ['a'],
      () => ({ text: 'x' }),
      () => true,
      () => '',
      () => repeatedMarkup(rng, 8_000),
      () => junkString(rng, 20_000),
    ])();
    const event = mutate(rng, mention(ctx, text), EVENT_FIELDS);
    return envelope(ctx, event);
  },

  otherEvent(ctx: FuzzContext): Json {
    const { rng } = ctx;
    const base: Json = {
      type: rng.pick(OTHER_EVENTS),
      user: 'U0REVIEWER',
      reaction: rng.pick(['thumbsup', 'thumbsdown', 'x', '', 'white_check_mark']),
      item: { type: 'message', channel: 'C0REVIEW', ts: '1700000000.000100' },
      item_user: FAKE_BOT_USER,
      event_ts: '1700000000.000200',
      channel: 'C0FUZZ',
      tab: 'home',
    };
    return envelope(ctx, mutate(rng, base, ['type', 'user', 'reaction', 'item', 'item_user', 'event_ts', 'channel', 'tab']));
  },

  /** Block actions (review buttons), shortcuts and views, with fields missing or of the wrong type. */
  interactive(ctx: FuzzContext): Json {
    const { rng } = ctx;
    const action = {
      type: 'button',
      action_id: rng.pick(['candor_label:abstention:correct', 'candor_label:factuality:wrong', 'candor_label:x:y', 'other', '']),
      block_id: 'b',
      value: rng.pick<unknown>(['1', '0', '-1', 'abc', '1e400', '99999999999999999999', '', null, 5]),
      action_ts: '1700000000.000300',
    };
    const base: Json = {
      type: rng.pick([
        'block_actions',
        'block_actions',
        'view_submission',
        'view_closed',
        'shortcut',
        'message_action',
        'interactive_message',
        'block_suggestion',
      ]),
      user: { id: 'U0REVIEWER', team_id: FAKE_TEAM },
      api_app_id: 'A0FUZZ',
      token: 'legacy',
      team: { id: FAKE_TEAM },
      channel: { id: 'C0REVIEW' },
      message: { ts: '1700000000.000100', text: 'card' },
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0REVIEW' },
      trigger_id: '1.2.3',
      response_url: 'https://hooks.slack.invalid/actions/1',
      actions: [rng.chance(0.7) ? action : mutate(rng, action, ['type', 'action_id', 'value', 'block_id'])],
      view: { id: 'V0', callback_id: 'cb', state: { values: {} } },
      callback_id: 'cb',
    };
    return mutate(rng, base, ['type', 'user', 'team', 'channel', 'message', 'actions', 'container', 'view', 'callback_id', 'api_app_id']);
  },

  /** A slash command form body, with junk text, missing fields, repeated keys and bracketed keys. */
  command(ctx: FuzzContext): string {
    const { rng } = ctx;
    const fields: [string, string][] = [
      ['token', 'legacy'],
      ['team_id', FAKE_TEAM],
      ['team_domain', 'fuzz'],
      ['channel_id', 'C0FUZZ'],
      ['channel_name', 'general'],
      ['user_id', 'U0ASKER'],
      ['user_name', 'asker'],
      ['command', rng.pick(['/candor', '/candor', '/other', '', 'candor', nastyString(rng)])],
      ['text', rng.pick(['status', 'help', '', '   ', 'STATUS', junkString(rng, 5_000), repeatedMarkup(rng, 8_000)])],
      ['api_app_id', 'A0FUZZ'],
      ['response_url', rng.pick(['https://hooks.slack.invalid/commands/1', '', 'not a url'])],
      ['trigger_id', '1.2.3'],
    ];
    const kept = fields.filter(() => rng.chance(0.92));
    if (rng.chance(0.15)) kept.push(['text', 'again']);
    if (rng.chance(0.1)) kept.push(['text[]', 'x'], ['text[a]', 'y']);
    if (rng.chance(0.05)) kept.push(['command[]', '/candor']);
    return kept.map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&');
  },
};
