import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { GATE_MODEL } from '../../src/ask/gate-model.js';
import { settingsSchema, toConfig } from '../../src/config.js';
import { indexOf } from '../../src/eval/benchmarks/benchmark-set.js';
import { loadPolicyBench } from '../../src/eval/benchmarks/policybench.js';
import { gateRows } from '../../src/eval/gate-training/gate-rows.js';
import { figures, modelDecides } from '../../src/eval/gate-training/validate-gate.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const POLICY = `${ROOT}examples/policybench`;
const config = toConfig(settingsSchema.parse({}));

describe('the gate on PolicyBench', () => {
  it.each(['cpf', 'ica'])('%s: one shared source label (a normal FAQ export) changes no decision, score or citation', (domain) => {
    const own = loadPolicyBench(POLICY, domain);
    const shared = loadPolicyBench(POLICY, domain, { sharedSource: 'FAQ' });
    expect(new Set(shared.facts.map((f) => f.source))).toEqual(new Set(['FAQ']));
    const a = gateRows(own, indexOf(own), { config, model: GATE_MODEL });
    const b = gateRows(shared, indexOf(shared), { config, model: GATE_MODEL });
    expect(b).toEqual(a);
    const decide = modelDecides(GATE_MODEL);
    expect(figures(b, decide)).toEqual(figures(a, decide));
  });
});

describe('npm run train:gate', () => {
  it('is reproducible: retraining on the committed data gives the committed weights, bit for bit', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/train-gate.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('the retrained model is identical to the committed one');
    // It validated as it went: in-sample, leave one set out and the BM25 baseline, per set.
    expect(run.stdout).toMatch(/\| cpf \|.*\| ica \|.*\| squad2 \|/s);
  });
});
