import { readFileSync } from 'node:fs';
import { z } from 'zod';

import type { Problem } from './config/channel-settings.js';
import { deriveConfig, type DeepReadonly } from './config/derive-config.js';
import { settingIssue, shown } from './config/setting-issues.js';
import { RETIRED_HINT, RETIRED_SETTINGS, settingsSchema, type Settings } from './config/settings-schema.js';
import { CandorError } from './kernel/errors.js';

export { type Settings, settingsSchema } from './config/settings-schema.js';

/** Typed configuration, grouped by concern: what `deriveConfig` makes of the parsed settings. */
export type Config = DeepReadonly<ReturnType<typeof deriveConfig>>;
export type SlackSettings = NonNullable<Config['slack']>;
export type TeamsSettings = NonNullable<Config['teams']>;
export type LlmSettings = NonNullable<Config['llm']>;
export type ReviewSettings = Config['review'];

type Env = Record<string, string | undefined>;

/**
 * Reads settings from the environment, over an optional JSON file named by
 * CANDOR_CONFIG (the environment wins). Throws one CandorError naming every
 * problem: bad values, settings wrong together, retired settings.
 */
export function loadConfig(env: Env = process.env): Config {
  const merged = { ...readConfigFile(env.CANDOR_CONFIG), ...withoutEmpty(env) };
  const problems: Problem[] = Object.keys(RETIRED_SETTINGS)
    .filter((name) => merged[name] !== undefined)
    .map((name) => ({
      variable: name,
      message: `${shown(merged[name])} is given, but this setting is ${RETIRED_SETTINGS[name]}: remove it`,
    }));
  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.');
      problems.push({ variable: name, message: settingIssue(name, merged[name], issue) });
    }
    throw configError(problems);
  }
  const config = deriveConfig(parsed.data, problems);
  if (problems.length > 0) throw configError(problems);
  return config;
}

/** The configuration of parsed settings; throws naming every setting that is wrong given the others. */
export function toConfig(s: Settings): Config {
  const problems: Problem[] = [];
  const config = deriveConfig(s, problems);
  if (problems.length > 0) throw configError(problems);
  return config;
}

function configError(problems: readonly Problem[]): CandorError {
  const lines = problems.map((p) => `  ${p.variable}: ${p.message}`);
  const retired = problems.some((p) => RETIRED_SETTINGS[p.variable] !== undefined) ? `\n  ${RETIRED_HINT}` : '';
  return new CandorError('config_invalid', `Invalid configuration:\n${lines.join('\n')}${retired}`);
}

function readConfigFile(path: string | undefined): Env {
  if (!path) return {};
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new CandorError(
      'config_invalid',
      `CANDOR_CONFIG: ${path} cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'unreadable'}); give the path of a JSON file of settings, for example CANDOR_CONFIG=${CONFIG_FILE_EXAMPLE}`,
      { cause },
    );
  }
  try {
    raw = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error, which may be a secret: report only where.
    throw new CandorError(
      'config_invalid',
      `CANDOR_CONFIG: ${path} is not valid JSON${jsonErrorPosition(text)}; write a JSON object of settings, for example ${FLAT_EXAMPLE}`,
    );
  }
  const file = z.record(z.string(), z.unknown()).safeParse(raw);
  const flat =
    file.success &&
    Object.entries(file.data).every(([k, v]) => isPrimitive(v) || (JSON_SETTINGS.has(k) && typeof v === 'object' && v !== null));
  if (!file.success || !flat)
    throw new CandorError(
      'config_invalid',
      `CANDOR_CONFIG: ${path} must be a flat JSON object of settings (only ${[...JSON_SETTINGS].join(' and ')} may hold JSON), for example ${FLAT_EXAMPLE}`,
    );
  return Object.fromEntries(Object.entries(file.data).map(([k, v]) => [k, isPrimitive(v) ? String(v) : JSON.stringify(v)]));
}

const CONFIG_FILE_EXAMPLE = '/etc/candor/candor.json';
const FLAT_EXAMPLE = '{"CANDOR_KB":"handbook","PORT":3000,"CANDOR_CHANNELS":[{"slack":"C0HR","kb":"hr"}]}';

/** Settings whose value is JSON: in a config file they may be written as JSON rather than as a string of it. */
export const JSON_SETTINGS = new Set(['CANDOR_CHANNELS', 'CANDOR_EXPERTS', 'CANDOR_SOURCE_URLS', 'CANDOR_LLM_PRICES']);

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Unset and empty variables both mean "use the default". */
function withoutEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
}

function jsonErrorPosition(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    const at = /\(line (\d+) column (\d+)\)/.exec((error as Error).message);
    if (at) return ` (line ${at[1]}, column ${at[2]})`;
  }
  return '';
}
