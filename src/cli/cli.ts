#!/usr/bin/env node
import { onStdioBuilt } from './on-stdio-built.js';
import { buildProgram, needsSubcommands } from './program.js';

// A reader that goes away (`kimi-ts … | head`) is not an error worth a stack trace.
for (const name of ['stdout', 'stderr'] as const) {
  onStdioBuilt(name, (stream) =>
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    }),
  );
}

/**
 * `web` and `vis` own `-h/-p/-n` (Kimi CLI's flags), so for them the main command's options must come
 * before the subcommand (as in Kimi CLI) and `-p` after `web` is the port, not the main `--prompt`.
 * Elsewhere the main command's options are still taken after a subcommand too (`plugin … --config-file`).
 */
function subcommandOf(argv: readonly string[]): string | undefined {
  // Without either word on the line the answer matters to nobody: no second program is built to
  // parse it (every other start, print mode's included, builds the program once).
  if (!argv.slice(2).some((arg) => arg === 'web' || arg === 'vis')) return undefined;
  const probe = buildProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
  try {
    return probe.parseOptions(argv.slice(2)).operands[0];
  } catch {
    return undefined;
  }
}

const program = buildProgram({ subcommands: needsSubcommands(process.argv.slice(2)) });
const subcommand = subcommandOf(process.argv);
if (subcommand === 'web' || subcommand === 'vis') program.enablePositionalOptions();
program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
