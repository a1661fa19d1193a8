import { describe, expect, it } from 'vitest';
import { parsePlainLoop } from './plain-loop.js';
import { parseShellCommand, parseWithTreeSitter } from './shell-command.js';

/**
 * The plain-loop fast path must give exactly tree-sitter's parse (parts with their analysis, the
 * loop's words, read whole) for every line it accepts, and leave every other line to tree-sitter.
 */

async function expectSameAsTreeSitter(command: string): Promise<boolean> {
  const plain = parsePlainLoop(command);
  if (plain === null) return false;
  const tree = await parseWithTreeSitter(command);
  expect({ command, incomplete: tree.incomplete, analysed: plain.parts, loopWords: plain.loopWords }).toEqual(
    {
      command,
      incomplete: false,
      analysed: tree.analysed,
      loopWords: tree.loopWords,
    },
  );
  return true;
}

const ACCEPTED = [
  'for f in src-1/*.ts; do wc -l "$f"; done > "out-1.txt"',
  'for f in a? "b c" a"b" *.ts -a --b 1 08; do echo "$f" 2>&1; rm x; done 2>&1 >>o',
  'for f in a;do x;done',
  '  for f in a ;  do\tx ;done # c',
  'for f in a; do x "$(date)"; done',
  'for f in a; do git commit -m "fix $f" && ls -la | wc -l; done',
  'for f in a; do sudo rm -rf "$f"; done',
  'for f in a; do x - 2>&1; done',
  'for f in \'a b\' "c"; do cat "$f"; done',
  'for f in *.env; do cat "$f"; done',
  'for f in a; do bash -c "$f"; done',
  // A loop after a plain line, and a plain line after it.
  'for f in a; do x; done && y',
  'for f in a; do x; done | y',
  'for f in a; do x; done;',
  'for f in a; do x; done; # c',
  'cd src && for f in *.ts; do wc -l "$f"; done | sort -n > o',
  'ls | for f in a b; do echo "$f"; done',
  // while and until: a plain line as the condition.
  'ls src-1 | while read -r f; do wc -l "$f"; done > "out-1.txt"',
  'while read -r f; do wc -l "$f"; done < files.txt',
  'while read -r f; do wc -l "$f"; done <files.txt',
  'while read -r f; do x; done < "a b.txt" 2>&1 > o',
  'git ls-files | while read -r line; do echo "$line" && x || y; done',
  'a 2>&1 | while read l; do echo "$l"; done | tail -5',
  'until false; do x; done',
  'until git pull; do sleep 5; done && echo ok',
  'while true; do date; sleep 1; done',
  'while :; do x; done',
  'while x && y || z; do w; done',
  'while x | y; do z; done',
  'while read f 2>/dev/null; do x > o 2>&1; rm -rf "$f"; done',
  'ls; while true; do x; done; echo end # c',
  '  while\tread f ;do x;done',
  'while read f; do bash; done < script.sh',
  'cat list | while read f; do sudo rm -rf "$f"; done',
  'while read f; do bash -c "$f"; done',
  'while read f; do x "$(date)"; done',
  'until x; do y; done || z',
  'while IFS= read -r line; do echo "$line"; done < list.txt',
  'A=1 x | for f in a; do B= y "$f"; done',
  'while x - 2>&1; do y; done',
  'x - 2>&1 | while read f; do y; done',
];

const REFUSED = [
  'for f in a; do x; done x',
  'for f in a; do x; done &',
  'for f in a; do x; done > "$out"',
  'for f in a; do x; done && ',
  'for f in a; do x; done | # c',
  'for f in a; do x; done ; ; y',
  'for f in a; do x; done 0< in',
  'for f in a; do x; done 2< in',
  'for f in a; do x; done <in x',
  'for f in a; do x; done < in > "$o"',
  'for f in a; do x; done | y < in',
  'for f in a; do x; done | y *.ts',
  'for f in a; do x && done',
  'for f in a; do ; done',
  'for f in a; do done',
  'for f in a; dox; done',
  'for f in a; do x',
  'for f in a; do x; done; done',
  'for f in a; do echo done; done',
  'for f in a; do for g in b; do x; done; done',
  'for f in; do x; done',
  'for f; do x; done',
  'for f in a do x; done',
  'for f in a\ndo x; done',
  'for f in a; do x\ndone',
  'for f in $(ls); do x; done',
  'for f in `ls`; do x; done',
  'for f in "$x"; do x; done',
  'for f in $x; do x; done',
  'for f in ~/x; do x; done',
  'for f in {a,b}; do x; done',
  'for f in a[1]; do x; done',
  'for f in @(a|b); do x; done',
  'for f in a#b; do x; done',
  'for f in a=b; do x; done',
  'for f in do; do x; done',
  'for do in a; do x; done',
  'for 1f in a; do x; done',
  'for ((i=0; i<3; i++)); do x; done',
  'select f in a; do x; done',
  'for f in a; do $f; done',
  'for f in a; do x < in; done',
  'forf in a; do x; done',
  'x & for f in a; do x; done',
  'x ; ; for f in a; do x; done',
  'x | | for f in a; do x; done',
  'echo "a; for" f in a; do x; done',
];

describe('parsePlainLoop', () => {
  it.each(ACCEPTED)('reads %j as tree-sitter does', async (command) => {
    expect(await expectSameAsTreeSitter(command)).toBe(true);
  });

  it.each(REFUSED)('leaves %j to tree-sitter', (command) => {
    expect(parsePlainLoop(command)).toBeNull();
  });

  it('agrees with tree-sitter on 1500 loops built from edge-case words and bodies', async () => {
    const loopWords = [
      'a',
      '*.ts',
      'src/*',
      'a?',
      '"b c"',
      "'d'",
      'x"y"',
      '-n',
      '08',
      '*',
      'do',
      'done',
      'in',
      '$x',
      '"$x"',
      '~',
      'a[1]',
      '{a,b}',
      'a=b',
      "'$(x)'",
    ];
    const bodies = [
      'x',
      'wc -l "$f"',
      'rm -rf "$f" 2>&1',
      'a && b | c',
      'cat "$f" > out',
      'x "$(date)"',
      'echo done',
      'a &&',
      'bash -c x',
      'x;',
      '"$f"',
      'git log -n 5',
    ];
    const tails = [
      '',
      ' > o',
      ' 2>&1',
      ' >>"a b"',
      ' 2>/dev/null >o',
      ' # c',
      ' x',
      ' && y',
      ';',
      ' | z',
      ' > "$o"',
    ];
    const gaps = [' ', '  ', '\t', ''];
    const { random, pick } = generator(24);
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const words = Array.from({ length: 1 + random(3) }, () => pick(loopWords)).join(' ');
      const body = Array.from({ length: 1 + random(2) }, () => pick(bodies)).join('; ');
      const line = `for f in ${words}${pick(gaps)};${pick(gaps)}do ${body};${pick(gaps)}done${pick(tails)}`;
      if (await expectSameAsTreeSitter(line)) accepted++;
    }
    // Many of these loops are plain: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(100);
  });

  it('agrees with tree-sitter on 2000 while and until loops between plain lines', async () => {
    const conditions = [
      'read -r f',
      'read f 2>/dev/null',
      'true',
      ':',
      'false',
      'x && y',
      'x | y',
      'git pull || z',
      'test -f x',
      '"$x"',
      'x "$(y)"',
      '! x',
      'x;',
      'do',
      'echo done',
      '[ -f x ]',
      'x &&',
      'IFS= read -r f',
    ];
    const bodies = [
      'x',
      'wc -l "$f"',
      'sleep 1',
      'echo "$line" && x || y',
      'rm -rf "$f" 2>&1',
      'cat "$f" > out',
      'x "$(date)"',
      'bash',
      'bash -c "$f"',
      'sudo rm -r -f x',
      'x;',
      'done',
      'x < in',
      'echo "a;b"',
      'x &&',
      '$f',
    ];
    const befores = [
      '',
      '',
      'ls src-1 | ',
      'git ls-files|',
      'cd src && ',
      'x; ',
      'a 2>&1 | ',
      'x || ',
      'x |',
      'A=1 x | ',
      '# c | ',
    ];
    const tails = [
      '',
      '',
      ' > o',
      ' < in',
      '<in',
      ' < "a b" 2>&1',
      ' 2< in',
      ' <<< x',
      ' # c',
      ';',
      '; # c',
      ' | sort -n',
      ' && echo ok',
      ' || y > o',
      '; z',
      ' x',
      ' | while x; do y; done',
      ' &',
    ];
    const gaps = [' ', '  ', '\t', ''];
    const { random, pick } = generator(25);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const keyword = random(3) === 0 ? 'until' : 'while';
      const body = Array.from({ length: 1 + random(2) }, () => pick(bodies)).join('; ');
      const line = `${pick(befores)}${keyword} ${pick(conditions)}${pick(gaps)};${pick(gaps)}do ${body};${pick(gaps)}done${pick(tails)}`;
      if (await expectSameAsTreeSitter(line)) accepted++;
    }
    // Many of these loops are plain: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(200);
  });

  it('gives parseShellCommand the same parse for a plain loop, without tree-sitter', async () => {
    for (const command of [
      'for f in src-7/*.ts; do wc -l "$f"; done > "out-7.txt"',
      'ls src-7 | while read -r f; do wc -l "$f"; done > "out-7.txt"',
    ]) {
      expect(parsePlainLoop(command)).not.toBeNull();
      expect(await parseShellCommand(command)).toEqual(await parseWithTreeSitter(command));
    }
  });
});

/** mulberry32: a small seeded generator whose low bits vary too. */
function generator(seed: number): { random: (n: number) => number; pick: <T>(items: readonly T[]) => T } {
  const random = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  return { random, pick: (items) => items[random(items.length)]! };
}
