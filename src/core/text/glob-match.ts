/**
 * A test of "/"-separated paths against a glob, as shells and .gitignore read one: `*` is any run of characters
 * within a segment, `?` one character of a segment, `**` as a whole segment any number of segments (none too),
 * `{a,b}` either alternative, `[abc]` / `[!abc]` a character of (or not of) a class. Everything else is literal,
 * and the whole path must match. Never throws: what is not a well-formed class or alternative is literal. Pure.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = new RegExp(`^${globSource(glob)}$`, 'u');
  return (path) => pattern.test(path);
}

/** The regular expression source of a glob (no anchors). */
function globSource(glob: string): string {
  let out = '';
  let at = 0;
  while (at < glob.length) {
    const char = glob[at]!;
    if (glob.startsWith('**', at) && (at === 0 || glob[at - 1] === '/')) {
      const next = glob[at + 2];
      if (next === '/') {
        out += '(?:[^/]*/)*';
        at += 3;
        continue;
      }
      if (next === undefined) {
        out = out.endsWith('/') ? `${out.slice(0, -1)}(?:/.*)?` : `${out}.*`;
        at += 2;
        continue;
      }
    }
    if (char === '*') {
      out += glob[at + 1] === '*' ? '.*' : '[^/]*';
      at += glob[at + 1] === '*' ? 2 : 1;
    } else if (char === '?') {
      out += '[^/]';
      at += 1;
    } else if (char === '{' && glob.indexOf('}', at) !== -1) {
      const end = glob.indexOf('}', at);
      out += `(?:${glob
        .slice(at + 1, end)
        .split(',')
        .map(globSource)
        .join('|')})`;
      at = end + 1;
    } else if (char === '[' && glob.indexOf(']', at + 2) !== -1) {
      const end = glob.indexOf(']', at + 2);
      const body = glob.slice(at + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      const charClass = `[${negated ? '^' : ''}${escapeClass(negated ? body.slice(1) : body)}]`;
      if (validClass(charClass)) {
        out += charClass;
        at = end + 1;
      } else {
        out += escapeLiteral(char); // "[z-a]" is no class: its "[" is a character like any other
        at += 1;
      }
    } else {
      out += escapeLiteral(char);
      at += 1;
    }
  }
  return out;
}

function validClass(charClass: string): boolean {
  try {
    new RegExp(charClass, 'u');
    return true;
  } catch {
    return false;
  }
}

function escapeLiteral(char: string): string {
  return /[\\^$.*+?()[\]{}|]/.test(char) ? `\\${char}` : char;
}

/** A class body with the characters special inside `[…]` escaped; ranges ("a-z") kept. */
function escapeClass(body: string): string {
  return body.replace(/[\\\]^[]/g, (c) => `\\${c}`);
}
