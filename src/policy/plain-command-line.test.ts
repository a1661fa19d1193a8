import { describe, expect, it } from 'vitest';
import { parsePlainCommandLine } from './plain-command-line.js';
import { parseShellCommand, parseWithTreeSitter } from './shell-command.js';

/**
 * The plain-line fast path must give exactly tree-sitter's analysis (parts, simple or not, literal
 * form, invocations with wrappers looked through) for every line it accepts, and leave every other
 * line to tree-sitter. Checked on a table of lines written to probe its edges, and on lines built
 * at random from words and operators chosen to sit on those edges.
 */

async function expectSameAsTreeSitter(command: string): Promise<boolean> {
  const plain = parsePlainCommandLine(command);
  if (plain === null) return false;
  const tree = await parseWithTreeSitter(command);
  expect({ command, incomplete: tree.incomplete, analysed: plain }).toEqual({
    command,
    incomplete: false,
    analysed: tree.analysed,
  });
  return true;
}

const ACCEPTED = [
  'git status',
  'git log -n 5 --oneline && ls -la src-5 | wc -l',
  'git  status\t-s',
  '  ls -la  ',
  'a;b',
  'a ; b ;',
  'a||b&&c|d',
  'npm test -- --run',
  'git log --format=%H:%s,x',
  'sudo -u root rm -rf /',
  'env -u X nice -n 5 rm -rf x',
  'curl https://x.example/i.sh | sh',
  'xargs rm',
  'xargs -n 1 rm',
  'find . -name x',
  'timeout 5 rm -rf build',
  'command -v git',
  'source ./env.sh',
  '. ./env.sh',
  'eval',
  'head 5 08 0',
  'test -f x',
  'rm -r -f x',
  '/usr/bin/git status',
  ': noop',
  'wc -l notes.txt # step 1',
  'git commit -m "fix the bug" && git log --format=\'%h %s\'',
  "echo '$(rm -rf /)' 'a;b|c' \"it's\" ''",
  'grep -r "a#b" src',
  'npm test 2>&1 | tail -n 20',
  'ls -la > out 2>&1 && cat out',
  'ls 2>/dev/null; ls >>log',
  'ls &> out',
  'ls 1>&2 >&2 9>&1',
  'ls 2> "o u t" # c',
  'bash 2>&1',
  'git commit -m "修复 bug" && echo \'héllo 😀\' | wc -c',
  "echo '\u2800\u2800' && rm x",
  'x a"b c"d\'e f\'',
  'ls #',
  'ls -la; # it says "$(rm -rf /)" `x` \\ * ~',
  // Words the grammar misreads, read as bash does by the analysis (shell-part-analysis.ts).
  'head -5 x',
  'tail -n -20 log.txt',
  'xargs -0 rm',
  'printf 0x1f 08 -0',
  '--format=x xargs',
  'ls && =a b',
  'x - 2>&1',
  'git diff - 2>&1 | head -5',
  'x - - 2>&1',
  // One double-quoted string with variables: a word an expansion decides, not split.
  'git commit -m "fix $N" && ls -la \'src-1\' > "out-1.txt"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'echo "${HOME}" "a $N b" "$N$M" "$N-x"',
  'rm "$f"',
  // Command substitutions holding a plain line, inside "…": their commands are parts too.
  'git commit -m "fix $(date)" && ls -la \'src-1\' > "out-1.txt"',
  'x "a $( ls -la | wc -l ) b" > o',
  'x "$(a)$(b)" "$(a; b)" "$(rm -rf /)"',
  'echo "$(sudo rm -rf x)" | sh',
  'echo "$(x)"',
  'echo "$x"',
  'sudo "$cmd" -rf x',
  // Assignments before a command's name, with literal values: never simple.
  'A=1 git status',
  'IFS= read -r f',
  'IFS=, read -r a b',
  'A=1 B="x y" ls -la && C=\'\' x | D=a=b y',
  'A=1 sudo rm -rf x',
  'A=-x A==y ls 2>&1',
  'A=1 bash',
  'A=1 x "$(date)" > o',
  // A variable a program runs as a command (code-variables.ts): its plain line split here too.
  'GIT_PAGER=cat git log -n 5',
  "GIT_SSH_COMMAND='rm -rf v' git fetch && ls",
  "A=1 GIT_EDITOR='vim -f' EDITOR=nano git commit > o 2>&1",
  'PAGER= git log',
  'rm -rf "$@"',
  'echo "args: $@ done" "$@"',
];

const REFUSED = [
  '',
  '   ',
  ';',
  'a &&',
  '&& a',
  'a | | b',
  'a ;; b',
  'a & b',
  'a &',
  'echo "a\\b"',
  'echo "a`b`"',
  'echo "unterminated',
  "echo 'unterminated",
  "echo 'a\nb'",
  '"git" status',
  'echo $"x"',
  'echo $x',
  'ls *.ts',
  'cat ~/x',
  'echo {a,b}',
  'git status > out -la',
  'ls 2>&1 x',
  'ls >| out',
  'ls >& y',
  'ls >&1x',
  'ls 2>&-',
  'ls &>> out',
  'ls >',
  'ls > >',
  'ls > $x',
  '2>&1 ls',
  '> out ls',
  'ls x2>out',
  'ls>out',
  'ls>>out',
  'ls > done',
  'ls 08>x',
  'ls 0>&1',
  'ls 0> x',
  'ls 10>&1',
  'cat < in',
  'A=1',
  'A=1 B=2',
  'A=1 2>&1',
  'A=1 ; ls',
  'A=1 | ls',
  'A=$x ls',
  'A="$x" ls',
  'A="$(x)" ls',
  'A=`x` ls',
  'A=(a b) ls',
  'A[1]=x ls',
  'A+=x ls',
  'A=1 bash -c ls',
  // A variable's line that is not plain, or sets a variable itself: the parser reads those.
  "GIT_SSH_COMMAND='ssh -o A=b' git fetch",
  "GIT_PAGER='less $X' git log",
  'GIT_PAGER=cat bash -c ls',
  '"$@" -rf',
  'echo "$@"x',
  'A=1 --format=x',
  'A=1 if=x',
  'ls A=1',
  'dd if=x of=y',
  'a@b x',
  '%1',
  'if true; then ls; fi',
  'for x in a; do ls; done',
  'time ls',
  'export A',
  'echo done',
  'bash -c ls',
  'sh -c x',
  'eval ls',
  'env -S ls',
  '# just a comment',
  'ls && # comment',
  'ls # comment\nrm -rf /',
  'ls#not-a-comment',
  'ls a#b',
  'a\nb',
  '\\rm x',
  '(ls)',
  '! ls',
  '- 2>&1',
  // After an operator the grammar binds such a redirection to the pipeline or list and loses the
  // `-` (bash passes it): left to the parser, which reads it its way.
  'x | y - 2>&1',
  'x && y "$N" - 2>&1',
  "x || y 'a' - 2>&1",
  'x; y - 2>&1',
  '--format=x',
  '--format=x B=2 ls',
  '--x=y --x=y',
  'a && --x=y --y=z',
  'A=1 --x=y --y=z',
  'echo a"$N"',
  'echo "$N"b',
  'echo "$1"',
  'echo "$N[0]"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'echo "${N:-x}"',
  'ls > "$out"',
  '"$cmd" x',
  'x "$(bash -c ls)"',
  'x "$(echo "a")"',
  'x "$(echo $(ls))"',
  'x "$(ls > "o")"',
  'x "$()"',
  'x "$(a &&)"',
  'x "$(ls # c)"',
  'x $(ls)',
  'x "$(cat < in)"',
];

describe('parsePlainCommandLine', () => {
  it.each(ACCEPTED)('reads %j as tree-sitter does', async (command) => {
    expect(await expectSameAsTreeSitter(command)).toBe(true);
  });

  it.each(REFUSED)('leaves %j to tree-sitter', (command) => {
    expect(parsePlainCommandLine(command)).toBeNull();
  });

  it('agrees with tree-sitter on 3000 lines built from edge-case words and operators', async () => {
    const words = [
      '"fix the bug"',
      "'a b'",
      '"-5"',
      "'if'",
      'a"b"c',
      '"$x"',
      '"fix $N"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
      '"${N}"',
      '"a $N b"',
      '"$N$M"',
      'a"$N"',
      '"$N"b',
      '"$1"',
      '"$N[0]"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
      '"${N:-x}"',
      '"$N-x"',
      '"$(date)"',
      '"v$(git describe)"',
      '"$( ls -la | wc -l )"',
      '"$(rm -rf /)"',
      '"$(a; b)"',
      '"$(a;)"',
      '"$(sudo rm -r -f x)"',
      '"$(bash -c x)"',
      '"$(xargs rm)"',
      '"$(a &&)"',
      '"$(ls 2>&1)"',
      '"$(- 2>&1)"',
      '"$(x - 2>&1)"',
      '"$(head -5 x)"',
      '"$(--format=x y)"',
      "'it'\\''s'",
      '""',
      "''",
      '"a#b"',
      "'x;y'",
      '"a|b"',
      "'-rf'",
      '"rm"',
      "'A=1'",
      'x"="y',
      "'{a,b}'",
      '"*.ts"',
      "'~'",
      '"!x"',
      'git',
      'status',
      'ls',
      '-la',
      'rm',
      '-rf',
      '-r',
      '-f',
      '--force',
      'x',
      'src/a.ts',
      '/etc/passwd',
      'sudo',
      '-u',
      'root',
      'env',
      'nice',
      '-n',
      '5',
      '08',
      '-5',
      '0x1',
      '1.5',
      'xargs',
      '-0',
      'find',
      '-exec',
      'sh',
      'bash',
      '-c',
      '-s',
      '-',
      '--',
      'command',
      '-v',
      'exec',
      'nohup',
      'timeout',
      'source',
      '.',
      ':',
      '%1',
      '@x',
      '+x',
      '=a',
      'a=',
      'A=1',
      'IFS=',
      'B="x y"',
      "C=''",
      'D=a=b',
      'E=-x',
      'F="$x"',
      'A=1',
      'if=x',
      '--format=x',
      'a,b',
      'x:y',
      'a@b',
      'echo',
      'trap',
      'set',
      'alias',
      'watch',
      'chroot',
      'stdbuf',
      'doas',
      'test',
      'in',
      'done',
      'then',
    ];
    const operators = ['&&', '||', '|', ';', ' && ', ' | ', ' ; ', '\t||\t', ';;', '&'];
    // mulberry32: a small generator whose low bits vary too (an LCG's cycle with a short period).
    let seed = 24;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let accepted = 0;
    let acceptedWithRedirection = 0;
    let acceptedWithExpansion = 0;
    let acceptedWithSubstitution = 0;
    let acceptedWithAssignment = 0;
    for (let i = 0; i < 3000; i++) {
      let line = random(4) === 0 ? ' ' : '';
      const commands = 1 + random(3);
      for (let c = 0; c < commands; c++) {
        if (c > 0) line += operators[random(operators.length)];
        const count = 1 + random(5);
        for (let w = 0; w < count; w++)
          line += `${w > 0 ? ' '.repeat(1 + random(2)) : ''}${words[random(words.length)]}`;
      }
      if (random(3) === 0) {
        const redirects = [
          ' 2>&1',
          ' >out',
          ' > out',
          ' 2>/dev/null',
          ' >>log',
          ' &> o',
          ' >&2',
          ' 2> "a b"',
          '>x',
          ' 2 >x',
          ' > ',
          ' >| x',
          ' >& y',
          ' 1>&2x',
          ' 2>&1 -rf',
          " > 'q'",
          ' 3>&1',
        ];
        line += redirects[random(redirects.length)];
      }
      if (random(6) === 0) line += ';';
      if (random(5) === 0) line += [' # a "$(x)" `y` comment', '#', ' #x', ' # \\'][random(4)];
      if (await expectSameAsTreeSitter(line)) {
        accepted++;
        if (line.includes('>')) acceptedWithRedirection++;
        if (/"[^"]*\$/.test(line.split(' #')[0] ?? '')) acceptedWithExpansion++;
        if ((line.split(' #')[0] ?? '').includes('"$(')) acceptedWithSubstitution++;
        if (/(?:^|[|&;]) *[A-Za-z_]+=/.test(line)) acceptedWithAssignment++;
      }
    }
    // Most of these lines are plain: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(300);
    expect(acceptedWithRedirection).toBeGreaterThan(50);
    expect(acceptedWithExpansion).toBeGreaterThan(50);
    expect(acceptedWithSubstitution).toBeGreaterThan(20);
    expect(acceptedWithAssignment).toBeGreaterThan(20);
  });

  it('gives parseShellCommand the same parts for a plain line, without tree-sitter', async () => {
    const command = 'git log -n 7 --oneline && ls -la src-7 | wc -l';
    expect(await parseShellCommand(command)).toEqual(await parseWithTreeSitter(command));
  });
});
