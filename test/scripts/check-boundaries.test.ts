import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

import {
  checkFiles,
  folderCycles,
  importCycles,
  importsOf,
  layerOf,
  layerProblems,
  LAYERS,
  readTree,
} from '../../scripts/check-boundaries.mjs';

// The import boundaries that keep channels thin: each rule fails on a planted violation and the real tree passes.
const run = promisify(execFile);
const script = new URL('../../scripts/check-boundaries.mjs', import.meta.url).pathname;
const file = (path: string, ...imports: string[]) => ({
  path,
  text: imports.map((spec, i) => `import { x${i} } from '${spec}';`).join('\n'),
});

describe('check-boundaries rules', () => {
  it('reads static, type-only, multi-line, re-exported and dynamic imports', () => {
    const text =
      "import type { A } from './a.js';\nimport {\n  b,\n  c,\n} from 'drizzle-orm';\nexport { d } from '../d.js';\nconst e = await import('./e.js');";
    expect(importsOf(text)).toEqual(['./a.js', 'drizzle-orm', '../d.js', './e.js']);
  });

  it('a channel that imports the store fails', () => {
    const problems = checkFiles([file('src/channels/chat/answer-once.ts', '../../store/open-store.js')]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^src\/channels\/chat\/answer-once\.ts: imports "\.\.\/\.\.\/store\/open-store\.js" \(src\/channels import no store and no drizzle-orm/,
      ),
    ]);
  });

  it('a channel that imports drizzle-orm (or a subpath of it) fails', () => {
    const problems = checkFiles([
      file('src/channels/teams/teams-review.ts', 'drizzle-orm'),
      file('src/channels/http/api-routes.ts', 'drizzle-orm/pg-core'),
    ]);
    expect(problems).toHaveLength(2);
    expect(problems.every((p) => p.includes('no store and no drizzle-orm'))).toBe(true);
  });

  it('a channel that imports the composition root fails', () => {
    expect(checkFiles([file('src/channels/slack/slack-channel.ts', '../../app/main.js')])).toEqual([
      expect.stringContaining('(src/channels import not the composition root (src/app/main.ts))'),
    ]);
  });

  it('a command or job that imports the composition root fails; entry points pass', () => {
    expect(
      checkFiles([file('src/eval/loo-command.ts', '../app/main.js'), file('src/review/review-schedules.ts', '../app/main.js')]),
    ).toEqual([
      expect.stringContaining('(the composition root (src/app/main.ts) only in entry points'),
      expect.stringContaining('(the composition root (src/app/main.ts) only in entry points'),
    ]);
    expect(
      checkFiles([
        file('src/cli/ask-command.ts', '../app/main.js'),
        file('src/app/serve.ts', './main.js'),
        file('src/cli.ts', './app/main.js'),
      ]),
    ).toEqual([]);
  });

  it('an import cycle fails, type-only imports too, and names each module on it; a chain without a cycle passes', () => {
    const cycle = [
      { path: 'src/ask/ask-service.ts', text: "import type { R } from './record-interaction.js';" },
      { path: 'src/ask/record-interaction.ts', text: "import type { AskRequest } from './ask-service.js';" },
      { path: 'src/ask/decision.ts', text: "import { x } from '../core/x.js';" },
      { path: 'src/core/x.ts', text: '' },
    ];
    expect(importCycles(cycle)).toEqual(['import cycle: src/ask/ask-service.ts → src/ask/record-interaction.ts → src/ask/ask-service.ts']);
    expect(importCycles(cycle.slice(1))).toEqual([]);
  });

  it('slack importing teams fails, and teams importing slack fails', () => {
    expect(checkFiles([file('src/channels/slack/slack-channel.ts', '../teams/render-teams-card.js')])).toEqual([
      expect.stringContaining('(src/channels/slack never imports src/channels/teams)'),
    ]);
    expect(checkFiles([file('src/channels/teams/teams-inbound.ts', '../slack/answer-once.js')])).toEqual([
      expect.stringContaining('(src/channels/teams never imports src/channels/slack)'),
    ]);
  });

  it('pino outside src/kernel/log.ts fails; the logger module itself passes', () => {
    expect(checkFiles([file('src/app/serve.ts', 'pino'), file('src/cli.ts', 'pino-pretty')])).toEqual([
      expect.stringContaining('(pino only in src/kernel/log.ts)'),
      expect.stringContaining('(pino only in src/kernel/log.ts)'),
    ]);
    expect(checkFiles([file('src/kernel/log.ts', 'pino', 'pino-pretty')])).toEqual([]);
  });

  it('croner outside the schedule adapter fails; the adapter itself passes', () => {
    expect(checkFiles([file('src/review/review-schedules.ts', 'croner'), file('src/core/review/sampling.ts', 'croner')])).toEqual([
      expect.stringContaining('(croner only in src/schedule/cron-schedule.ts)'),
      expect.stringContaining('(src/core imports only src/core'),
      expect.stringContaining('(croner only in src/schedule/cron-schedule.ts)'),
    ]);
    expect(checkFiles([file('src/schedule/cron-schedule.ts', 'croner')])).toEqual([]);
  });

  it('what the rules allow passes: shared chat code, app services, and the store outside channels', () => {
    const allowed = [
      file(
        'src/channels/slack/slack-channel.ts',
        '../chat/answer-once.js',
        '../../ask/ask-service.js',
        '../../review/review-desk.js',
        '@slack/bolt',
      ),
      file('src/channels/teams/teams-channel.ts', '../chat/chat-services.js', '../http/read-json-body.js', 'botbuilder'),
      file('src/review/review-posts.ts', 'drizzle-orm', '../store/schema.js'),
      file('src/app/chat-services.ts', '../ask/services.js', '../review/review-desk.js'),
    ];
    expect(checkFiles(allowed)).toEqual([]);
  });
});

describe('the layer rule', () => {
  it('an import that points to a higher layer fails, naming both layers; type-only imports count', () => {
    const problems = layerProblems([
      { path: 'src/store/schema/interactions.ts', text: "import type { EvidenceView } from '../../ask/decision.js';" },
      file('src/core/gate/gate.ts', '../../kernel/errors.js'),
      file('src/ask/ask-service.ts', '../store/open-store.js', '../core/gate/gate.js', '../kernel/log.js', 'zod'),
    ]);
    expect(problems).toEqual([
      'src/store/schema/interactions.ts: imports "../../ask/decision.js" (layer store imports only its own layer or lower; that is ask)',
      'src/core/gate/gate.ts: imports "../../kernel/errors.js" (layer core imports only its own layer or lower; that is kernel)',
    ]);
  });

  it('the same layer and lower ones pass; root files count with the folder of their name', () => {
    expect(
      layerProblems([
        file('src/review/review-schedules.ts', '../gaps/sync-gaps.js', '../ask/services.js', '../schedule/run-on-schedule.js'),
        file('src/cli.ts', './app/main.js', './config.js'),
        file('src/config/derive-config.ts', '../config.js', '../schedule/cron-schedule.js'),
      ]),
    ).toEqual([]);
    expect(layerOf('src/config.ts')).toBe(layerOf('src/config/settings-schema.ts'));
    expect(layerOf('src/cli.ts')).toBe(LAYERS.length - 1);
    expect(layerOf('src/core/x.ts')).toBe(0);
  });

  it('a file in no layer fails, so a new folder is placed before it is used', () => {
    expect(layerProblems([file('src/widgets/w.ts')])).toEqual([
      'src/widgets/w.ts: is in no layer (place its folder in LAYERS, scripts/check-boundaries.mjs)',
    ]);
  });

  it('two folders of one layer that import each other form a folder cycle', () => {
    const files = [
      file('src/review/import-labels.ts', '../eval/read-jsonl.js'),
      file('src/eval/calibrate/label-points.ts', '../../review/label-store.js'),
    ];
    expect(layerProblems(files)).toEqual([]);
    expect(folderCycles(files)).toEqual(['folder import cycle: review → eval → review']);
    expect(folderCycles(files.slice(1))).toEqual([]);
  });

  it('the real tree has no folder cycle and every file in a layer', () => {
    const tree = readTree(new URL('../..', import.meta.url).pathname);
    expect(tree.length).toBeGreaterThan(300);
    expect(layerProblems(tree)).toEqual([]);
    expect(folderCycles(tree)).toEqual([]);
  });
});

describe('check-boundaries script', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const plant = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'candor-boundaries-'));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it('passes on the real tree', async () => {
    const { stdout } = await run(process.execPath, [script]);
    expect(stdout).toMatch(/^boundaries ok \(\d+ files, \d+ layers\)/);
  });

  it('exits non-zero and names the file and the rule for a planted violation of each rule, an upward import among them', async () => {
    const root = plant({
      'src/channels/slack/a.ts': "import { b } from '../teams/b.js';\n",
      'src/channels/teams/b.ts': "import { a } from '../slack/a.js';\n",
      'src/channels/chat/c.ts':
        "import { eq } from 'drizzle-orm';\nimport type { Db } from '../../store/open-store.js';\nimport type { Candor } from '../../app/main.js';\n",
      'src/store/s.ts': "import type { EvidenceView } from '../ask/decision.js';\n",
      'src/ask/decision.ts': '',
    });
    const failed = await run(process.execPath, [script, root]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const lines = failed!.stderr
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    expect(lines).toEqual([
      'src/channels/chat/c.ts: imports "drizzle-orm" (src/channels import no store and no drizzle-orm (a channel receives services, see channels/chat/chat-services.ts))',
      'src/channels/chat/c.ts: imports "../../store/open-store.js" (src/channels import no store and no drizzle-orm (a channel receives services, see channels/chat/chat-services.ts))',
      'src/channels/chat/c.ts: imports "../../app/main.js" (src/channels import not the composition root (src/app/main.ts))',
      'src/channels/slack/a.ts: imports "../teams/b.js" (src/channels/slack never imports src/channels/teams)',
      'src/channels/teams/b.ts: imports "../slack/a.js" (src/channels/teams never imports src/channels/slack)',
      'src/channels/chat/c.ts: imports "../../app/main.js" (layer channels imports only its own layer or lower; that is app)',
      'src/store/s.ts: imports "../ask/decision.js" (layer store imports only its own layer or lower; that is ask)',
      'import cycle: src/channels/slack/a.ts → src/channels/teams/b.ts → src/channels/slack/a.ts',
    ]);
  });
});
