import { desc, eq } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { kbGateSettings } from '../store/schema.js';
import type { KbGateSetting } from './knowledge-index.js';

/** The newest calibrated gate setting of a KB, or null. */
export async function loadGateSetting(db: Db, kbId: number): Promise<KbGateSetting | null> {
  const [row] = await db
    .select({
      version: kbGateSettings.version,
      minAnswerability: kbGateSettings.minAnswerability,
      confidentAbove: kbGateSettings.confidentAbove,
      method: kbGateSettings.method,
      model: kbGateSettings.model,
    })
    .from(kbGateSettings)
    .where(eq(kbGateSettings.kbId, kbId))
    .orderBy(desc(kbGateSettings.version))
    .limit(1);
  return row ?? null;
}
