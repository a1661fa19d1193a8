import type { ShellWord } from './shell-words.js';

/** One thing a command line runs, with what the policy knows about it. */
export interface CommandPart {
  /** As written: a command from its assignments to its last argument, or a redirection (`> out`). */
  readonly text: string;
  /**
   * Why allow rules and command-prefix approvals cannot cover it (an assignment, a word an
   * expansion decides, a wrapper or code in a string); null when it is simple.
   */
  readonly notSimple: string | null;
  /** A simple part's words after quote removal, each written back as one word; null when not simple. */
  readonly literal: string | null;
  /**
   * The commands it runs as words, for deny and ask rules: as written, then with each wrapper
   * removed (`sudo rm -rf x` → `rm -rf x`), and what `find -exec` or `xargs` runs.
   */
  readonly invocations: readonly (readonly ShellWord[])[];
}
