import { mappedKbs, type ChannelEntry } from '../../config/channels-setting.js';
import { CandorError } from '../../kernel/errors.js';

/** A knowledge base's size, or null when it does not exist. */
export type KbSize = (name: string) => Promise<{ readonly version: number; readonly facts: number } | null>;

/**
 * Start-up check of CANDOR_CHANNELS: every KB it names must exist (a typo would
 * otherwise answer "no knowledge base" in that channel for good). The default
 * KB may be missing, as before: the bot then says so when asked.
 */
export async function checkChannelKbs(entries: readonly ChannelEntry[], defaultKb: string, size: KbSize): Promise<void> {
  const named = mappedKbs(entries, defaultKb).filter((kb) => kb !== defaultKb);
  const missing: string[] = [];
  for (const kb of named) if ((await size(kb)) === null) missing.push(kb);
  if (missing.length === 0) return;
  throw new CandorError(
    'config_invalid',
    `CANDOR_CHANNELS names knowledge bases that do not exist: ${missing.join(', ')}. ` +
      `Ingest them first (candor ingest PATH --kb ${missing[0]}) or fix the names.`,
  );
}

export interface ChannelMapRow {
  readonly platform: 'slack' | 'teams' | 'default';
  readonly where: string;
  readonly kbs: readonly { readonly name: string; readonly version: number | null; readonly facts: number | null }[];
  readonly mentionOnly: boolean;
  readonly reply: 'thread' | 'ephemeral';
  readonly askers: string | null;
}

/** `candor channels`: the mapping in order, then the default, each KB with its version and size. */
export async function channelMap(entries: readonly ChannelEntry[], defaultKb: string, size: KbSize): Promise<ChannelMapRow[]> {
  const sizes = new Map<string, { version: number | null; facts: number | null }>();
  for (const kb of mappedKbs(entries, defaultKb)) {
    const s = await size(kb);
    sizes.set(kb, { version: s?.version ?? null, facts: s?.facts ?? null });
  }
  const kbsOf = (names: readonly string[]) => names.map((name) => ({ name, ...(sizes.get(name) ?? { version: null, facts: null }) }));
  return [
    ...entries.map((e) => ({
      platform: e.platform,
      where: e.where,
      kbs: kbsOf(e.kbs),
      mentionOnly: e.mentionOnly,
      reply: e.reply,
      askers: e.askers ?? null,
    })),
    { platform: 'default', where: 'everywhere else', kbs: kbsOf([defaultKb]), mentionOnly: true, reply: 'thread', askers: null },
  ];
}

/** The mapping as a table a person reads. */
export function formatChannelMap(rows: readonly ChannelMapRow[]): string {
  const lines = rows.map((r) => {
    const kbs = r.kbs.map((k) => (k.version === null ? `${k.name} (missing)` : `${k.name} v${k.version}, ${k.facts} facts`)).join(' + ');
    const where = r.platform === 'default' ? 'default (CANDOR_KB)' : `${r.platform} ${r.where}`;
    const how = [
      r.platform === 'default' ? 'mentions and direct messages' : r.mentionOnly ? 'mentions only' : 'every message',
      r.reply === 'ephemeral' ? 'ephemeral replies' : '',
      r.askers ? `askers in ${r.askers}` : '',
    ].filter(Boolean);
    return `${where.padEnd(28)} ${kbs}  [${how.join(', ')}]`;
  });
  return lines.join('\n');
}
