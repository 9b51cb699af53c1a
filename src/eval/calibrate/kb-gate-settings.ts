import { desc, eq } from 'drizzle-orm';

import type { Db } from '../../store/open-store.js';
import { kbGateSettings } from '../../store/schema.js';

export interface AppliedSetting {
  readonly version: number;
  readonly minAnswerability: number;
  /** Answers scoring below this carry a caveat. */
  readonly confidentAbove: number;
}

/**
 * Stores a KB's threshold as its next gate-settings version (the old ones stay
 * as history). Only this KB's asks change: the cache reloads a KB's setting
 * when its version moves, in every replica.
 */
export async function applyThreshold(
  db: Db,
  kbId: number,
  setting: {
    readonly minAnswerability: number;
    readonly confidentAbove: number;
    readonly method: string;
    readonly model: string;
    readonly note: string;
  },
): Promise<AppliedSetting> {
  return db.transaction(async (tx) => {
    const [latest] = await tx
      .select({ version: kbGateSettings.version })
      .from(kbGateSettings)
      .where(eq(kbGateSettings.kbId, kbId))
      .orderBy(desc(kbGateSettings.version))
      .limit(1)
      .for('update');
    const version = (latest?.version ?? 0) + 1;
    await tx.insert(kbGateSettings).values({ kbId, version, ...setting });
    return { version, minAnswerability: setting.minAnswerability, confidentAbove: setting.confidentAbove };
  });
}
