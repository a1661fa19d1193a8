import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { BashParser, type Binding, bindingOf } from './bash-tree.js';
import { keepWasmInBaselineCompiler } from './wasm-baseline-compiler.js';

/**
 * Loads tree-sitter and its bash grammar (WebAssembly). Imported only on the first Shell decision
 * (see shell-command.ts), so start-up never pays for it.
 */
export async function loadBashParser(): Promise<BashParser> {
  // Before any of tree-sitter's WebAssembly is compiled: its lexer must never reach the optimizer.
  keepWasmInBaselineCompiler();
  binding ??= await initBinding();
  const require = createRequire(import.meta.url);
  // Bytes, not a path: given a path, the loader reaches for a dynamic import the bundle cannot serve.
  const grammar = await readFile(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const bash = await Language.load(new Uint8Array(grammar));
  const parser = new Parser();
  parser.setLanguage(bash);
  return new BashParser(parser, bash, binding);
}

/** Kept: web-tree-sitter initialises its module once, so a second load (after a failed one) reuses it. */
let binding: Binding | undefined;

async function initBinding(): Promise<Binding> {
  // Emscripten makes the object it is given the module: its binding, which bash-tree.ts reads.
  const module = {};
  await Parser.init(module as Parameters<typeof Parser.init>[0]);
  return bindingOf(module);
}
