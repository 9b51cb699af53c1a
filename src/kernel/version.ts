import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The package version from Candor's own package.json: found by walking up from
 * this file, which sits at src/kernel/ in a checkout and at dist/src/kernel/ in the package.
 */
export function packageVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'candor' && pkg.version) return (cached = pkg.version);
  }
  return (cached = '0.0.0-unknown');
}
