// Import boundaries (STYLE.md rule 6), checked on every `npm test`:
// core is pure; vendor SDKs stay inside their adapter folder; only config reads the environment;
// channels speak to the app through services (no store, no drizzle, no composition root) and never to each other.
// `node scripts/check-boundaries.mjs [ROOT]` checks ROOT/src (default: this repository); the rules and
// `checkFiles` are exported so that a test can run them on planted violations without touching the tree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where a relative import points, as a repository path ("src/store/schema.js"); null for a package. */
const target = (spec, file) => (spec.startsWith('.') ? posix.join(posix.dirname(file), spec) : null);
const under = (dir) => (spec, file) => target(spec, file)?.startsWith(`${dir}/`) ?? false;
const isPackage = (name) => (spec) => spec === name || spec.startsWith(`${name}/`);

export const RULES = [
  {
    name: 'src/core imports only src/core (no I/O, no SDKs)',
    applies: (f) => f.startsWith('src/core/'),
    bad: (spec, f) => !spec.startsWith('.') || !posix.join(f, '..', spec).startsWith('src/core'),
  },
  {
    name: '@slack/bolt only in src/channels/slack',
    applies: (f) => !f.startsWith('src/channels/slack'),
    bad: (s) => s.startsWith('@slack/'),
  },
  {
    name: 'botbuilder only in src/channels/teams',
    applies: (f) => !f.startsWith('src/channels/teams'),
    bad: (s) => /^botbuilder|^botframework/.test(s),
  },
  { name: 'openai only in src/llm', applies: (f) => !f.startsWith('src/llm'), bad: (s) => s === 'openai' || s.startsWith('openai/') },
  {
    name: 'pino only in src/kernel/log.ts',
    applies: (f) => f !== 'src/kernel/log.ts',
    bad: (s) => isPackage('pino')(s) || isPackage('pino-pretty')(s),
  },
  { name: 'croner only in src/schedule/cron-schedule.ts', applies: (f) => f !== 'src/schedule/cron-schedule.ts', bad: isPackage('croner') },
  // document parsers stay behind one adapter file each, so a parser can be swapped in one place
  ...[
    ['pdfjs-dist', 'read-pdf.ts'],
    ['mammoth', 'read-docx.ts'],
    ['htmlparser2', 'html-tokenizer.ts'],
    ['markdown-it', 'parse-markdown.ts'],
  ].map(([vendor, adapter]) => ({
    name: `${vendor} only in src/kb/parse/${adapter}`,
    applies: (f) => f !== `src/kb/parse/${adapter}`,
    bad: isPackage(vendor),
  })),
  {
    name: 'OpenTelemetry SDK packages only in src/telemetry and the composition root',
    applies: (f) => !f.startsWith('src/telemetry') && f !== 'src/app/main.ts',
    bad: (s) => s.startsWith('@opentelemetry/') && s !== '@opentelemetry/api',
  },
  // channels → app services → core (DESIGN.md): a channel receives an object of functions, never the database
  {
    name: 'src/channels import no store and no drizzle-orm (a channel receives services, see channels/chat/chat-services.ts)',
    applies: (f) => f.startsWith('src/channels/'),
    bad: (s, f) => isPackage('drizzle-orm')(s) || under('src/store')(s, f),
  },
  {
    name: 'src/channels import not the composition root (src/app/main.ts)',
    applies: (f) => f.startsWith('src/channels/'),
    bad: (s, f) => /^src\/app\/main(\.[jt]s)?$/.test(target(s, f) ?? ''),
  },
  // what both chat channels share lives in src/channels/chat
  // commands and jobs are handed the services they use (src/ask/services.ts); only entry points build or hold the root
  {
    name: 'the composition root (src/app/main.ts) only in entry points: src/cli.ts, src/cli/ and src/app/',
    applies: (f) =>
      !f.startsWith('src/channels/') && // the channels' own rule says it for them
      f !== 'src/cli.ts' &&
      !f.startsWith('src/cli/') &&
      !f.startsWith('src/app/'),
    bad: (s, f) => /^src\/app\/main(\.[jt]s)?$/.test(target(s, f) ?? ''),
  },
  {
    name: 'src/channels/slack never imports src/channels/teams',
    applies: (f) => f.startsWith('src/channels/slack/'),
    bad: under('src/channels/teams'),
  },
  {
    name: 'src/channels/teams never imports src/channels/slack',
    applies: (f) => f.startsWith('src/channels/teams/'),
    bad: under('src/channels/slack'),
  },
];

/** The module specifiers a file imports or re-exports (static and dynamic). */
export function importsOf(text) {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
}

/** Every boundary problem in `files` ({ path: repository path with "/", text }), one line each. */
export function checkFiles(files, rules = RULES) {
  const problems = [];
  for (const { path: file, text } of files) {
    const specs = importsOf(text);
    for (const rule of rules) {
      if (!rule.applies(file)) continue;
      for (const spec of specs) if (rule.bad(spec, file)) problems.push(`${file}: imports "${spec}" (${rule.name})`);
    }
    if (file !== 'src/config.ts' && /process\.env\b/.test(text)) {
      problems.push(`${file}: reads process.env (only src/config.ts may; pass settings through Config)`);
    }
  }
  return problems;
}

/**
 * Import cycles among `files` (relative imports, type-only ones too: a cycle is two modules that cannot be
 * understood apart), one line each, as "a.ts → b.ts → a.ts".
 */
export function importCycles(files) {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map(
    files.map(({ path, text }) => [
      path,
      importsOf(text)
        .map((spec) => target(spec, path)?.replace(/\.js$/, '.ts'))
        .filter((to) => to !== undefined && known.has(to)),
    ]),
  );
  return graphCycles(edges).map((cycle) => `import cycle: ${cycle}`);
}

/** The cycles a depth-first walk of `edges` (node → nodes) meets, each as "a → b → a". */
function graphCycles(edges) {
  const cycles = [];
  const state = new Map(); // node → 'open' while on the stack, 'done' after
  const stack = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of edges.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to].join(' → '));
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/**
 * The layers of src/, lowest first (STYLE.md rule 6: folders form a stack that only imports downwards). A file
 * imports only files of its own layer or of lower ones, type-only imports too; folders of one layer may import
 * each other, but never in a cycle (`folderCycles`). Every file of src/ belongs to exactly one layer, so a new
 * folder has to be placed here before it can be imported. docs/architecture.md draws the same stack.
 */
export const LAYERS = [
  { name: 'core', paths: ['src/core/'] },
  { name: 'kernel', paths: ['src/kernel/'] },
  { name: 'schedule', paths: ['src/schedule/'] },
  { name: 'config', paths: ['src/config.ts', 'src/config/'] },
  { name: 'store', paths: ['src/store/'] },
  { name: 'telemetry, llm, inbox', paths: ['src/telemetry/', 'src/llm/', 'src/inbox/'] },
  { name: 'kb', paths: ['src/kb/'] },
  { name: 'ask', paths: ['src/ask/'] },
  { name: 'features', paths: ['src/review/', 'src/gaps/', 'src/feedback/', 'src/eval/'] },
  { name: 'channels', paths: ['src/channels/'] },
  { name: 'console', paths: ['src/console/'] },
  { name: 'app', paths: ['src/app/'] },
  { name: 'cli', paths: ['src/cli.ts', 'src/cli/'] },
];

/** The index of the layer a repository path belongs to in `layers`, or -1. */
export function layerOf(path, layers = LAYERS) {
  return layers.findIndex((layer) => layer.paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)));
}

/** Every import that points to a higher layer, and every file in no layer, one line each. */
export function layerProblems(files, layers = LAYERS) {
  const problems = [];
  for (const { path: file, text } of files) {
    const own = layerOf(file, layers);
    if (own === -1) {
      problems.push(`${file}: is in no layer (place its folder in LAYERS, scripts/check-boundaries.mjs)`);
      continue;
    }
    for (const spec of importsOf(text)) {
      const to = target(spec, file)?.replace(/\.js$/, '.ts');
      if (to === undefined || !to.startsWith('src/')) continue;
      const theirs = layerOf(to, layers);
      if (theirs > own) {
        problems.push(
          `${file}: imports "${spec}" (layer ${layers[own].name} imports only its own layer or lower; that is ${layers[theirs].name})`,
        );
      }
    }
  }
  return problems;
}

/** The unit a path belongs to for the folder graph: src/X/… and src/X.ts are both "X". */
const folderOf = (path) => path.split('/')[1].replace(/\.ts$/, '');

/** Cycles among the top-level folders of src/ (a root file counts with the folder of its name), one line each. */
export function folderCycles(files) {
  const edges = new Map();
  for (const { path, text } of files) {
    const from = folderOf(path);
    for (const spec of importsOf(text)) {
      const to = target(spec, path);
      if (to === null || !to.startsWith('src/') || folderOf(to) === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(folderOf(to));
    }
  }
  const cycles = graphCycles(new Map([...edges].map(([from, to]) => [from, [...to].sort()])));
  return cycles.map((cycle) => `folder import cycle: ${cycle}`);
}

/** The TypeScript files under ROOT/src, with repository paths. */
export function readTree(root) {
  return walk(join(root, 'src'))
    .filter((f) => f.endsWith('.ts'))
    .map((abs) => ({ path: relative(root, abs).split(sep).join('/'), text: readFileSync(abs, 'utf8') }));
}

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
  const files = readTree(root);
  const problems = [...checkFiles(files), ...layerProblems(files), ...importCycles(files), ...folderCycles(files)];
  if (problems.length > 0) {
    console.error(`Import boundary violations:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`boundaries ok (${files.length} files, ${LAYERS.length} layers)`);
}
