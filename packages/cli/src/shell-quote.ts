/**
 * Quotes one argument for a POSIX shell. Single quotes make everything literal (`?`, `&`, `$`,
 * spaces); a single quote itself is closed, escaped and reopened: ' -> '\''. Words made only of
 * characters no shell treats specially stay bare so the command is easy to read.
 */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_./:-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}
