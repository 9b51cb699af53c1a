import { desc, eq } from 'drizzle-orm';

import type { Db } from '../../store/open-store.js';
import { kbGroundingSettings } from '../../store/schema.js';

export interface AppliedGroundingSetting {
  readonly version: number;
  readonly threshold: number;
}

/**
 * Stores a KB's grounding threshold as its next grounding-settings version (the old ones stay as history). Only
 * this KB's model answers change: the store announces the row (trigger, migration 0018) and every replica's index
 * cache loads it on the next ask, as it does a gate setting.
 */
export async function applyGroundingThreshold(
  db: Db,
  kbId: number,
  setting: { readonly threshold: number; readonly method: string; readonly checker: string; readonly note: string },
): Promise<AppliedGroundingSetting> {
  return db.transaction(async (tx) => {
    const [latest] = await tx
      .select({ version: kbGroundingSettings.version })
      .from(kbGroundingSettings)
      .where(eq(kbGroundingSettings.kbId, kbId))
      .orderBy(desc(kbGroundingSettings.version))
      .limit(1)
      .for('update');
    const version = (latest?.version ?? 0) + 1;
    await tx.insert(kbGroundingSettings).values({ kbId, version, ...setting });
    return { version, threshold: setting.threshold };
  });
}
