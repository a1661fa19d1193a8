// Pure (no Node imports): the web page's bundle shares it with the terminal front ends.

/** Programs whose first word is a family of commands: the prefix is the first two words (`git commit`). */
const COMMAND_FAMILIES = new Set([
  'git',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'bun',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'uv',
  'make',
  'gh',
]);

/**
 * Subcommands that run a named script or target chosen by the next word (`npm run build`): the
 * prefix keeps that word too, so approving `npm run build` does not approve every script.
 */
const RUNS_NAMED_SCRIPT = new Set(['npm run', 'pnpm run', 'yarn run', 'bun run', 'uv run', 'npm exec']);

/**
 * Programs that run the command or code they are given (`sudo rm`, `env X=1 cmd`, `bash -c …`): a
 * prefix of them would cover anything at all, so none is offered.
 */
const RUNS_ANY_COMMAND = new Set([
  'sudo',
  'doas',
  'su',
  'env',
  'nohup',
  'nice',
  'ionice',
  'time',
  'timeout',
  'xargs',
  'exec',
  'command',
  'builtin',
  'eval',
  'source',
  '.',
  'watch',
  'strace',
  'chroot',
]);

/** Interpreters: their prefix is the script they run (`python build.py`), none for inline code. */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'fish',
  'python',
  'python3',
  'node',
  'ruby',
  'perl',
  'deno',
]);

/** A program or subcommand name: no quoting, no expansion, no operators, no assignment. */
const PLAIN_WORD = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
/** A path to a program (`./build.sh`, `scripts/test`): plain segments, no `..`. */
const PLAIN_PATH = /^(?:\.\/|\/)?(?:[A-Za-z0-9_][A-Za-z0-9_.+-]*\/)*[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/;

function isProgram(word: string): boolean {
  return PLAIN_WORD.test(word) || (PLAIN_PATH.test(word) && !word.split('/').includes('..'));
}

/**
 * The prefix "commands starting with …" offers for a shell command, the same in every front end:
 * the program (`ls`, `./build.sh`), two words for a command family (`git commit`), three for a named
 * script (`npm run build`), the script for an interpreter (`python build.py`). Null when there is none
 * worth offering — empty, a leading assignment (`FOO=1 make`), quoting or expansions, a program that
 * runs any other (`sudo`, `env`, `xargs`) —: the exact command or the whole action still can be.
 * The policy applies a prefix to every part of a later command, so `echo a; rm x` is not covered by
 * `echo`.
 */
export function commandPrefix(command: string): string | null {
  const words = command.trim().split(/\s+/).filter(Boolean);
  const [first, second, third] = words;
  if (first === undefined || !isProgram(first)) return null;
  // `/usr/bin/sudo` is sudo too.
  const program = first.split('/').pop() ?? first;
  if (RUNS_ANY_COMMAND.has(program)) return null;
  if (INTERPRETERS.has(program)) {
    // `bash -c '…'`, `python -` or a bare REPL: the code is not in a word we could name.
    return second !== undefined && isProgram(second) && !second.startsWith('-') ? `${first} ${second}` : null;
  }
  if (COMMAND_FAMILIES.has(first) && second !== undefined && SUBCOMMAND.test(second)) {
    const family = `${first} ${second}`;
    if (!RUNS_NAMED_SCRIPT.has(family)) return family;
    // `npm run` alone would cover every script of the project.
    return third !== undefined && SUBCOMMAND.test(third) ? `${family} ${third}` : null;
  }
  return first;
}
