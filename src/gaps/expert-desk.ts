import type { ExpertsEntry } from '../config/experts-setting.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { CandorError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { Db } from '../store/open-store.js';
import { actionKey, actionValue, readActionValue } from './action-token.js';
import { askExpert } from './ask-expert.js';
import { answerGap, dismissGap } from './close-gap.js';
import { isExpertOf, shownGap, type DeskContext } from './expert-desk-context.js';
import { deliverWaiting } from './expert-posts.js';
import type { ExpertDesk, Person } from './expert-types.js';
import { readGap } from './gap-reads.js';

export interface ExpertDeskDeps {
  readonly db: Db;
  readonly indexes: KnowledgeIndexCache;
  readonly experts: readonly ExpertsEntry[];
  /** The deployment's secret (CANDOR_USER_HASH_SALT): signs button values. */
  readonly secret: string;
  readonly log: Log;
  readonly now?: () => Date;
}

/**
 * The experts desk, over the store: every step is a row (a request, a post
 * ref, a fact, a notice sent), so a restart loses nothing and repeats nothing;
 * channels only render and transport. Both Slack and Teams call it, and the
 * CLI for experts without chat. Asking is in ask-expert.ts, answering and
 * dismissing in close-gap.ts, posting and delivering in expert-posts.ts,
 * telling askers in asker-notices.ts.
 */
export function createExpertDesk(deps: ExpertDeskDeps): ExpertDesk {
  const ctx: DeskContext = {
    db: deps.db,
    indexes: deps.indexes,
    experts: deps.experts,
    log: deps.log,
    now: deps.now ?? (() => new Date()),
    key: actionKey(deps.secret),
    surfaces: new Map(),
    entryOf: (kb) => deps.experts.find((e) => e.kb === kb),
  };
  return {
    entry: ctx.entryOf,
    attach(surface) {
      ctx.surfaces.set(surface.platform, surface);
    },
    interactionAction: (id) => actionValue(ctx.key, 'interaction', id),
    readInteractionAction: (value) => readActionValue(ctx.key, 'interaction', value),
    readGapAction: (value) => readActionValue(ctx.key, 'gap', value),
    card: async (gapId) => (await shownGap(ctx, gapId))?.card ?? null,
    askExpert: (request) => askExpert(ctx, request),
    answer: (request) => answerGap(ctx, request),
    dismiss: (request) => dismissGap(ctx, request),
    async isExpert(gapId, person) {
      const gap = await readGap(ctx.db, gapId);
      const entry = gap && ctx.entryOf(gap.kb);
      return entry ? isExpertOf(ctx, entry, person) : false;
    },
    deliver: () => deliverWaiting(ctx),
  };
}

/** A person's CLI identity as an expert ("cli:NAME"); a name that cannot be one is refused. */
export function cliExpert(name: string | undefined): Person {
  const trimmed = name?.trim() ?? '';
  if (!/^\S{1,64}$/.test(trimmed))
    throw new CandorError('option_invalid', '--as NAME: your name as CANDOR_EXPERTS lists it ("cli:NAME"), one word', { status: 400 });
  return { platform: 'cli', user: trimmed, name: trimmed };
}
