import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, hostpay } from './helpers.js';

/**
 * `hostpay completion bash|zsh|fish` (issue 26, item 15). The bash script is what the bin
 * prints, sourced in a real bash, completing as bash would when Tab is pressed (COMP_WORDS,
 * COMP_CWORD, then the function `complete -p hostpay` names).
 */
const exec = promisify(execFile);

let bashScript: string;
beforeAll(async () => {
  const r = await hostpay(['completion', 'bash']);
  expect(r.code, r.stderr).toBe(0);
  bashScript = r.stdout;
});

/** What bash offers after `hostpay <words…>`, the last word being the one completed. */
async function complete(...words: string[]): Promise<string[]> {
  const line = ['hostpay', ...words];
  const script = [
    'set -eu',
    // The script as a user loads it: `source <(hostpay completion bash)`.
    `source <("${process.execPath}" "${BIN}" completion bash)`,
    'fn=$(complete -p hostpay | sed -E "s/.* -F ([^ ]+) .*/\\1/")',
    `COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${line.length - 1}`,
    `COMP_LINE="\${COMP_WORDS[*]}"`,
    `COMP_POINT=\${#COMP_LINE}`,
    `"$fn" hostpay "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"`,
    `printf "%s\\n" "\${COMPREPLY[@]}"`,
  ].join('\n');
  const { stdout } = await exec('bash', ['-c', script]);
  return stdout.split('\n').filter((w) => w !== '');
}

describe('hostpay completion bash, sourced in bash', () => {
  it('registers a completion function for hostpay', () => {
    expect(bashScript).toContain('complete -o default -F _hostpay hostpay');
  });

  it('completes a top-level command from its first letters', async () => {
    expect(await complete('webh')).toEqual(['webhooks']);
    expect((await complete('')).length).toBeGreaterThan(25);
    expect(await complete('')).toEqual(expect.arrayContaining(['serve', 'checkout', 'completion', 'listen']));
  });

  it('completes a subcommand, also two levels down, with options in between', async () => {
    expect(await complete('webhooks', 'r')).toEqual(['rotate-secret', 'replay']);
    expect(await complete('checkout', 'review', '')).toEqual(['list', 'get']);
    expect(await complete('--json', 'wallet', 'cr')).toEqual(['create', 'credit']);
    expect(await complete('invoice', 'm')).toEqual(['mark-uncollectible']);
    expect(await complete('link', 'de')).toEqual(['deactivate']);
    expect(await complete('invoice', 'create', '--cu')).toEqual(['--customer-name', '--customer-email']);
  });

  it("completes a command's options and an argument's choices", async () => {
    expect((await complete('serve', '--d')).sort()).toEqual(['--data-dir', '--demo']);
    expect(await complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('merchant', 'create', '--')).toEqual(expect.arrayContaining(['--name', '--json', '--help']));
  });
});

describe('the zsh and fish scripts (no zsh or fish on this machine: their content is checked)', () => {
  it('register for hostpay and know the same commands', async () => {
    const zsh = await hostpay(['completion', 'zsh']);
    const fish = await hostpay(['completion', 'fish']);
    expect(zsh.stdout).toMatch(/^#compdef hostpay\n/);
    expect(zsh.stdout).toContain('compdef _hostpay hostpay');
    expect(fish.stdout).toContain("complete -c hostpay -f -n 'not string match");
    for (const text of [zsh.stdout, fish.stdout]) {
      expect(text).toContain('"checkout review"');
      expect(text).toContain('rotate-secret');
    }
  });

  it('refuses another shell as a usage error (exit 2)', async () => {
    const r = await hostpay(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/);
  });
});
