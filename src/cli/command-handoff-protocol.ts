import { z } from 'zod';

/** Where text goes: stdout or stderr, as written (help pages, several lines). */
export type Writer = (text: string) => void;

/** The route on the data folder's lock socket that takes a command line (src/cli/command-handoff-server.ts). */
export const HANDOFF_PATH = '/candor/command';

/** What the CLI sends: the command line as typed and the folder it was typed in (paths in it are resolved there). */
export const HandoffRequest = z.object({
  argv: z.array(z.string().max(100_000)).min(1).max(10_000),
  cwd: z.string().startsWith('/').max(4_096),
});
export type HandoffRequest = z.infer<typeof HandoffRequest>;

/** One line of the answer (newline-delimited JSON): text for stdout, text for stderr, and last the exit code. */
export type HandoffLine = { readonly out: string } | { readonly err: string } | { readonly exit: number };

const Line = z.union([
  z.object({ out: z.string() }).strict(),
  z.object({ err: z.string() }).strict(),
  z.object({ exit: z.number().int().min(0).max(255) }).strict(),
]);

/** A line of the answer, or null for one that is not (skipped: the exit code decides). */
export function parseHandoffLine(text: string): HandoffLine | null {
  try {
    const parsed = Line.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
