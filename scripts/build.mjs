// `npm run build`: compiles src/ to dist/src/ and copies what the compiled code reads at run time,
// so dist/ mirrors the checkout: dist/src/store → ../../migrations, dist/src/cli.js → ../examples/kb.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
for (const [from, to] of [
  ['migrations', 'migrations'],
  ['examples/kb', 'examples/kb'],
]) {
  cpSync(join(root, from), join(dist, to), { recursive: true });
}
// tsc emits imported JSON; fail the build rather than ship a package that breaks at start.
for (const needed of ['src/cli.js', 'src/core/gate/model/answerability.json', 'migrations/meta/_journal.json']) {
  if (!existsSync(join(dist, needed))) {
    console.error(`build: dist/${needed} is missing`);
    process.exit(1);
  }
}
console.log('built dist/');
