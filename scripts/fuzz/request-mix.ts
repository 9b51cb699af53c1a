import { apiCases } from './api-cases.js';
import { consoleCases } from './console-cases.js';
import type { CaseMaker, FuzzContext, FuzzRequest } from './fuzz-request.js';
import { extraHeaders } from './header-junk.js';
import { slackCases } from './slack-cases.js';
import { protocolCases, targetCases } from './target-cases.js';
import { teamsCases } from './teams-cases.js';

/** How often each family of cases is drawn (relative weights). */
const FAMILIES: readonly { readonly weight: number; readonly cases: Record<string, CaseMaker> }[] = [
  { weight: 14, cases: targetCases },
  { weight: 6, cases: protocolCases },
  { weight: 16, cases: apiCases },
  { weight: 24, cases: slackCases },
  { weight: 18, cases: teamsCases },
  { weight: 14, cases: consoleCases },
];
const TOTAL = FAMILIES.reduce((sum, f) => sum + f.weight, 0);

/** Every generator by name (a run can be narrowed to some with --only). */
export const ALL_CASES: Readonly<Record<string, CaseMaker>> = Object.assign({}, ...FAMILIES.map((f) => f.cases));

/**
 * The next request: a family by weight, then one of its generators, then the
 * generator's own draws. Everything comes from `ctx.rng`, so a seed gives the
 * same sequence of requests (timestamps and event ids aside).
 */
export function nextRequest(ctx: FuzzContext, only?: readonly string[]): FuzzRequest {
  const { rng } = ctx;
  let maker: CaseMaker;
  if (only && only.length > 0) {
    maker = ALL_CASES[rng.pick(only)]!;
  } else {
    let draw = rng.int(TOTAL);
    const family = FAMILIES.find((f) => (draw -= f.weight) < 0) ?? FAMILIES[0]!;
    maker = rng.pick(Object.values(family.cases));
  }
  const request = maker(ctx);
  // Now and then a header no endpoint expects, on any request.
  return request.raw || !rng.chance(0.1) ? request : { ...request, headers: [...request.headers, ...extraHeaders(rng)] };
}
