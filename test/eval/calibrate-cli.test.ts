import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess, type CliResult } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CPF = { facts: 'examples/policybench/cpf-facts.jsonl', questions: 'examples/policybench/cpf-questions.jsonl' };
const ICA = { facts: 'examples/policybench/ica-facts.jsonl', questions: 'examples/policybench/ica-questions.jsonl' };

/** `candor …` in this process (the bin's entry point): exit code, stdout and stderr are what is asserted here. */
function candor(args: string[], env: Record<string, string>): Promise<CliResult> {
  return candorInProcess(args, env);
}

interface Asked {
  decision: string;
  confidence: string;
  answerability: { score: number; threshold: number; thresholdSource: string };
  reasons: { layer: string; code: string | null }[];
}

describe('candor eval calibrate (the CLI entry point, PolicyBench CPF and ICA)', () => {
  const dirs = tempFiles({}, 'candor-calibrate-');
  const env = () => ({ CANDOR_DATA_DIR: dirs.path('data'), LOG_LEVEL: 'silent' });
  const ask = async (kb: string, question: string) => {
    const run = await candor(['ask', question, '--kb', kb, '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Asked;
  };

  beforeAll(async () => {
    await migratedStore(dirs.path('data'));
    for (const [kb, set] of [
      ['cpf', CPF],
      ['ica', ICA],
    ] as const)
      expect((await candor(['ingest', set.facts, '--kb', kb], env())).code).toBe(0);
  });

  it('writes a readable SVG of the trade-off and a JSON summary, and recommends a threshold for the target', async () => {
    const out = dirs.path('cpf');
    const run = await candor(['eval', 'calibrate', '--kb', 'cpf', '--questions', CPF.questions, '--out', out, '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      kb: { name: 'cpf', version: 1 },
      method: 'questions',
      n: { answerable: 112, refusable: 112 },
      targetAbstention: 0.75,
      current: { source: 'model', threshold: 0.5 },
      recommended: { meetsTarget: true },
      applied: null,
      files: { svg: `${out}.svg`, json: `${out}.json` },
    });
    expect(summary.recommended.abstained).toBeGreaterThanOrEqual(0.75);
    // The lowest such threshold: one step lower misses the target.
    const below = summary.sweep.find((p: { threshold: number }) => Math.abs(p.threshold - (summary.recommended.threshold - 0.01)) < 1e-9);
    expect(below.abstained).toBeLessThan(0.75);
    expect(JSON.parse(readFileSync(`${out}.json`, 'utf8'))).toEqual(summary);
    const svg = readFileSync(`${out}.svg`, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('recommended: t=');
    expect(svg).toContain('current (model): t=0.50');
  });

  it('--apply changes that KB’s decisions and nothing else’s', async () => {
    interface Loo {
      items: { id: string; answerable: boolean; full: { decision: string; score: number } }[];
    }
    const loo = async (kb: string, questions: string) => {
      const run = await candor(['eval', 'loo', '--kb', kb, '--questions', questions, '--json'], env());
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as Loo;
    };
    const [cpfBefore, icaBefore] = [await loo('cpf', CPF.questions), await loo('ica', ICA.questions)];

    const run = await candor(
      [
        'eval',
        'calibrate',
        '--kb',
        'cpf',
        '--questions',
        CPF.questions,
        '--target-abstention',
        '0.95',
        '--out',
        dirs.path('strict'),
        '--apply',
        '--json',
      ],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const { recommended, applied, confidentAbove } = JSON.parse(run.stdout);
    expect(applied).toEqual({ version: 1, minAnswerability: recommended.threshold, confidentAbove });
    expect(confidentAbove).toBeGreaterThanOrEqual(recommended.threshold);
    expect(recommended.threshold).toBeGreaterThan(0.5);

    const [cpfAfter, icaAfter] = [await loo('cpf', CPF.questions), await loo('ica', ICA.questions)];
    // CPF: exactly the questions scored between the old and the new threshold go from answered to refused.
    const between = cpfBefore.items.filter((i) => i.full.score >= 0.5 && i.full.score < recommended.threshold).map((i) => i.id);
    expect(between.length).toBeGreaterThan(0);
    cpfBefore.items.forEach((before, n) => {
      const after = cpfAfter.items[n]!;
      expect(after.full.score).toBe(before.full.score);
      expect(after.full.decision).toBe(between.includes(before.id) ? 'abstain' : before.full.decision);
      if (between.includes(before.id)) expect(before.full.decision).toBe('answer');
    });
    // ICA: untouched.
    expect(icaAfter.items).toEqual(icaBefore.items);
    // And ask --json says where the threshold came from, and tiers by the KB's own band.
    const calibrated = await ask('cpf', 'How is the 12-month average gross monthly income (AMI) criterion computed?');
    expect(calibrated.answerability).toMatchObject({ threshold: recommended.threshold, thresholdSource: 'kb@1' });
    const score = calibrated.answerability.score;
    // Below the KB's band, or capped by a signal of its own (each a `confidence` reason), an answer is caveated.
    const capped = calibrated.reasons.some((r) => r.layer === 'confidence' && r.code !== 'below_confident_band');
    expect(calibrated.confidence).toBe(score < recommended.threshold ? 'low' : score < confidentAbove || capped ? 'medium' : 'high');
    if (calibrated.confidence === 'medium' && score < confidentAbove)
      expect(calibrated.reasons).toContainEqual(expect.objectContaining({ layer: 'confidence', code: 'below_confident_band' }));
    expect((await ask('ica', 'What is a Foreign Identification Number (FIN) or FIN card?')).answerability).toMatchObject({
      threshold: 0.5,
      thresholdSource: 'model',
    });
  }, 180_000);

  it('explains what it needs, and refuses a bad target', async () => {
    const neither = await candor(['eval', 'calibrate', '--kb', 'cpf'], env());
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toMatch(/--questions FILE .* or --from-labels/);
    expect(neither.stderr).toContain('Probes made from the KB');
    const bad = await candor(['eval', 'calibrate', '--kb', 'cpf', '--questions', CPF.questions, '--target-abstention', '1.5'], env());
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--target-abstention must be a share between 0 and 1');
    // Nothing written when the command cannot run (the default output is calibration-KB.* in the working directory).
    expect(existsSync(join(ROOT, 'calibration-cpf.svg'))).toBe(false);
  });
});
