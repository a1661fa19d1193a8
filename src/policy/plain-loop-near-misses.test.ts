import { describe, expect, it } from 'vitest';
import { parsePlainLoop } from './plain-loop.js';
import { parseShellCommand, parseWithTreeSitter } from './shell-command.js';

/**
 * Lines a loop fast path could misread: each must be left to tree-sitter (a wrong split there would
 * be a wrong decision), whether or not tree-sitter finds a loop in it.
 */
const NEAR_MISSES = [
  // Heredocs and here-strings.
  'while read f; do x; done <<EOF\na\nEOF',
  "while read f; do x; done <<'EOF'\n$(rm -rf /)\nEOF",
  'while read f; do x; done <<< "a b"',
  'cat <<EOF | while read f; do x; done\na\nEOF',
  'while read f; do x <<EOF; done\ndone\nEOF',
  // Command substitutions in the condition, backticks anywhere.
  'while $(x); do y; done',
  'while "$(x)"; do y; done',
  'while x "$(y)"; do z; done',
  'while x "a$(y)b"; do z; done',
  'until [ "$(x)" = y ]; do z; done',
  'while `x`; do y; done',
  'while x; do `y`; done',
  'while x; do echo "`y`"; done',
  "while x; do echo '`y`'; done",
  'for f in a; do echo `y`; done',
  'while read f < <(ls); do x; done',
  'while read f; do x; done < <(ls)',
  // Arithmetic, tests, case.
  'while ((i < 3)); do x; done',
  'while (( i++ < 3 )); do x; done',
  'for ((i = 0; i < 3; i++)); do x; done',
  'while [ -f x ]; do y; done',
  'while [[ -f x ]]; do y; done',
  'while read f; do case $f in a) x;; esac; done',
  'while read f; do case "$f" in a) x ;; *) y ;; esac; done',
  // Nested loops, loops after loops, other compound commands.
  'while true; do for f in a; do x; done; done',
  'while x; do while y; do z; done; done',
  'for f in a; do while x; do y; done; done',
  'until x; do until y; do z; done; done',
  'while x; do y; done | while z; do w; done',
  'for f in a; do x; done; for g in b; do y; done',
  'while x; do if y; then z; fi; done',
  'while x; do { y; }; done',
  'while x; do (y); done',
  '{ while x; do y; done; }',
  '(while x; do y; done)',
  '! while x; do y; done',
  'time while x; do y; done',
  'while x; do f() { y; }; done',
  // Comments that hide a keyword.
  'while x # ; do y; done',
  'while x; do y # ; done',
  'ls # | while x; do y; done',
  'while x; do y; done # c\nrm -rf /',
  'while x; do y; done #c\n',
  // Line continuations and line breaks.
  'while x; \\\ndo y; done',
  'while x; do y \\\n-rf; done',
  'while read f; do x; done \\\n> o',
  'while x\ndo y\ndone',
  'while x; do y; done\nrm -rf /',
  'while x; do\ny; done',
  // Quotes spanning `;` or a keyword.
  'while x "a; do y; done"; do z; done',
  'while x; do echo "a; done"; done',
  "while x; do echo '; done'; done",
  'while x "a;"; do y; done',
  'while x; do y "a;b"; done',
  'for f in "a;b"; do x; done',
  'while x; do y; done > "a;b"',
  'echo "x;" | while read f; do y; done',
  'while x; do y; done | echo "a;"',
  'while x "unterminated; do y; done',
  // `done` or `do` as a word in quotes, or glued to other words.
  'while x; do echo "done"; done',
  "while x; do echo 'done'; done",
  'while echo "do"; do y; done',
  'while x; do echo done; done',
  'while x; do y; done"done"',
  'while x; do y; "done"',
  "while x; do y; 'done'",
  'for f in "done"; do x; done',
  "for f in 'do'; do x; done",
  'echo "done" | while read f; do x; done',
  'while x; do y; done | echo "do it"',
  'while x; dox; done',
  'while x;do y;donex',
  'while x; doy; done',
  'while x; do y; done2',
  'while x; do y; xdone',
  'while x; do y; done>o',
  'while x; do y; done<in',
  'while x; do y; done;done',
  'whilex; do y; done',
  'untilx; do y; done',
  'while; do y; done',
  'while x; do; done',
  'while x; do ; done',
  'while x; do y; done &',
  'while x; do y & done',
  'while x; do y; done |& z',
  // Words the grammar reads as assignments, where bash runs a command.
  'while --x=y --x=y; do nice; done',
  'until x; do --x=y --x=y; done',
  // A lone `-` before a redirection after an operator (the grammar loses it).
  'for f in a; do x; done | y - 2>&1',
  'while x; do a && y - 2>&1; done',
  'while x; do a; y - 2>&1; done',
  'until a | x - 2>&1; do y; done',
  // Expansions and globs a plain line does not hold.
  'while read -r f; do wc -l $f; done',
  'while read f; do x *.ts; done',
  'while read f; do x ~/y; done',
  'while read f; do x {a,b}; done',
  'while read f; do x; done > $o',
  'while read f; do x; done < "$in"',
];

describe('parsePlainLoop near misses', () => {
  it.each(NEAR_MISSES)('leaves %j to tree-sitter', async (command) => {
    expect(parsePlainLoop(command)).toBeNull();
    // And the decision reads tree-sitter's parse for it.
    expect(await parseShellCommand(command)).toEqual(await parseWithTreeSitter(command));
  });
});
