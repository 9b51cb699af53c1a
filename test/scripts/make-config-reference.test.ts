import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { CONFIG_REFERENCE, configReference, settingFacts } from '../../scripts/make-config-reference.js';
import { SETTINGS_GROUPS } from '../../src/config/settings-docs.js';
import { settingsSchema } from '../../src/config/settings-schema.js';

describe('the configuration reference (docs/configuration.md)', () => {
  it('is what `npm run docs:config` writes from the schema today', () => {
    // When this fails, the schema or its descriptions changed: run `npm run docs:config` and commit the page.
    expect(readFileSync(CONFIG_REFERENCE, 'utf8')).toBe(configReference());
  });

  it('has one row for every variable of the schema', () => {
    const page = configReference();
    for (const name of Object.keys(settingsSchema.shape))
      expect(page.match(new RegExp(`^\\| \`${name}\` \\|`, 'gm')), name).toHaveLength(1);
  });

  it('fails naming a variable the schema gained without a description, or one it lost', () => {
    const grown = settingsSchema.extend({ CANDOR_NEW_KNOB: z.coerce.number().default(1) });
    expect(() => configReference(grown)).toThrow(/undocumented CANDOR_NEW_KNOB/);
    const shrunk = settingsSchema.omit({ CANDOR_TOP_K: true });
    expect(() => configReference(shrunk)).toThrow(/not in the schema CANDOR_TOP_K/);
    expect(() => configReference(settingsSchema, [...SETTINGS_GROUPS, { title: 'Again', about: '', settings: { PORT: 'x' } }])).toThrow(
      /documented twice PORT/,
    );
  });

  it('reads type, default and allowed values from the schema itself', () => {
    const facts = (name: keyof typeof settingsSchema.shape) => settingFacts(name, settingsSchema.shape[name]);
    expect(facts('PORT')).toEqual({ type: 'whole number', default: '`3000`', allowed: '0–65,535' });
    expect(facts('CANDOR_CHECK_ENTITIES')).toEqual({
      type: 'boolean',
      default: '`true`',
      allowed: '`true` or `false` (also `1`/`0`, `yes`/`no`)',
    });
    expect(facts('LOG_FORMAT')).toEqual({ type: 'one of', default: '`auto`', allowed: '`auto`, `json`, `pretty`' });
    expect(facts('CANDOR_MIN_ANSWERABILITY')).toEqual({ type: 'number', default: null, allowed: 'over 0 and under 1' });
    expect(facts('CANDOR_KB').allowed).toBe('a name of letters, digits, _ . -');
    expect(facts('CANDOR_CONSOLE_TOKEN')).toEqual({
      type: 'text, secret',
      default: null,
      allowed: 'at least 16 characters',
    });
    expect(facts('CANDOR_CHANNELS').type).toBe('JSON');
    // a "|" in a cell would end it
    expect(facts('CANDOR_REVIEW_TEAMS_CONVERSATION').allowed).toContain('serviceUrl\\|conversationId');
  });
});
