/**
 * A path glob as people write them for file and URL paths: `*` is any run of characters but `/`, `**` any run
 * including `/` (`**` followed by `/` also matches no folder at all), `?` one character but `/`, `{a,b}` either,
 * everything else itself. A glob without `/` matches a path's last part ("*.md" matches "hr/leave.md").
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = glob.trim();
  if (pattern.length === 0) throw new Error('an empty glob matches nothing');
  const body = toRegExp(pattern.replace(/^\/+/, ''));
  const whole = new RegExp(`^${body}$`);
  if (pattern.includes('/')) return (path) => whole.test(path.replace(/^\/+/, ''));
  return (path) => whole.test(path.slice(path.lastIndexOf('/') + 1));
}

function toRegExp(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces += 1;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  if (braces > 0) throw new Error(`unclosed "{" in the glob "${glob}"`);
  return out;
}
