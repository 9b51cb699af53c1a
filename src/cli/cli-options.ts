import { InvalidArgumentError, Option } from 'commander';

/** `--json`: the command's result as one JSON object on stdout (progress stays on stderr). */
export const jsonOption = (description = 'print the result as one JSON object on stdout'): Option => new Option('--json', description);

/** `--kb NAME`, defaulting to CANDOR_KB (resolved when the command runs, from the settings). */
export const kbOption = (what = 'knowledge base'): Option => new Option('--kb <name>', `${what} (default: CANDOR_KB, else "default")`);

/** A parser for a whole-number option value from `min` to `max`: a bad value is a usage error naming the option. */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`);
    return n;
  };
}

/**
 * A parser for a path option or argument: resolved against the folder the command was typed in (`cwd`), so that a
 * command handed to a running server reads and writes the same files as when it runs here.
 */
export function typedPath(cwd: { path(typed: string): string }): (value: string) => string {
  return (value) => cwd.path(value);
}
