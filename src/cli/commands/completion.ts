/**
 * `slogulate completion bash|zsh`: prints a shell completion script. The
 * subcommands and options are read from the commander program when the
 * script is printed, so every registered command is in it. An option that
 * takes one of a fixed set of values completes them: commander's
 * `.choices()` (`--format`, `--sort`...), and `OPTION_VALUES` for an option
 * that checks its values with a parser of its own (`top --by`, repeatable).
 */
import { Argument, type Command, type Option } from 'commander';
import { TOP_KEYS } from '../../analyses/top/top.js';
import { SUMMARIES } from './summaries.js';

export const SHELLS = ['bash', 'zsh'] as const;
export type Shell = (typeof SHELLS)[number];

/** An option as completion sees it. */
export interface OptionSpec {
  long?: string;
  short?: string;
  description: string;
  /** Takes a value (`--out <file>`). */
  takesValue: boolean;
  /** The value is a path. */
  file: boolean;
  choices?: string[];
  /** May be given more than once. */
  repeatable: boolean;
}

/** A positional argument as completion sees it. */
export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  file: boolean;
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
}

export interface ProgramSpec {
  name: string;
  root: CommandSpec;
  subcommands: CommandSpec[];
}

const SAFE_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const FILE_VALUE = /file|path|dir|slog/i;

/**
 * The values of options that take one of a fixed set but check it with their
 * own parser (commander's `.choices()` cannot accumulate a repeatable option),
 * so that commander does not know the set: command name, then long flag.
 * Taken from the same list the option's parser checks against.
 */
export const OPTION_VALUES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  top: { '--by': TOP_KEYS },
};

function optionSpec(opt: Option, known: Readonly<Record<string, readonly string[]>> = {}): OptionSpec {
  const value = /[<[]([^>\]]*)[>\]]/.exec(opt.flags)?.[1] ?? '';
  const choices = opt.argChoices ?? (opt.long === undefined ? undefined : known[opt.long]);
  return {
    ...(opt.long ? { long: opt.long } : {}),
    ...(opt.short ? { short: opt.short } : {}),
    description: opt.description,
    takesValue: opt.required || opt.optional,
    file: FILE_VALUE.test(value),
    ...(choices ? { choices: choices.filter((c) => SAFE_WORD.test(c)) } : {}),
    repeatable: opt.variadic || /repeatable/i.test(opt.description),
  };
}

function commandSpec(cmd: Command, isRoot = false): CommandSpec {
  const known = isRoot ? {} : (OPTION_VALUES[cmd.name()] ?? {});
  const options = cmd.options.filter((o) => !o.hidden).map((o) => optionSpec(o, known));
  options.push({ long: '--help', short: '-h', description: 'display help', takesValue: false, file: false, repeatable: false });
  const args = cmd.registeredArguments.map((a: Argument) => ({
    name: a.name(),
    description: a.description,
    required: a.required,
    variadic: a.variadic,
    file: FILE_VALUE.test(a.name()),
    ...(a.argChoices ? { choices: a.argChoices.filter((c) => SAFE_WORD.test(c)) } : {}),
  }));
  return { name: cmd.name(), description: cmd.description(), options, args };
}

/** What the program offers: its options and arguments, and each subcommand's. */
export function programSpec(program: Command): ProgramSpec {
  const subcommands = program.commands.filter((c) => SAFE_WORD.test(c.name())).map((c) => commandSpec(c));
  if (subcommands.length && !subcommands.some((c) => c.name === 'help')) {
    // commander's implicit `help [command]`
    subcommands.push({
      name: 'help',
      description: 'display help for command',
      options: [],
      args: [{ name: 'command', description: '', required: false, variadic: false, file: false, choices: subcommands.map((c) => c.name) }],
    });
  }
  return { name: program.name(), root: commandSpec(program, true), subcommands };
}

const flags = (o: OptionSpec): string[] => [o.short, o.long].filter((f): f is string => f !== undefined && SAFE_WORD.test(f.replace(/^-+/, '')));

/** The bash function body for one command: its options, value options, and what its words can be. */
function bashCase(cmd: CommandSpec, extraWords: string[]): string {
  const all = cmd.options.flatMap(flags);
  const fileOpts = cmd.options.filter((o) => o.takesValue && o.file).flatMap(flags);
  const choiceCases = cmd.options
    .filter((o) => o.takesValue && o.choices?.length)
    .map((o) => `        ${flags(o).join('|')}) COMPREPLY=( $(compgen -W "${(o.choices ?? []).join(' ')}" -- "$cur") ); return ;;`);
  const valueOpts = cmd.options.filter((o) => o.takesValue && !o.file && !o.choices?.length).flatMap(flags);
  const words = [...extraWords, ...cmd.args.flatMap((a) => a.choices ?? [])];
  const files = cmd.args.some((a) => a.file);
  const lines = [
    `      opts="${all.join(' ')}"`,
    `      words="${words.join(' ')}"`,
    `      files=${files ? 1 : 0}`,
    '      case "$prev" in',
  ];
  if (fileOpts.length) lines.push(`        ${fileOpts.join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;`);
  lines.push(...choiceCases);
  if (valueOpts.length) lines.push(`        ${valueOpts.join('|')}) return ;;`);
  lines.push('      esac');
  return lines.join('\n');
}

export function bashScript(spec: ProgramSpec): string {
  const fn = `_${spec.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const subNames = spec.subcommands.map((c) => c.name);
  const cases = spec.subcommands.map((c) => `    ${c.name})\n${bashCase(c, [])}\n      ;;`);
  return `# bash completion for ${spec.name} (printed by \`${spec.name} completion bash\`)
# Use it now:     source <(${spec.name} completion bash)
# Or for good:    ${spec.name} completion bash > ~/.local/share/bash-completion/completions/${spec.name}
${fn}() {
  local cur prev sub opts words files
  COMPREPLY=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  sub=""
  if (( COMP_CWORD > 1 )); then
    case "\${COMP_WORDS[1]}" in
      ${subNames.join('|') || '__none__'}) sub="\${COMP_WORDS[1]}" ;;
    esac
  fi
  case "$sub" in
${cases.join('\n')}
    *)
${bashCase(spec.root, subNames)}
      ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
    return
  fi
  [[ -n "$sub" || $COMP_CWORD -eq 1 ]] || words=""
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
  if [[ $files == 1 ]]; then
    COMPREPLY+=( $(compgen -f -- "$cur") )
  fi
}
complete -o filenames -o bashdefault -F ${fn} ${spec.name}
`;
}

/** Text inside a single-quoted zsh word. */
const zshQuoted = (text: string): string => text.replace(/'/g, `'\\''`);
/** An _arguments `[description]`: brackets escaped. */
const zshBracket = (text: string): string => zshQuoted(text.replace(/\\/g, '\\\\').replace(/[[\]]/g, (c) => `\\${c}`));
/** An _arguments message or a _describe entry's description: colons escaped too. */
const zshMessage = (text: string): string => zshQuoted(text.replace(/\\/g, '\\\\').replace(/[[\]:]/g, (c) => `\\${c}`));

function zshAction(o: { file: boolean; choices?: string[] }): string {
  if (o.file) return '_files';
  if (o.choices?.length) return `(${o.choices.join(' ')})`;
  return ' ';
}

function zshOptionSpecs(o: OptionSpec): string[] {
  const fs = flags(o);
  if (!fs.length) return [];
  const desc = zshBracket(o.description);
  const exclusive = o.repeatable ? '*' : fs.length > 1 ? `(${fs.join(' ')})` : '';
  return fs.map((f) => {
    if (!o.takesValue) return `'${exclusive}${f}[${desc}]'`;
    const how = f.startsWith('--') ? '=' : '+';
    return `'${exclusive}${f}${how}[${desc}]:${o.file ? 'file' : 'value'}:${zshAction(o)}'`;
  });
}

function zshArgumentSpecs(cmd: CommandSpec): string[] {
  return cmd.args.map((a, i) => {
    const where = a.variadic ? '*' : String(i + 1);
    const optional = a.required ? '' : ':';
    return `'${where}:${optional}${zshMessage(a.name)}:${zshAction(a)}'`;
  });
}

export function zshScript(spec: ProgramSpec): string {
  const fn = `_${spec.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const described = spec.subcommands.map((c) => `    '${c.name}:${zshQuoted(c.description)}'`);
  const indent = '        ';
  const cases = spec.subcommands.map((c) => {
    const specs = [...c.options.flatMap(zshOptionSpecs), ...zshArgumentSpecs(c)];
    return `      ${c.name})\n${indent}_arguments -s -S : \\\n${specs.map((s) => `${indent}  ${s}`).join(' \\\n')}\n${indent};;`;
  });
  const rootSpecs = spec.root.options.flatMap(zshOptionSpecs);
  return `#compdef ${spec.name}
# zsh completion for ${spec.name} (printed by \`${spec.name} completion zsh\`)
# Use it now:     source <(${spec.name} completion zsh)
# Or for good:    ${spec.name} completion zsh > "\${fpath[1]}/_${spec.name}"   (then start a new zsh)
${fn}() {
  local -a subcommands
  subcommands=(
${described.join('\n')}
  )
  if (( CURRENT > 2 )) && (( \${subcommands[(I)\${words[2]}:*]} )); then
    local sub=\${words[2]}
    shift words
    (( CURRENT-- ))
    curcontext="\${curcontext%:*:*}:${spec.name}-\$sub:"
    case \$sub in
${cases.join('\n')}
    esac
    return
  fi
  local curcontext="\$curcontext" state line
  typeset -A opt_args
  _arguments -C -s -S : \\
${rootSpecs.map((s) => `    ${s}`).join(' \\\n')} \\
    '1: :->first' \\
    '*:slog file:_files' && return 0
  if [[ \$state == first ]]; then
    _describe -t commands '${spec.name} command' subcommands
    _files
  fi
}
if [[ "\$funcstack[1]" == "${fn}" ]]; then
  ${fn} "\$@"
else
  compdef ${fn} ${spec.name}
fi
`;
}

export function completionScript(program: Command, shell: Shell): string {
  const spec = programSpec(program);
  return shell === 'bash' ? bashScript(spec) : zshScript(spec);
}

export function register(program: Command): Command {
  return program
    .command('completion')
    .description(SUMMARIES.completion)
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  source <(slogulate completion bash)                                   this shell
  slogulate completion bash > ~/.local/share/bash-completion/completions/slogulate
  slogulate completion zsh > "\${fpath[1]}/_slogulate"                   (zsh: then start a new shell)`,
    )
    .action((shell: Shell) => {
      process.stdout.write(completionScript(program, shell));
    });
}
