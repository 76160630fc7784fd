import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run } from '../src/program.js';
import { memoryIo } from './helpers.js';

/**
 * The CLI README's command tables list every command `hostpay --help` lists, down to the last
 * subcommand, and no command that does not exist (issue 26, item 10).
 */
const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

/** The command names of a `--help` text's "Commands:" section (without `help`), or null for a leaf. */
function listedCommands(help: string): string[] | null {
  const section = /(?:^|\n)Commands:\n([\s\S]*?)(?:\n\n|(?![\s\S]))/.exec(help)?.[1];
  if (section === undefined) return null;
  return [...section.matchAll(/^ {2}([a-z][a-z0-9-]*)/gm)].map(([, name]) => name!).filter((n) => n !== 'help');
}

/** Every leaf command, walking `hostpay [path…] --help` from the top. */
async function commandsFromHelp(path: string[] = []): Promise<string[]> {
  const io = memoryIo();
  expect(await run([...path, '--help'], io)).toBe(0);
  const subs = listedCommands(io.out);
  if (subs === null) return [path.join(' ')];
  const nested = await Promise.all(subs.map((name) => commandsFromHelp([...path, name])));
  return nested.flat();
}

const WORD = /^[a-z][a-z0-9-]*(?:\\\|[a-z][a-z0-9-]*)*$/;

/**
 * The commands a README table row names in its first cell: `hostpay wallet credit\|debit AMOUNT`
 * is two; a following span without `hostpay` (`/ \`resume ID\``) replaces the last word.
 */
function commandsOfRow(cell: string): string[] {
  const out: string[] = [];
  let last: string[] = [];
  for (const [, span] of cell.matchAll(/`([^`]+)`/g)) {
    const words = span!.split(' ');
    const own = words[0] === 'hostpay' ? words.slice(1) : words;
    const lead: string[] = [];
    for (const w of own) {
      if (!WORD.test(w)) break;
      lead.push(w);
    }
    if (lead.length === 0) continue;
    const path = words[0] === 'hostpay' ? lead : [...last.slice(0, -1), ...lead];
    // Alternatives (`a\|b`) in any word multiply out.
    let expanded: string[][] = [[]];
    for (const w of path) expanded = expanded.flatMap((p) => w.split('\\|').map((alt) => [...p, alt]));
    out.push(...expanded.map((p) => p.join(' ')));
    last = path;
  }
  return out;
}

function commandsFromReadme(md: string): string[] {
  return [...md.matchAll(/^\| (`hostpay (?:[^|\\]|\\.)*)\|/gm)].flatMap(([, cell]) => commandsOfRow(cell!));
}

describe('the CLI README lists every command', () => {
  it('every command `hostpay --help` lists (recursively) has a row', async () => {
    const fromHelp = await commandsFromHelp();
    expect(fromHelp.length).toBeGreaterThan(80);
    const documented = new Set(commandsFromReadme(README));
    expect(fromHelp.filter((c) => !documented.has(c))).toEqual([]);
  });

  it('every row names a command that exists', async () => {
    const fromHelp = new Set(await commandsFromHelp());
    expect(commandsFromReadme(README).filter((c) => !fromHelp.has(c))).toEqual([]);
  });

  it('the row parser reads alternatives and continuation spans', () => {
    expect(commandsOfRow('`hostpay merchant suspend ID` / `resume ID`')).toEqual([
      'merchant suspend',
      'merchant resume',
    ]);
    expect(commandsOfRow('`hostpay wallet activate\\|deactivate WALLET_ID`')).toEqual([
      'wallet activate',
      'wallet deactivate',
    ]);
    expect(commandsOfRow('`hostpay checkout review list [--all \\| --status S]`')).toEqual(['checkout review list']);
  });
});
