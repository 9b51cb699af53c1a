import { desc, eq, sql } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { kbGateSettings, kbGroundingSettings, knowledgeBases } from '../store/schema.js';
import type { KbGateSetting, KbGroundingSetting, KnowledgeIndex } from './knowledge-index.js';

/** The newest version of each of a KB's settings (null: none), as a KB read selects them beside its version. */
export const settingVersions = {
  gateVersion: sql<
    number | null
  >`(select max(${kbGateSettings.version}) from ${kbGateSettings} where ${kbGateSettings.kbId} = ${knowledgeBases.id})`,
  groundingVersion: sql<
    number | null
  >`(select max(${kbGroundingSettings.version}) from ${kbGroundingSettings} where ${kbGroundingSettings.kbId} = ${knowledgeBases.id})`,
};

/** Loads the settings whose newest version moved on since the index last read them (a change notice, another replica's --apply). */
export async function refreshSettings(
  db: Db,
  index: KnowledgeIndex,
  versions: { readonly gateVersion: number | null; readonly groundingVersion: number | null },
): Promise<void> {
  const gate = versions.gateVersion === null ? null : Number(versions.gateVersion);
  if ((index.gateSetting?.version ?? null) !== gate) index.gateSetting = await loadGateSetting(db, index.kbId);
  const grounding = versions.groundingVersion === null ? null : Number(versions.groundingVersion);
  if ((index.groundingSetting?.version ?? null) !== grounding) index.groundingSetting = await loadGroundingSetting(db, index.kbId);
}

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

/** The newest calibrated grounding threshold of a KB, or null. */
export async function loadGroundingSetting(db: Db, kbId: number): Promise<KbGroundingSetting | null> {
  const [row] = await db
    .select({
      version: kbGroundingSettings.version,
      threshold: kbGroundingSettings.threshold,
      method: kbGroundingSettings.method,
      checker: kbGroundingSettings.checker,
    })
    .from(kbGroundingSettings)
    .where(eq(kbGroundingSettings.kbId, kbId))
    .orderBy(desc(kbGroundingSettings.version))
    .limit(1);
  return row ?? null;
}
