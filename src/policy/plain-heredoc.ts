import type { CommandPart } from './command-part.js';
import { parsePlainCommandLine, parsePlainTokens, redirectPart, tokenize } from './plain-command-line.js';
import { parsePlainLoop } from './plain-loop.js';
import { UNKNOWN_WORD } from './shell-words.js';

/**
 * Heredocs with a quoted delimiter, as models write them (`git commit -F - <<'EOF'`, `cat > f <<"EOF"`,
 * `<<\EOF`, `<<-'EOF'`), split without tree-sitter: the body of such a heredoc is literal data on
 * stdin — nothing in it is expanded or run — so the command is its lines outside the bodies. Each of
 * those lines is a plain line or a plain loop (plain-command-line.ts, plain-loop.ts), or a blank
 * line; a line that opens a heredoc ends with it (`PLAIN_LINE <<'EOF'`), and the heredoc's part (its
 * operator, body and end line, as tree-sitter's redirection node spans them) follows that line's parts.
 * Or it ends with a string that holds one in a command substitution, closed by `)"` at the start of
 * the line after the end line (`git commit -m "$(cat <<'EOF'` … `EOF` / `)" && git push`): the string
 * is one word an expansion decides, and the substitution's command and heredoc are parts after its
 * command, as tree-sitter lists a substitution's.
 *
 * Everything else returns null and goes to tree-sitter: an unquoted delimiter (its body is expanded),
 * a delimiter that is not a plain name, two heredocs on one line or anything after the operator on
 * its line (tree-sitter reads both wrongly), a missing end line, a carriage return (bash compares
 * `EOF\r` with the delimiter; tree-sitter does not), a body line that starts with the delimiter (after
 * blanks, quotes or backslashes) but is not the end line (`EOF `, `\tEOF`, `EOF;`, `EOFX`, `'EOF'`:
 * tree-sitter ends the body at several of these where bash does not), a shell reading the heredoc
 * (`bash <<'EOF'`: tree-sitter parses the body as code), a line that is neither plain nor a plain
 * loop, a string closed in any other way (`EOF)"`, `  )"`, `)"x`). The table test (plain-heredoc.test.ts) holds
 * this to tree-sitter's parse for every command it accepts, and checks that near misses are left to it.
 */
export interface PlainHeredocs {
  /** As tree-sitter lists them: each line's parts, a heredoc's part after its line's. */
  readonly parts: CommandPart[];
  /** The words the lines' `for` loops hand to their bodies (ParsedCommand.loopWords). */
  readonly loopWords: string[];
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** `<<'X'`, `<<"X"`, `<<\X`, `<<-…`, perhaps blanks after: the delimiter in group single, double or escaped. */
const OPERATOR = `<<(?<strip>-?)[ \\t]*(?:'(?<single>${NAME})'|"(?<double>${NAME})"|\\\\(?<escaped>${NAME}))[ \\t]*$`;
/** A heredoc operator ending its line, after a blank (`2<<`, `x<<` are left to the parser). */
const HEREDOC_AT_LINE_END = new RegExp(`[ \\t]${OPERATOR}`);
/**
 * `"$(cat <<'EOF'` ending its line, after a blank: a heredoc in a command substitution in a string
 * (`git commit -m "$(cat <<'EOF'` … `EOF` … `)"`).
 */
const HEREDOC_IN_STRING = new RegExp(`[ \\t]"\\$\\((?:[A-Za-z0-9_%+=:,./ \\t-]*)[ \\t]${OPERATOR}`);
/** What the text before a heredoc's operator may not end with: an operator (no command for it). */
const NO_COMMAND_BEFORE = /[;&|][ \t]*$/;
/** How a substitution holding a heredoc closes: the line after its end line starts with this. */
const CLOSES_STRING = ')"';

/** The parts and loop words of lines with quoted heredocs; null when the command is anything else. */
export function parsePlainHeredocs(command: string): PlainHeredocs | null {
  if (!command.includes('<<') || command.includes('\r')) return null;
  const parts: CommandPart[] = [];
  const loopWords: string[] = [];
  let heredocs = 0;
  let at = 0;
  while (at < command.length) {
    const lineEnd = endOfLine(command, at);
    const line = command.slice(at, lineEnd);
    const inString = HEREDOC_IN_STRING.exec(line);
    const heredoc = inString ?? HEREDOC_AT_LINE_END.exec(line);
    if (heredoc === null) {
      if (line.trim() !== '' && !readLine(line, parts, loopWords)) return null;
      at = lineEnd + 1;
      continue;
    }
    const { strip, single, double, escaped } = heredoc.groups ?? {};
    const delimiter = single ?? double ?? escaped ?? '';
    // The operator is the line's last `<<` (the delimiter holds none).
    const operatorAt = at + line.lastIndexOf('<<');
    const end = endLine(command, lineEnd + 1, delimiter, strip === '-');
    if (end === null) return null;
    const heredocPart = redirectPart(command.slice(operatorAt, end));
    heredocs++;
    if (inString) {
      const lineEnd = readLineWithString(
        command,
        at,
        at + inString.index + 1,
        operatorAt,
        end,
        heredocPart,
        parts,
      );
      if (lineEnd === null) return null;
      at = lineEnd + 1;
      continue;
    }
    const before = line.slice(0, heredoc.index + 1);
    // A `#` may start a comment that holds the operator: the body's lines would be commands.
    if (before.includes('#') || NO_COMMAND_BEFORE.test(before)) return null;
    const from = parts.length;
    if (!readLine(before, parts, loopWords) || !isHeredocInput(before, parts.slice(from))) return null;
    parts.push(heredocPart);
    at = end + 1;
  }
  return heredocs > 0 ? { parts, loopWords } : null;
}

/**
 * Whether the heredoc after `before` is input to its last command as tree-sitter reads it: no shell
 * reads it (`bash <<'EOF'`: tree-sitter parses the body as code), and a last word ending in `-` only
 * in a line's one command of several words (`git commit -F - <<'EOF'`, `python3 - <<'EOF'`): the
 * grammar drops it elsewhere, as it does before `2>&1`.
 */
function isHeredocInput(before: string, lineParts: readonly CommandPart[]): boolean {
  if (lineParts.some(readsUnknownWords)) return false;
  return (
    !/-[ \t]*$/.test(before) || (lineParts.length === 1 && (lineParts[0]?.invocations[0]?.length ?? 0) >= 2)
  );
}

/**
 * The line that opens a string `"$(CMD <<'EOF'` at `open` (its operator at `operatorAt`), whose body ends at `bodyEnd` and whose
 * next line closes it with `)"` and goes on as a plain line (`)" && git push`): its parts added, as
 * a plain line whose string is one word an expansion decides, with CMD and the heredoc as the parts
 * inside it. Returns where that line ends; null when it is anything else.
 */
function readLineWithString(
  command: string,
  at: number,
  open: number,
  operatorAt: number,
  bodyEnd: number,
  heredoc: CommandPart,
  parts: CommandPart[],
): number | null {
  const closing = bodyEnd + 1;
  if (!command.startsWith(CLOSES_STRING, closing)) return null;
  const close = closing + CLOSES_STRING.length;
  const inner = command.slice(open + '"$('.length, operatorAt);
  const innerParts = parsePlainCommandLine(inner);
  if (innerParts === null || !isHeredocInput(inner, innerParts)) return null;
  innerParts.push(heredoc);
  // The line with the string as one plain word of its length: tokenized as the plain line it then is.
  const lineEnd = endOfLine(command, close);
  const line = command.slice(at, lineEnd);
  const masked = line.slice(0, open - at) + 'a'.repeat(close - open) + line.slice(close - at);
  const tokens = tokenize(masked);
  const k = tokens?.findIndex((token) => token.start === open - at) ?? -1;
  const word = tokens?.[k];
  // The string stands alone as a word (not `x"$(…)"`, `A="$(…)"`, `"$(…)"x`, nor behind a comment).
  if (tokens === null || word === undefined || !('word' in word) || word.end !== close - at) return null;
  tokens[k] = {
    word: line.slice(word.start, word.end),
    value: null,
    start: word.start,
    end: word.end,
    inner: innerParts,
  };
  const lineParts = parsePlainTokens(line, tokens);
  if (lineParts === null || lineParts.some(readsUnknownWords)) return null;
  parts.push(...lineParts);
  return lineEnd;
}

function endOfLine(command: string, from: number): number {
  const end = command.indexOf('\n', from);
  return end === -1 ? command.length : end;
}

/** A line outside the bodies: its parts and loop words added; false when it is neither a plain line nor a plain loop. */
function readLine(line: string, parts: CommandPart[], loopWords: string[]): boolean {
  const loop = parsePlainLoop(line);
  if (loop) {
    parts.push(...loop.parts);
    loopWords.push(...loop.loopWords);
    return true;
  }
  const plain = parsePlainCommandLine(line);
  if (plain === null) return false;
  parts.push(...plain);
  return true;
}

function readsUnknownWords(part: CommandPart): boolean {
  return part.invocations.some((words) => words.some((word) => word === UNKNOWN_WORD || word.text === '…'));
}

/**
 * Where the body that starts at `from` ends: the end of its end line (the delimiter alone, after
 * tabs for `<<-`). Null when there is none, or a line before it starts with the delimiter (after blanks, quotes or
 * backslashes).
 */
function endLine(command: string, from: number, delimiter: string, stripsTabs: boolean): number | null {
  let at = from;
  while (at < command.length) {
    const lineEnd = endOfLine(command, at);
    const line = command.slice(at, lineEnd);
    const text = stripsTabs ? line.replace(/^\t+/, '') : line;
    if (text === delimiter) return lineEnd;
    // Tree-sitter ends a body early at some of these (`EOF `, `\tEOF`, `EOF;`, `\EOF` after `<<- \EOF`).
    if (line.replace(/^[\s\\'"]+/, '').startsWith(delimiter)) return null;
    at = lineEnd + 1;
  }
  return null;
}
