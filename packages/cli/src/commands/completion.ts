import { Argument, type Command } from 'commander';
import type { Io } from '../output.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/**
 * `hostpay completion bash|zsh|fish`: a completion script generated from the command tree itself,
 * so a new command or option completes without anyone editing a script. Each script holds two
 * tables, the words that may follow a command path (its subcommands, or the choices of its first
 * argument) and the options of each path, and finds the path from the words typed so far.
 */
export function registerCompletion(program: Command, io: Io): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for every command, subcommand and option')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      [
        '',
        'Load it in the running shell, or where your shell reads completions at start-up:',
        '  bash: source <(hostpay completion bash)      (or > ~/.local/share/bash-completion/completions/hostpay)',
        '  zsh:  source <(hostpay completion zsh)       (after compinit; or > a directory of $fpath as _hostpay)',
        '  fish: hostpay completion fish > ~/.config/fish/completions/hostpay.fish',
        'It completes the command `hostpay` (installed, linked or on PATH), not `npx hostpay`.',
      ].join('\n'),
    )
    .action((shell: Shell) => {
      io.stdout(completionScript(program, shell));
    });
}

interface Node {
  /** Words after `hostpay`, space-separated ('' for the top). */
  path: string;
  /** What may follow: subcommands, or the choices of the first argument. */
  next: string[];
  options: string[];
}

/** Every command path with what may follow it and its options. */
export function completionTable(program: Command): Node[] {
  const nodes: Node[] = [];
  const visit = (cmd: Command, path: string[]): void => {
    const subs = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
    const choices = cmd.registeredArguments[0]?.argChoices ?? [];
    const options = [...cmd.options.flatMap((o) => (o.long === undefined ? [] : [o.long])), '--help'];
    nodes.push({ path: path.join(' '), next: subs.length > 0 ? subs : [...choices], options });
    for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  // Every word goes into shell code unquoted: only plain names.
  for (const n of nodes)
    for (const word of [...n.path.split(' '), ...n.next, ...n.options])
      if (word !== '' && !/^(--)?[a-z0-9][a-z0-9.:_-]*$/.test(word))
        throw new Error(`cannot complete ${JSON.stringify(word)}`);
  return nodes;
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes = completionTable(program);
  const cases = (pick: (n: Node) => string[], indent: string, arm: (path: string, words: string) => string) =>
    nodes.map((n) => `${indent}${arm(n.path, pick(n).join(' '))}`).join('\n');
  switch (shell) {
    case 'bash':
      return `# hostpay completion for bash: source <(hostpay completion bash)
_hostpay_next() {
  case "$1" in
${cases(
  (n) => n.next,
  '    ',
  (p, w) => `"${p}") echo "${w}" ;;`,
)}
  esac
}
_hostpay_options() {
  case "$1" in
${cases(
  (n) => n.options,
  '    ',
  (p, w) => `"${p}") echo "${w}" ;;`,
)}
  esac
}
_hostpay() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ " $(_hostpay_next "$cmdpath") " == *" $word "* ]]; then cmdpath="\${cmdpath:+$cmdpath }$word"; fi
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_hostpay_options "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_hostpay_next "$cmdpath")" -- "$cur"))
  fi
}
complete -o default -F _hostpay hostpay
`;
    case 'zsh':
      return `#compdef hostpay
# hostpay completion for zsh: source <(hostpay completion zsh), after compinit
_hostpay_next() {
  case "$1" in
${cases(
  (n) => n.next,
  '    ',
  (p, w) => `"${p}") reply=(${w}) ;;`,
)}
    *) reply=() ;;
  esac
}
_hostpay_options() {
  case "$1" in
${cases(
  (n) => n.options,
  '    ',
  (p, w) => `"${p}") reply=(${w}) ;;`,
)}
    *) reply=() ;;
  esac
}
_hostpay() {
  local cmdpath="" word i
  local -a reply
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    _hostpay_next "$cmdpath"
    if (( \${reply[(Ie)$word]} )); then cmdpath="\${cmdpath:+$cmdpath }$word"; fi
  done
  if [[ "$PREFIX" == -* ]]; then _hostpay_options "$cmdpath"; else _hostpay_next "$cmdpath"; fi
  compadd -- "\${reply[@]}"
}
compdef _hostpay hostpay
`;
    case 'fish':
      return `# hostpay completion for fish: hostpay completion fish > ~/.config/fish/completions/hostpay.fish
function __hostpay_next
    switch "$argv[1]"
${cases(
  (n) => n.next,
  '        ',
  (p, w) => `case "${p}"\n            string split " " -- ${w === '' ? '""' : `"${w}"`}`,
)}
    end
end
function __hostpay_options
    switch "$argv[1]"
${cases(
  (n) => n.options,
  '        ',
  (p, w) => `case "${p}"\n            string split " " -- "${w}"`,
)}
    end
end
function __hostpay_path
    set -l cmdpath ""
    for word in (commandline -opc)[2..-1]
        if contains -- $word (__hostpay_next "$cmdpath")
            set cmdpath (string trim -- "$cmdpath $word")
        end
    end
    echo $cmdpath
end
complete -c hostpay -f -n 'not string match -q -- "-*" (commandline -ct)' -a '(__hostpay_next (__hostpay_path))'
complete -c hostpay -f -n 'string match -q -- "-*" (commandline -ct)' -a '(__hostpay_options (__hostpay_path))'
`;
  }
}
