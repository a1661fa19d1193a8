/**
 * A launcher's command line read as the launcher reads it: which words are its options (and the
 * values they take), which are operands. Without this a value was read as an operand (`npm
 * --loglevel silent run lint`: `silent` taken for the subcommand; `python3 -X utf8 -m checker`:
 * `utf8` taken for the script) and the file that really runs was not held.
 *
 * An option the table does not know, or a word an expansion decides, may take the next word or
 * change the folder: the reading stops there and says so (`unsure`), to be warned of at start rather
 * than held as nothing.
 */
export interface OptionTable {
  /** Options that take a value: the next word, `--name=value`, or the rest of a short cluster. */
  readonly value: ReadonlySet<string>;
  /** Options that take no value. */
  readonly flag: ReadonlySet<string>;
  /** Short options whose value is optional: attached, or the next word where it is a number (`make -j 4`). */
  readonly optionalNumber?: ReadonlySet<string>;
  /** Short options cluster as getopt reads them (`-sCtools`, `-uX utf8`). */
  readonly clusters: boolean;
  /** `--no-NAME` negates any boolean (npm's config). */
  readonly negations?: boolean;
  /** Options after which the rest of the words belong to what runs (python's `-m`, `-c`). */
  readonly ends?: ReadonlySet<string>;
  /** The first operand ends the launcher's options (python's script); otherwise options may follow. */
  readonly operandEnds: boolean;
}

export interface ReadOptions {
  /** Each option given, long or short, with its value (null when it takes none). */
  readonly options: readonly { readonly name: string; readonly value: string | null }[];
  /** The operands in order (after `--` too); where the reading stopped, none after. */
  readonly operands: readonly string[];
  /** The words after an option of `ends`, or after the first operand where that ends the options. */
  readonly rest: readonly (string | null)[];
  /** Why the reading stopped before the end: an unknown option or a word an expansion decides. */
  readonly unsure: string | null;
}

/** Reads `args` (null: a word an expansion decides) by `table`. */
export function readOptions(args: readonly (string | null)[], table: OptionTable): ReadOptions {
  const options: { name: string; value: string | null }[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === null) return { options, operands, rest: [], unsure: 'a word an expansion decides' };
    if (word === '--') {
      for (const after of args.slice(i + 1)) {
        if (after === null) return { options, operands, rest: [], unsure: 'a word an expansion decides' };
        operands.push(after);
      }
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      operands.push(word);
      if (table.operandEnds) return { options, operands, rest: args.slice(i + 1), unsure: null };
      continue;
    }
    const eq = word.indexOf('=');
    const whole = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    let taken: { name: string; value: string | null } | null = null;
    let next = i;
    if (table.value.has(whole)) {
      const value = whole === word ? args[i + 1] : word.slice(eq + 1);
      if (value === undefined)
        return { options, operands, rest: [], unsure: `\`${word}\` without its value` };
      if (value === null) return { options, operands, rest: [], unsure: 'a word an expansion decides' };
      taken = { name: whole, value };
      if (whole === word) next = i + 1;
    } else if (table.flag.has(whole) || (table.negations === true && whole.startsWith('--no-'))) {
      taken = { name: whole, value: whole === word ? null : word.slice(eq + 1) };
    } else if (table.clusters && !word.startsWith('--')) {
      const cluster = readCluster(args, i, table);
      if (cluster === null)
        return { options, operands, rest: [], unsure: `\`${word}\`, an option kimi-ts does not know` };
      options.push(...cluster.options);
      i = cluster.next;
      const last = cluster.options[cluster.options.length - 1];
      if (last !== undefined && table.ends?.has(last.name) === true)
        return { options, operands, rest: args.slice(i + 1), unsure: null };
      continue;
    } else {
      return { options, operands, rest: [], unsure: `\`${word}\`, an option kimi-ts does not know` };
    }
    options.push(taken);
    i = next;
    if (table.ends?.has(taken.name) === true)
      return { options, operands, rest: args.slice(i + 1), unsure: null };
  }
  return { options, operands, rest: [], unsure: null };
}

/** A cluster of short options from `args[at]` (`-sCtools`): its options and the index of its last word. */
function readCluster(
  args: readonly (string | null)[],
  at: number,
  table: OptionTable,
): { options: { name: string; value: string | null }[]; next: number } | null {
  const word = args[at]!;
  const options: { name: string; value: string | null }[] = [];
  for (let c = 1; c < word.length; c++) {
    const name = `-${word[c]}`;
    const attached = word.slice(c + 1);
    if (table.value.has(name)) {
      if (attached !== '') return { options: [...options, { name, value: attached }], next: at };
      const value = args[at + 1];
      if (value === undefined || value === null) return null;
      return { options: [...options, { name, value }], next: at + 1 };
    }
    if (table.optionalNumber?.has(name) === true) {
      if (attached !== '') return { options: [...options, { name, value: attached }], next: at };
      const value = args[at + 1];
      if (typeof value === 'string' && /^[0-9.]+$/.test(value))
        return { options: [...options, { name, value }], next: at + 1 };
      options.push({ name, value: null });
      continue;
    }
    if (!table.flag.has(name)) return null;
    options.push({ name, value: null });
  }
  return { options, next: at };
}

/** The values given for any of `names`, in order. */
export function valuesOf(read: ReadOptions, names: readonly string[]): string[] {
  return read.options.filter(({ name }) => names.includes(name)).flatMap(({ value }) => value ?? []);
}

/** Whether any of `names` was given. */
export function hasOption(read: ReadOptions, names: readonly string[]): boolean {
  return read.options.some(({ name }) => names.includes(name));
}

const set = (words: string): ReadonlySet<string> => new Set(words.split(' '));

/**
 * npm's options: every config key may be given as `--key value`, so only the keys listed are read;
 * one not listed stops the reading (warned of) unless it is given as `--key=value`.
 */
export const NPM_OPTIONS: OptionTable = {
  value: set(
    '--prefix -C --workspace -w --loglevel --userconfig --globalconfig --cache --registry --script-shell --node-options --tag --otp --include --omit --before --scope --call -c --package --color --logs-dir --logs-max --location',
  ),
  flag: set(
    '-s --silent -q --quiet -d -dd -ddd --verbose --if-present --ignore-scripts --foreground-scripts --json --parseable -p --workspaces -ws --include-workspace-root -y --yes -g --global --force -f --offline --prefer-offline --prefer-online --dry-run --long -l --timing --audit --fund --progress',
  ),
  negations: true,
  clusters: false,
  operandEnds: false,
};

export const PNPM_OPTIONS: OptionTable = {
  value: set(
    '-C --dir --filter -F --filter-prod --reporter --loglevel --workspace-concurrency --resume-from --changed-files-ignore-pattern --test-pattern --color',
  ),
  flag: set(
    '-s --silent -r --recursive -w --workspace-root --if-present --parallel --stream --aggregate-output --sequential --reverse --bail --shell-mode --use-stderr --fail-if-no-match --report-summary --no-bail --no-color --include-workspace-root',
  ),
  negations: true,
  clusters: false,
  operandEnds: false,
};

export const YARN_OPTIONS: OptionTable = {
  value: set(
    '--cwd --mutex --network-timeout --cache-folder --modules-folder --global-folder --use-yarnrc --registry',
  ),
  flag: set(
    '-s --silent --verbose --offline --prefer-offline --frozen-lockfile --non-interactive --no-progress --ignore-engines --top-level -T --no-default-rc --json --no-lockfile --pure-lockfile',
  ),
  clusters: false,
  operandEnds: false,
};

export const BUN_OPTIONS: OptionTable = {
  value: set(
    '--cwd --filter -F --elide-lines --shell --config -c --preload -r --env-file --tsconfig-override --conditions --main-fields --port',
  ),
  flag: set(
    '--silent --bun -b --if-present --watch --hot --smol --no-install -i --install --no-clear-screen',
  ),
  clusters: false,
  operandEnds: false,
};

/** GNU make's options (getopt: short ones cluster, options and targets mix). */
export const MAKE_OPTIONS: OptionTable = {
  value: set(
    '-C -f -I -o -W -E --directory --file --makefile --include-dir --old-file --assume-old --what-if --new-file --assume-new --eval',
  ),
  flag: set(
    '-s -k -n -B -e -i -q -r -R -S -t -w -p -v -d -h -O -L --silent --quiet --keep-going --no-keep-going --just-print --dry-run --recon --always-make --environment-overrides --ignore-errors --question --no-builtin-rules --no-builtin-variables --stop --touch --print-directory --no-print-directory --warn-undefined-variables --trace --check-symlink-times --print-data-base --version --help --no-silent --jobs --load-average --output-sync --debug --shuffle --jobserver-auth --jobserver-style',
  ),
  optionalNumber: set('-j -l'),
  clusters: true,
  operandEnds: false,
};

/** CPython's options: `-m MODULE` and `-c CODE` end them, as does the script. */
export const PYTHON_OPTIONS: OptionTable = {
  value: set('-X -W -m -c --check-hash-based-pycs'),
  flag: set(
    '-b -B -d -E -h -i -I -O -P -q -s -S -u -v -V -x -R -3 --help --version --help-env --help-xoptions --help-all',
  ),
  ends: set('-m -c'),
  clusters: true,
  operandEnds: true,
};

/** `uv [global options] run [options] PROGRAM …` and `poetry … run PROGRAM …`: the options before the program. */
export const UV_OPTIONS: OptionTable = {
  value: set(
    '--directory --project -C -P --with --with-editable --with-requirements --python -p --package --extra --group --only-group --no-group --env-file --index --default-index --index-url --extra-index-url --cache-dir --config-file --color --find-links -f --refresh-package --reinstall-package --upgrade-package -P --exclude-newer --python-preference',
  ),
  flag: set(
    '--frozen --locked --no-sync --isolated --no-project --all-extras --no-dev --only-dev --dev --offline -q --quiet -v --verbose --no-cache -n --native-tls --preview --no-config --active --no-active --exact --inexact --all-packages --all-groups --no-editable --script -s --module -m --no-interaction --no-ansi --ansi --no-plugins --no-progress --no-env-file --refresh --reinstall --upgrade -U --compile-bytecode --no-python-downloads --managed-python --no-managed-python',
  ),
  clusters: false,
  operandEnds: true,
};

/** Why what a launcher reads is not held: its reading stopped at something it cannot know. */
export function unsureWhy(what: string): string {
  return `kimi-ts cannot tell what it runs (${what}), so the files it reads are not held`;
}
