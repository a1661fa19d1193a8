import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { loadBashParser } from './bash-parser.js';
import type { SyntaxNode } from './bash-tree.js';

/**
 * The policy reads trees through the binding (bash-tree.ts), not through web-tree-sitter's Node
 * objects. Both read the same tree: every fact the policy may ask for must be the same, node by
 * node, for commands an attacker would write.
 */
const COMMANDS = [
  'ls -la',
  'for f in src-1/*.ts; do wc -l "$f"; done > "out-1.txt"',
  'echo hi && rm -rf x; (cd a && git push) | tee >(cat) 2>&1',
  'cat <<EOF && rm -rf x\nhi $(id) `whoami`\nEOF',
  "cat <<-'EOF' | bash\n\trm -rf /\n\tEOF\necho after",
  'bash <<< "rm -rf ~" ; sh -c \'curl x | sh\'',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'echo "$(echo "$(echo `id` "${x@P}")")" $((a[$(id)]+1)) ${arr[@]:1:2}',
  'a=1 b=(x y "z w") PATH=/tmp/x git status --format=x B=2',
  'f() { rm -rf "$1"; }; f x; case $x in a|b) ls;; *) id;; esac',
  'if [[ $x == y* && -f /etc/passwd ]]; then ((i++)); fi; while read l; do echo $l; done < in',
  'for ((i=0; i<10; i++)); do echo $i; done; select f in *; do cat "$f"; done',
  'echo héllo wörld 日本語 "ünïcödé $x" \'emoji 😀 x\' && rm -rf 😀/ñ',
  'echo 😀😀😀 $(rm -rf "𝔘𝔫𝔦") > "𝓸𝓾𝓽"; ls ⠀⠀⠀⠀ ; cat\u2800x',
  'echo "unterminated',
  'echo $(( ; rm -rf x',
  'if then fi ;; done }',
  'ls # a comment $(rm -rf x)\n# another\nrm -rf y # trailing',
  'echo a\\\nb \\\n  c\r\nls\r\n',
  "$'\\x72\\x6d' -rf x; \\rm -f y; command rm z; builtin eval 'id'",
  'x=$(cat <<EOF\n$(id)\nEOF\n); echo "$x"',
  'rm > /dev/null -rf /x; cat <<EOF -n x\nbody\nEOF',
  'echo {a,b}{c..d} ~/x ~root *.env [ab]?.txt',
  'declare -A m=([k]=v); export A=1; unset B; local c; readonly d=2',
  'coproc cat; exec 3<>/dev/tcp/h/80; echo >&3 x; wait %1 &',
  `${'echo x && '.repeat(600)}rm -rf /`,
  `echo "${'a'.repeat(5000)}" '${'é'.repeat(3000)}' ${'😀'.repeat(2000)}`,
  '',
  '   ',
  '\u0000 ls \u0007',
  'echo \ud800 lone surrogate \udc00',
];

const idsOf = (nodes: readonly ({ id: number } | null)[]) => nodes.map((n) => n?.id ?? null);

function compare(ours: SyntaxNode, theirs: Node, fields: readonly (string | null)[], path: string): number {
  expect({ path, id: ours.id, start: ours.startIndex, end: ours.endIndex, type: ours.type }).toEqual({
    path,
    id: theirs.id,
    start: theirs.startIndex,
    end: theirs.endIndex,
    type: theirs.type,
  });
  expect(ours.text).toBe(theirs.text);
  expect(ours.namedChildCount).toBe(theirs.namedChildCount);
  expect(ours.nextSibling?.id ?? null).toBe(theirs.nextSibling?.id ?? null);
  expect(ours.parent?.id ?? null).toBe(theirs.parent?.id ?? null);
  for (const field of fields) {
    if (field === null) continue;
    expect(ours.childForFieldName(field)?.id ?? null).toBe(theirs.childForFieldName(field)?.id ?? null);
    expect(idsOf(ours.childrenForFieldName(field))).toEqual(idsOf(theirs.childrenForFieldName(field)));
  }
  const named: number[] = [];
  for (let i = 0; i < theirs.namedChildCount; i++) {
    expect(ours.namedChild(i)?.id).toBe(theirs.namedChild(i)?.id);
    named.push(i);
  }
  const ourChildren = ours.children;
  const theirChildren = theirs.children;
  expect(idsOf(ourChildren)).toEqual(idsOf(theirChildren));
  let count = 1;
  for (const [i, child] of ourChildren.entries()) {
    const their = theirChildren[i];
    if (child && their) count += compare(child, their, fields, `${path}/${i}`);
  }
  return count;
}

describe('the bash tree read through the binding', () => {
  it.each(COMMANDS.map((command) => [command.slice(0, 60), command]))(
    'reads what web-tree-sitter reads: %j',
    async (_shown, command) => {
      const parser = await loadBashParser();
      const tree = parser.parse(command);
      expect(tree).not.toBeNull();
      if (!tree) return;
      try {
        const fields = tree.webTree.language.fields;
        expect(tree.hasError).toBe(tree.webTree.rootNode.hasError);
        const nodes = compare(tree.rootNode, tree.webTree.rootNode, fields, '');
        expect(nodes).toBeGreaterThan(0);
      } finally {
        tree.delete();
      }
    },
  );

  it('reads the tree after WebAssembly memory grew (a 1 MB command)', async () => {
    const parser = await loadBashParser();
    const before = parser.parse('ls');
    expect(before?.rootNode.text).toBe('ls');
    before?.delete();
    // Parsing this grows the module's memory: HEAP32 is replaced, and reads must use the new view.
    const tree = parser.parse(`${'echo x && '.repeat(100_000)}rm -rf /`);
    expect(tree).not.toBeNull();
    if (!tree) return;
    try {
      const list = tree.rootNode.namedChild(0);
      const theirs = tree.webTree.rootNode.namedChild(0);
      expect(list?.type).toBe(theirs?.type);
      const last = list?.namedChild((list?.namedChildCount ?? 0) - 1);
      expect(last?.text).toBe('rm -rf /');
      expect(last?.id).toBe(theirs?.namedChild((theirs?.namedChildCount ?? 0) - 1)?.id);
      expect(idsOf(list?.children ?? [])).toEqual(idsOf(theirs?.children ?? []));
    } finally {
      tree.delete();
    }
    const small = parser.parse(COMMANDS[1] ?? '');
    if (!small) throw new Error('no tree');
    try {
      compare(small.rootNode, small.webTree.rootNode, small.webTree.language.fields, '');
    } finally {
      small.delete();
    }
  });

  it('loads again after a load (the binding is kept)', async () => {
    const first = await loadBashParser();
    const second = await loadBashParser();
    const tree = second.parse('echo ok');
    expect(tree?.rootNode.type).toBe('program');
    tree?.delete();
    expect(first.parse('ls')?.rootNode.text).toBe('ls');
  });
});
