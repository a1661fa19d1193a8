import type { CommandPart } from './command-part.js';
import { parsePlainCommandLine, redirectPart } from './plain-command-line.js';
import { parsePlainLoop } from './plain-loop.js';
import { UNKNOWN_WORD } from './shell-words.js';

/**
 * Heredocs with a quoted delimiter, as models write them (`git commit -F - <<'EOF'`, `cat > f <<"EOF"`,
 * `<<\EOF`, `<<-'EOF'`), split without tree-sitter: the body of such a heredoc is literal data on
 * stdin — nothing in it is expanded or run — so the command is its lines outside the bodies. Each of
 * those lines is a plain line or a plain loop (plain-command-line.ts, plain-loop.ts), or a blank
 * line; a line that opens a heredoc ends with it (`PLAIN_LINE <<'EOF'`), and the heredoc's part (its
 * operator, body and end line, as tree-sitter's redirection node spans them) follows that line's parts.
 *
 * Everything else returns null and goes to tree-sitter: an unquoted delimiter (its body is expanded),
 * a delimiter that is not a plain name, two heredocs on one line or anything after the operator on
 * its line (tree-sitter reads both wrongly), a missing end line, a carriage return (bash compares
 * `EOF\r` with the delimiter; tree-sitter does not), a body line that starts with the delimiter (after
 * blanks, quotes or backslashes) but is not the end line (`EOF `, `\tEOF`, `EOF;`, `EOFX`, `'EOF'`:
 * tree-sitter ends the body at several of these where bash does not), a shell reading the heredoc (`bash <<'EOF'`: tree-sitter parses the body as
 * code), a line that is neither plain nor a plain loop. The table test (plain-heredoc.test.ts) holds
 * this to tree-sitter's parse for every command it accepts, and checks that near misses are left to it.
 */
export interface PlainHeredocs {
  /** As tree-sitter lists them: each line's parts, a heredoc's part after its line's. */
  readonly parts: CommandPart[];
  /** The words the lines' `for` loops hand to their bodies (ParsedCommand.loopWords). */
  readonly loopWords: string[];
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** A heredoc operator with a quoted delimiter, ending its line: after a blank (`2<<`, `x<<` are left to the parser). */
const HEREDOC_AT_LINE_END = new RegExp(
  `[ \\t]<<(-?)[ \\t]*(?:'(${NAME})'|"(${NAME})"|\\\\(${NAME}))[ \\t]*$`,
);
/** What the text before a heredoc's operator may not end with: an operator (no command for it). */
const NO_COMMAND_BEFORE = /[;&|][ \t]*$/;

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
    const heredoc = HEREDOC_AT_LINE_END.exec(line);
    if (heredoc === null) {
      if (line.trim() !== '' && !readLine(line, parts, loopWords)) return null;
      at = lineEnd + 1;
      continue;
    }
    const before = line.slice(0, heredoc.index + 1);
    // A `#` may start a comment that holds the operator: the body's lines would be commands.
    if (before.includes('#') || NO_COMMAND_BEFORE.test(before)) return null;
    const from = parts.length;
    if (!readLine(before, parts, loopWords)) return null;
    const lineParts = parts.slice(from);
    // A shell reading the heredoc runs its body: tree-sitter parses it as code.
    if (lineParts.some(readsUnknownWords)) return null;
    // The grammar drops a last word ending in `-` before the operator, but in a line's only command of
    // several words (`git commit -F - <<'EOF'`, `python3 - <<'EOF'`), as it does before `2>&1`.
    if (
      /-[ \t]*$/.test(before) &&
      (lineParts.length !== 1 || (lineParts[0]?.invocations[0]?.length ?? 0) < 2)
    )
      return null;
    const delimiter = heredoc[2] ?? heredoc[3] ?? heredoc[4] ?? '';
    const end = endLine(command, lineEnd + 1, delimiter, heredoc[1] === '-');
    if (end === null) return null;
    parts.push(redirectPart(command.slice(at + heredoc.index + 1, end)));
    heredocs++;
    at = end + 1;
  }
  return heredocs > 0 ? { parts, loopWords } : null;
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
