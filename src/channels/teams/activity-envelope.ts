import { z } from 'zod';

const account = z.looseObject({ id: z.string().min(1).max(1024), aadObjectId: z.string().max(1024).optional() });
const timestamp = z.string().max(64).optional();

/**
 * The parts of a Bot Framework activity that the adapter and the bot read
 * before they check its type: an activity without them, or with them of the
 * wrong type, is answered 400 before any authentication work (botbuilder
 * itself throws on them, which became a 500). Everything else passes through.
 */
const ActivityEnvelope = z.looseObject({
  type: z.string().min(1).max(64),
  id: z.string().max(1024).optional(),
  serviceUrl: z
    .string()
    .max(2048)
    .regex(/^https?:\/\/\S+$/, 'expected an http(s) URL'),
  channelId: z.string().min(1).max(64),
  from: account,
  recipient: account,
  conversation: z.looseObject({
    id: z.string().min(1).max(1024),
    conversationType: z.string().max(64).optional(),
    tenantId: z.string().max(1024).optional(),
  }),
  text: z.string().max(1_000_000).optional(),
  replyToId: z.string().max(1024).optional(),
  entities: z.array(z.looseObject({ type: z.string().max(64) })).optional(),
  membersAdded: z.array(account).optional(),
  reactionsAdded: z.array(z.looseObject({ type: z.string().max(64).optional() })).optional(),
  reactionsRemoved: z.array(z.looseObject({ type: z.string().max(64).optional() })).optional(),
  timestamp,
  localTimestamp: timestamp,
  expiration: timestamp,
});

export type ActivityCheck = { ok: true; activity: Record<string, unknown> } | { ok: false; problem: string };

/** Checks an activity's envelope; the timestamps become Dates, as botbuilder's own validation does. */
export function checkActivity(body: unknown): ActivityCheck {
  const parsed = ActivityEnvelope.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue?.path.join('.') || 'activity'}: ${issue?.message ?? 'invalid'}` };
  }
  const activity: Record<string, unknown> = { ...parsed.data };
  for (const field of ['timestamp', 'localTimestamp', 'expiration'] as const) {
    const raw = parsed.data[field];
    if (raw === undefined) continue;
    activity[`raw${field[0]!.toUpperCase()}${field.slice(1)}`] = raw;
    activity[field] = new Date(raw);
  }
  return { ok: true, activity };
}
