import { CODE_WORD, type ShellWord } from './shell-words.js';
import { basename } from './shell-wrappers.js';

/**
 * A Shell rule's argument read as a command — `rm -rf*` is the program `rm`, the flags r and f, then
 * anything — so that it matches the command however its flags are written: `rm -fr x`, `rm -r -f x`,
 * `rm --recursive --force x`, `rm x -rf`. Null when the glob cannot be read so (a wildcard inside a
 * flag): then only its plain text match applies.
 */
export interface ShellRuleShape {
  /** The program's glob: matched against the name as written and its last path segment. */
  readonly name: (text: string) => boolean;
  readonly nameGlob: string;
  /** Flags the command must have (each short letter alone; long options by the short one they mean). */
  readonly flags: ReadonlySet<string>;
  /** The glob for a run of operands (the words that are not flags), joined by single spaces. */
  readonly operands: string;
  /**
   * The same glob, compiled, for a run of literal words (no expansion in it): it, or it followed by
   * more operands (`${operands} *`). A run with a word an expansion decides needs globCouldMatch.
   */
  readonly literalRunFits: (run: string) => boolean;
  /**
   * What every text literalRunFits accepts starts with: the operand glob up to its first `*` or `?`
   * (both globs it tests begin so, and every other character matches only itself).
   */
  readonly operandsPrefix: string;
}

/**
 * How a match came out: the command matches; its name is decided by an expansion and nothing rules
 * the rule out (`$x -rf /`: treated as a match, it cannot be ruled out); or it might, depending on an
 * argument an expansion decides (`rm "$f"` might be `rm -rf`).
 */
export type ShellMatch = 'matches' | 'unknown-name' | 'might' | 'no';

/** The stronger of two outcomes, for a part judged by several of its forms. */
export function strongerMatch(a: ShellMatch, b: ShellMatch): ShellMatch {
  return strength(a) >= strength(b) ? a : b;
}

function strength(match: ShellMatch): number {
  switch (match) {
    case 'no':
      return 0;
    case 'might':
      return 1;
    case 'unknown-name':
      return 2;
    case 'matches':
      return 3;
  }
}

/** Long options with the short flag they mean, for the programs where deny rules name flags most. */
const LONG_FLAGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  rm: { recursive: 'r', R: 'r', force: 'f', dir: 'd', verbose: 'v', interactive: 'i' },
  cp: { recursive: 'r', R: 'r', force: 'f', verbose: 'v' },
  mv: { force: 'f', verbose: 'v' },
  chmod: { recursive: 'R' },
  chown: { recursive: 'R' },
  git: { force: 'f', all: 'a' },
};

/**
 * Every long option of the programs above whose list is short and fixed: GNU getopt takes any
 * unique prefix of one (`rm --recur --forc` is `rm --recursive --force`), so a prefix is read as the
 * option it stands for. For the others, a prefix of one long option in LONG_FLAGS is read as it
 * (an ambiguous prefix only makes the program fail, so reading it as one of them denies nothing that runs).
 */
const ALL_LONG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rm: [
    'force',
    'interactive',
    'one-file-system',
    'no-preserve-root',
    'preserve-root',
    'recursive',
    'dir',
    'verbose',
    'help',
    'version',
  ],
};

function flagKey(program: string, flag: string): string {
  return LONG_FLAGS[program]?.[flag] ?? flag;
}

/** A long option's key, its name completed when it is a prefix (`recur` → `recursive` → r). */
function longFlagKey(program: string, name: string): string {
  const known = LONG_FLAGS[program];
  if (known === undefined || name === '') return name;
  const exact = known[name];
  if (exact !== undefined) return exact;
  const options = ALL_LONG_OPTIONS[program] ?? Object.keys(known).filter((option) => option.length > 1);
  const completed = options.filter((option) => option.startsWith(name));
  return completed.length === 1 ? flagKey(program, completed[0]!) : name;
}

export function shellRuleShape(
  glob: string,
  compile: (glob: string) => (text: string) => boolean,
): ShellRuleShape | null {
  const tokens = glob.trim().split(/\s+/);
  const nameGlob = tokens[0] ?? '';
  const program = basename(nameGlob);
  const flags = new Set<string>();
  const operands: string[] = [];
  let trailing = false;
  tokens.slice(1).forEach((token, i) => {
    if (!token.startsWith('-') || token === '-' || token === '--') {
      operands.push(token);
      return;
    }
    let body = token;
    if (body.endsWith('*') && i === tokens.length - 2) {
      body = body.replace(/\*+$/, '');
      trailing = true;
    }
    for (const key of flagKeys(program, body)) flags.add(key);
  });
  if ([...flags].some((flag) => /[*?]/.test(flag))) return null;
  const operandGlob = operands.join(' ') + (trailing ? '*' : '');
  const exact = compile(operandGlob);
  const followed = operandGlob === '' ? null : compile(`${operandGlob} *`);
  return {
    name: compile(nameGlob),
    nameGlob,
    flags,
    operands: operandGlob,
    literalRunFits: (run) => exact(run) || followed?.(run) === true,
    operandsPrefix: operandGlob.slice(0, firstWildcard(operandGlob)),
  };
}

/** Where a glob's first `*` or `?` is; its length when it has none. */
function firstWildcard(glob: string): number {
  for (let i = 0; i < glob.length; i++) if (glob[i] === '*' || glob[i] === '?') return i;
  return glob.length;
}

function flagKeys(program: string, flag: string): string[] {
  if (flag.startsWith('--')) return [longFlagKey(program, flag.slice(2).split('=')[0] ?? '')];
  return [...flag.slice(1)].map((letter) => flagKey(program, letter));
}

/**
 * Whether a command (its words) matches a rule's shape, or might: a word an expansion decides may be
 * the flags or operands the rule names, and a command whose name is such a word may be any command.
 */
export function matchShape(shape: ShellRuleShape, words: readonly ShellWord[]): ShellMatch {
  const name = words[0];
  if (!name) return 'no';
  // Code the policy cannot read (`python3 -c '…'`) might run what the rule names: asked.
  if (name === CODE_WORD) return 'might';
  let uncertain = false;
  if (name.value === null) {
    // `$x` unquoted may become the program, its flags and operands all at once.
    if (name.splits) return 'unknown-name';
  } else if (!shape.name(name.value)) {
    // Its last path segment (`/bin/rm` is `rm`); a name with no `/` is its own.
    const last = basename(name.value);
    if (last === name.value || !shape.name(last)) return 'no';
  }
  // Flags are read only for a rule that names some (most name none: `git push*`, `npm publish*`);
  // the loop still sets the operands apart (a flag is none) and sees where `--` ends the options.
  const needsFlags = shape.flags.size > 0;
  const program = needsFlags ? basename(name.value ?? shape.nameGlob) : '';
  const flags = needsFlags ? new Set<string>() : null;
  const operands: ShellWord[] = [];
  let flagsUnknown = false;
  let endOfOptions = false;
  // Indexed from the second word: no copy of the arguments (words are frozen: no iterator either).
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (value === null) {
      flagsUnknown = true;
      operands.push(word);
    } else if (!endOfOptions && value === '--') endOfOptions = true;
    else if (!endOfOptions && value.startsWith('-') && value !== '-') {
      if (flags !== null) for (const key of flagKeys(program, value)) flags.add(key);
    } else operands.push(word);
  }
  if (flags !== null) {
    for (const flag of shape.flags) {
      if (flags.has(flag)) continue;
      if (!flagsUnknown) return 'no';
      uncertain = true;
    }
  }
  const found = operandsMatch(shape, operands);
  if (found === 'no') return 'no';
  if (name.value === null) return 'unknown-name';
  return uncertain || found === 'might' ? 'might' : 'matches';
}

const WILD = -1;

/**
 * The rule's operand glob against a run of the command's operands that ends at the last one, or is
 * followed by more (`rm -rf /` matches `rm -rf /tmp/x /` and `rm -rf / x`). A run starts at a
 * literal word: an unknown word starts no run (else `git commit -m "$msg"` might be `git push`).
 */
function operandsMatch(shape: ShellRuleShape, operands: readonly ShellWord[]): ShellMatch {
  const glob = shape.operands;
  let best: ShellMatch = 'no';
  // An empty glob (`rm -rf`, no operands named) stands for no operands at all.
  const last = glob === '' ? 0 : operands.length;
  // From the last word an expansion decides on, every run is literal: a compiled glob answers.
  let literalFrom = operands.length;
  while (literalFrom > 0 && operands[literalFrom - 1]!.value !== null) literalFrom--;
  // Those runs are the ends of one text (the literal words joined), made once; a run that does not
  // start with the glob's literal prefix is not tested (most runs: `publish*` against `test src-1`).
  // Every run takes the same steps (no branch taken only for the second run on): code that a later,
  // longer command reaches for the first time would be thrown out of the optimised rule matching.
  let literalText = '';
  let runAt = -1;
  for (let start = 0; start <= last; start++) {
    if (start < operands.length && start > 0 && operands[start]!.value === null) continue;
    if (start >= literalFrom) {
      if (runAt < 0) {
        literalText = joinedValues(operands, literalFrom);
        runAt = 0;
      }
      // Past the last word the run is empty (slice clamps).
      const run = literalText.slice(runAt);
      if (run.startsWith(shape.operandsPrefix) && shape.literalRunFits(run)) return 'matches';
      runAt += (operands[start]?.value ?? '').length + 1;
      continue;
    }
    const run = encode(operands.slice(start));
    const fits = globCouldMatch(glob, run) || (glob !== '' && globCouldMatch(`${glob} *`, run));
    if (!fits) continue;
    if (!run.includes(WILD)) return 'matches';
    best = 'might';
  }
  return best;
}

/** The values of literal words from `from` on, joined by single spaces. */
function joinedValues(words: readonly ShellWord[], from: number): string {
  let text = '';
  for (let i = from; i < words.length; i++) text += (i === from ? '' : ' ') + words[i]!.value;
  return text;
}

/** Words as character codes joined by spaces; a word an expansion decides is one WILD. */
function encode(words: readonly ShellWord[]): number[] {
  const codes: number[] = [];
  words.forEach((word, i) => {
    if (i > 0) codes.push(32);
    if (word.value === null) codes.push(WILD);
    else for (let c = 0; c < word.value.length; c++) codes.push(word.value.charCodeAt(c));
  });
  return codes;
}

/**
 * Whether some text fits both the glob (`*` any run, `?` one character) and the pattern of the
 * command, where WILD stands for any run the shell decides at run time. Dynamic programming over
 * both, from their ends.
 */
export function globCouldMatch(glob: string, text: readonly number[]): boolean {
  const g = glob.length;
  const t = text.length;
  const width = t + 1;
  const table = new Uint8Array((g + 1) * width);
  table[g * width + t] = 1;
  for (let i = g; i >= 0; i--) {
    for (let j = t; j >= 0; j--) {
      if (i === g && j === t) continue;
      const star = i < g && glob[i] === '*';
      const wild = j < t && text[j] === WILD;
      let fits = false;
      if (star) fits = table[(i + 1) * width + j] === 1 || (j < t && table[i * width + j + 1] === 1);
      else if (wild) fits = table[i * width + j + 1] === 1 || (i < g && table[(i + 1) * width + j] === 1);
      else if (i < g && j < t) {
        fits = (glob[i] === '?' || glob.charCodeAt(i) === text[j]) && table[(i + 1) * width + j + 1] === 1;
      }
      table[i * width + j] = fits ? 1 : 0;
    }
  }
  return table[0] === 1;
}
