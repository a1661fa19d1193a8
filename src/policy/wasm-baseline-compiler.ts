import { setFlagsFromString } from 'node:v8';

let applied = false;

/**
 * Keeps WebAssembly compiled from now on in V8's baseline compiler (Liftoff): no tier-up to the
 * optimizing compiler, neither when a function gets hot (dynamic tiering) nor in the background.
 *
 * Why: tree-sitter-bash's generated lexer is one 160 KB WebAssembly function. The first Shell
 * decision makes it hot, and on Node 24 (V8 13.6, Turboshaft) optimizing it takes a 690 MB
 * compiler zone on a worker thread for about half a second — a 500 MiB jump of the CLI's resident
 * memory on the first Shell command, whatever the command prints (Node 20's TurboFan needs 20 MB).
 * Liftoff code parses a command line just as fast for our purpose (a few µs).
 *
 * V8 reads these flags when a function is first compiled (lazily, at its first call), so they
 * cannot be put back once the grammar is loaded: they stay for the process. Modules compiled
 * earlier (Node's HTTP parser) keep tiering as before; a module compiled later stays baseline.
 * Called before the grammar is loaded; applying twice is harmless.
 */
export function keepWasmInBaselineCompiler(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--no-wasm-tier-up');
}
