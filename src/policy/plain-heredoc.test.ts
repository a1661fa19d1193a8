import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../kosong/providers/chaos/seeded-random.js';
import { parsePlainHeredocs } from './plain-heredoc.js';
import { parseShellCommand, parseWithTreeSitter } from './shell-command.js';

/**
 * The heredoc fast path must give exactly tree-sitter's parse (parts with their analysis, the loops'
 * words, read whole) for every command it accepts, and leave every other command to tree-sitter.
 */

async function expectSameAsTreeSitter(command: string): Promise<boolean> {
  const plain = parsePlainHeredocs(command);
  if (plain === null) return false;
  const tree = await parseWithTreeSitter(command);
  expect({ command, incomplete: tree.incomplete, analysed: plain.parts, loopWords: plain.loopWords }).toEqual(
    { command, incomplete: false, analysed: tree.analysed, loopWords: tree.loopWords },
  );
  return true;
}

const ACCEPTED = [
  "git commit -F - <<'EOF'\nfix 1\n\nin src-1\nEOF",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  "cat > file <<'EOF'\nhello $(rm -rf /) `rm -rf /` ${x} 'a' \"b\" \\\nEOF",
  'cat > "a b.txt" <<"EOF"\nx\nEOF',
  'cat <<\\EOF\nx\nEOF',
  "cat <<-'EOF'\n\tx\n\t\tEOF",
  'cat <<- "EOF"\n\t\tx\nEOF',
  "cat << 'EOF'\nx\nEOF",
  "cat <<'EOF'  \nx\nEOF",
  "cat <<'EOF'\nEOF",
  "cat <<'EOF'\n\nEOF\n",
  "cat <<'EOF'\nx\nEOF\n\n",
  "cat <<'EOF'\nx EOF\n$(EOF)\n`EOF`\nx\nEOF",
  "cat <<'EOF_2'\nEOF\nEOF_2",
  "a && cat <<'EOF'\nx\nEOF",
  "ls | cat <<'EOF'\nx\nEOF",
  "mkdir -p a && cat > a/b.ts <<'EOF'\nexport const x = 1;\nEOF\nnpm test",
  "cat <<'A'\na\nA\ncat >> f <<'B'\nb\nB\necho ok",
  "sudo tee /etc/x <<'EOF'\nx\nEOF",
  'while read -r l; do echo "$l"; done <<\'EOF\'\na\nb\nEOF',
  "for f in a b; do x; done > o <<'EOF'\nx\nEOF",
  'cat <<\'EOF\'\nx\nEOF\nfor f in *.ts; do wc -l "$f"; done',
  "A=1 git commit -F - <<'EOF'\nx\nEOF",
  "git commit -m x <<'EOF' \nx\nEOF\ngit push",
  // A heredoc in a command substitution in a string.
  'git commit -m "$(cat <<\'EOF\'\nfix\nEOF\n)"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'git commit -m "$(cat <<\'EOF\'\nfix(scope): a "b" it\'s `x` $(rm -rf /) ${y} )"\n\nCo-Authored-By: x <a@b>\nEOF\n)"',
  'git add a && git commit -m "$(cat <<\'EOF\'\nx\nEOF\n)" && git push',
  'git commit -m "$(cat <<"EOF"\nx\nEOF\n)" 2>&1 | tail -5',
  'git commit -m "$(cat <<-\'EOF\'\n\tx\n\tEOF\n)"; ls',
  'gh pr create --title "t" --body "$(cat <<\'EOF\'\n## Summary\n- a\nEOF\n)"',
  "git commit -m \"$(cat <<'A'\na\nA\n)\"\ncat <<'B'\nb\nB",
  "python3 - <<'EOF'\nimport os\nos.system('rm -rf /')\nEOF",
];

const REFUSED = [
  // Unquoted delimiters: the body is expanded.
  'cat <<EOF\nx\nEOF',
  'cat <<-EOF\n\tx\n\tEOF',
  // Delimiters that are not a plain name, quoted whole.
  "cat <<'E F'\nx\nE F",
  'cat <<"EO"F\nx\nEOF',
  "cat <<'EOF'x\nx\nEOFx",
  "cat <<''\nx\n",
  // Anything after the operator on its line.
  "cat <<'EOF' > f\nx\nEOF",
  "cat <<'EOF' | grep x\nx\nEOF",
  "cat <<'EOF' && y\nx\nEOF",
  "cat <<'EOF' # c\nx\nEOF",
  "cat <<'A' <<'B'\na\nA\nb\nB",
  "cat <<'A' && cat <<'B'\na\nA\nb\nB",
  // No blank before the operator, a descriptor, nothing or `-` before it, a comment.
  "cat<<'EOF'\nx\nEOF",
  "cat 2<<'EOF'\nx\nEOF",
  "<<'EOF'\nx\nEOF",
  "a && <<'EOF'\nx\nEOF",
  "a; <<'EOF'\nx\nEOF",
  "a # c <<'EOF'\nrm x\nEOF",
  "echo 'a <<'EOF'\nrm x\nEOF",
  // No end line, or a body line tree-sitter may read as the end.
  "cat <<'EOF'\nx",
  "cat <<'EOF'\nx\nEO",
  "cat <<'EOF'",
  "cat <<'EOF'\nEOF \nrm x\nEOF",
  "cat <<'EOF'\n EOF\nrm x\nEOF",
  "cat <<'EOF'\n\tEOF\nrm x\nEOF",
  "cat <<-'EOF'\n \tEOF\nrm x\nEOF",
  "cat <<'EOF'\nEOFX\nrm x\nEOF",
  "cat <<'EOF'\nEOF;\nrm x\nEOF",
  "cat <<'EOF'\nEOF)\nrm x\nEOF",
  "cat <<'EOF'\n'EOF'\nrm x\nEOF",
  'cat <<- \\EOF\n\\EOF\nEOF\n',
  "cat <<'EOF'\nEOF|x\nrm x\nEOF",
  // Carriage returns.
  "cat <<'EOF'\r\nx\r\nEOF\r\n",
  "cat <<'EOF'\nx\nEOF\r\n",
  // A shell reading the heredoc runs its body.
  "bash <<'EOF'\nrm -rf /\nEOF",
  "sudo sh -s <<'EOF'\nrm -rf /\nEOF",
  "x | bash <<'EOF'\nrm -rf /\nEOF",
  // Lines that are neither plain nor a plain loop.
  "cat <<'EOF'\nx\nEOF\necho $(rm x)",
  "cat <<'EOF'\nx\nEOF\n# c",
  'cat "$(x)" <<\'EOF\'\nx\nEOF\nif',
  "if x; then cat <<'EOF'\nx\nEOF\nfi",
  // A heredoc in a string: only `"$(CMD <<'X'`, `X`, `)"` and the rest of a plain line.
  'git commit -m "$(cat <<\'EOF\'\nx\nEOF)"',
  'git commit -m "$(cat <<\'EOF\'\nx\nEOF\n  )"',
  'git commit -m "$(cat <<\'EOF\'\nx\nEOF\n)"x',
  "git commit -m \"$(cat <<'EOF'\nx\nEOF\n)",
  'git commit -m "$(cat <<\'EOF\'\nx\nEOF\n)\n"',
  'git commit -m x"$(cat <<\'EOF\'\nx\nEOF\n)"',
  'A="$(cat <<\'EOF\'\nx\nEOF\n)" git commit',
  'git commit -m "$(cat <<EOF\nx\nEOF\n)"',
  'git commit -m "$(cat <<\'EOF\' | x\nx\nEOF\n)"',
  'git commit -m "$(a | cat <<\'EOF\'\nx\nEOF\n)"',
  'a # c "$(cat <<\'EOF\'\nx\nEOF\n)"',
  'bash -c "$(cat <<\'EOF\'\nrm -rf /\nEOF\n)"',
  'x "$(bash <<\'EOF\'\nrm -rf /\nEOF\n)"',
  'x "$(cat <<\'EOF\'\nEOF \nEOF\n)"',
  'x "a $(cat <<\'EOF\'\nx\nEOF\n)"',
  // No heredoc at all.
  'a\nb',
];

describe('parsePlainHeredocs', () => {
  it.each(ACCEPTED)('reads %j as tree-sitter does', async (command) => {
    expect(await expectSameAsTreeSitter(command)).toBe(true);
  });

  it.each(REFUSED)('leaves %j to tree-sitter', (command) => {
    expect(parsePlainHeredocs(command)).toBeNull();
  });

  it('agrees with tree-sitter on 3000 commands built from edge-case heredocs', async () => {
    // Each piece: the usual kinds, and near misses picked one time in eight. D stands for the delimiter.
    const names = { usual: ['EOF', 'E', 'END_2'], near: ['x', 'do'] };
    const quotes = {
      usual: [(n: string) => `'${n}'`, (n: string) => `"${n}"`, (n: string) => `\\${n}`],
      near: [(n: string) => n, (n: string) => `'${n} '`, (n: string) => `"${n}"x`, (n: string) => `$'${n}'`],
    };
    const operators = { usual: ['<<', '<<-', '<< ', '<<- '], near: ['<<\t', '<<<', '<', '2<<', '<<-\t'] };
    const heads = {
      usual: [
        'cat',
        'git commit -F -',
        'python3 -',
        'cat > f',
        'cat >> "a b"',
        'a && cat',
        'x | tee o',
        'A=1 cat',
        'git commit -m "fix $N"',
        'for f in a; do x; done',
        'while read l; do echo "$l"; done',
        'sudo tee /etc/x',
      ],
      near: [
        'bash',
        'sh -s',
        'a | bash',
        'x -',
        '-',
        'a | x -',
        'a && x -',
        'x - -',
        'x >&2 -',
        'cat "$f"',
        'cat $(x)',
        'echo "#"',
        'a # c',
        'a;',
        '',
        "echo 'a",
        'x &',
        'cat',
      ],
    };
    const gaps = { usual: [' ', '  '], near: ['', '\t'] };
    const afterOperator = { usual: ['', ' '], near: [' > f', ' | y', ' # c', " <<'B'", ' && z', ';', ' x'] };
    const bodyLines = {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
      usual: ['x', '', 'fix 1: a $(rm -rf /) `rm -rf /` ${x} $D', "it's", '"', 'x D', '$(D)', '`D`', '\t\tx'],
      near: [
        "'D'",
        '"D"',
        'D ',
        ' D',
        '\tD',
        'DX',
        'D;',
        'D)',
        'D # c',
        'D&',
        'D|x',
        '\\D',
        'x\r',
        'EOF',
        'E',
      ],
    };
    const endLines = { usual: ['D'], near: ['\tD', '\t\tD', 'D ', ' D', 'D\r', 'DX', '', 'D;'] };
    const tails = {
      usual: ['', '\n', '\n\n', '\nnpm test && git push', '\nfor f in a; do x; done', '\ngit add f\n'],
      near: ['\necho done', '\n# c', '\n$(x)', '\nfi', '\r\n', '\n)', '\n  \t'],
    };
    const random = seeded(24);
    const pick = <T>(kinds: { usual: readonly T[]; near: readonly T[] }): T => {
      const items = random(8) === 0 ? kinds.near : kinds.usual;
      return items[random(items.length)]!;
    };
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const lines: string[] = [];
      for (let h = 1 + random(2); h > 0; h--) {
        const name = pick(names);
        const opener = `${pick(heads)}${pick(gaps)}${pick(operators)}${pick(quotes)(name)}${pick(afterOperator)}`;
        const body = Array.from({ length: random(4) }, () => pick(bodyLines));
        lines.push(...[opener, ...body, pick(endLines)].map((line) => line.replaceAll('D', name)));
      }
      const command = lines.join('\n') + pick(tails);
      if (await expectSameAsTreeSitter(command)) accepted++;
    }
    // Many of these commands are accepted: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(500);
  });

  it('agrees with tree-sitter on 2000 commands with a heredoc in a string ("$(cat <<\'EOF\' … )")', async () => {
    const names = { usual: ['EOF', 'END_2'], near: ['x', 'cat'] };
    const operators = {
      usual: ["<<'D'", '<<"D"', '<<\\D', "<<-'D'", "<< 'D'"],
      near: ['<<D', "<<'D' | x", "<<'D')"],
    };
    const outers = {
      usual: [
        'git commit -m',
        'git add a && git commit -m',
        'gh pr create --title "t" --body',
        'x -m',
        'git commit -q -m',
      ],
      near: ['', 'bash -c', 'A=1; x', 'x # c', 'x a', 'x "a', "x 'a", 'A=', 'x -'],
    };
    const gaps = { usual: [' '], near: ['', '  ', '\t'] };
    const inners = { usual: ['cat', 'cat -'], near: ['bash', 'x | cat', 'cat a', '', 'sh -s', 'tee o', '-'] };
    const bodyLines = {
      usual: [
        'fix(scope): x',
        '',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
        'a "b" it\'s `x` $(rm -rf /) ${y}',
        ')"',
        ')',
        '"',
        'Co-Authored-By: x <a@b>',
        '\tx',
      ],
      near: ['D', 'D)', 'D ', ' D', '\tD', 'D)"', 'x\r'],
    };
    const endLines = { usual: ['D'], near: ['D)', '\tD', 'D )', '\t\tD'] };
    const closings = {
      usual: [')"', ')" && git push', ')" 2>&1', ')"; ls', ')" | tail -5'],
      near: [' )"', ')"x', ')', ')\n"', ')" "$(x)"', ')" # c', ')" &'],
    };
    const tails = { usual: ['', '\n', '\ngit push', "\ncat <<'E'\nx\nE"], near: ['\necho done', '\n$(x)'] };
    const random = seeded(25);
    const pick = <T>(kinds: { usual: readonly T[]; near: readonly T[] }): T => {
      const items = random(8) === 0 ? kinds.near : kinds.usual;
      return items[random(items.length)]!;
    };
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const name = pick(names);
      const opener = `${pick(outers)}${pick(gaps)}"$(${pick(inners)}${pick(gaps)}${pick(operators)}`;
      const body = Array.from({ length: random(4) }, () => pick(bodyLines));
      const lines = [opener, ...body, pick(endLines)].map((line) => line.replaceAll('D', name));
      const command = `${lines.join('\n')}\n${pick(closings)}${pick(tails)}`;
      if (await expectSameAsTreeSitter(command)) accepted++;
    }
    // Many of these commands are accepted: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(500);
  });

  it('gives parseShellCommand the same parse for a quoted heredoc, without tree-sitter', async () => {
    for (const command of [
      "git commit -F - <<'EOF'\nfix 7\n\nin src-7\nEOF",
      "cat > notes-7.md <<'EOF'\n# x $(y)\nEOF\ngit add notes-7.md",
    ]) {
      expect(parsePlainHeredocs(command)).not.toBeNull();
      expect(await parseShellCommand(command)).toEqual(await parseWithTreeSitter(command));
    }
  });
});

/** A whole number below n, from a seeded generator. */
function seeded(seed: number): (n: number) => number {
  const generator = new SeededRandom(seed);
  return (n) => Math.floor(generator.next() * n);
}
