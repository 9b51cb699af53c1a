#!/usr/bin/env node
// The installed `candor` command: runs the compiled CLI that `npm run build` writes to dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'candor: the compiled CLI (dist/src/cli.js) is missing: run `npm run build` first (in a checkout, `npm run -s candor -- …` runs the sources)\n',
  );
  process.exit(1);
}
const { runCli } = await import(entry.href);
await runCli(process.argv.slice(2));
