import { z } from 'zod';
import type { ToolReturnValue } from '../../kosong/index.js';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { ToolResultBuilder } from '../../toolset/tool-result-builder.js';
import type { BackgroundTaskManager } from '../background/background-task-manager.js';
import { BackgroundTaskError } from '../background/background-task-manager.js';
import { rootOnlyError } from '../background/root-only.js';
import { taskDisplayBlock, taskFieldLines } from '../background/task-format.js';
import type { AgentRole } from '../runtime.js';
import { OutputTailWindow } from './output-tail-window.js';
import { runCommand } from './run-command.js';
import { commandEnvironment, findBash } from './shell-environment.js';

export const DEFAULT_TIMEOUT_S = 60;
export const MAX_FOREGROUND_TIMEOUT_S = 300;
export const MAX_BACKGROUND_TIMEOUT_S = 86_400;
/** Time a command's process group gets between SIGTERM and SIGKILL on timeout or cancel. */
export const SHELL_KILL_GRACE_MS = 2_000;
/** Output lines quoted in the brief of a failed command. */
const FAILURE_TAIL_LINES = 5;
/** Said when the command exited but left a process of its own running (`server &`). */
export const LEFT_RUNNING_NOTE =
  'A process it started in the background is still running: its later output is not captured, and ' +
  'it is stopped when kimi-ts exits. Use run_in_background=true for long-running processes.';

/** How much output the result left out, when it left something out. */
function omittedNote(totalChars: number, keptChars: number): string {
  const omitted = totalChars - keptChars;
  return omitted > 0
    ? ` ${omitted.toLocaleString('en-US')} of ${totalChars.toLocaleString('en-US')} output characters were left out.`
    : '';
}

const shellParams = declareParameters('Shell', () =>
  z
    .object({
      command: z.string().describe('The bash command to run.'),
      timeout: z
        .number()
        .int()
        .min(1)
        .max(MAX_BACKGROUND_TIMEOUT_S)
        .default(DEFAULT_TIMEOUT_S)
        .describe(
          `Seconds before the command is killed: at most ${MAX_FOREGROUND_TIMEOUT_S} in the foreground, ${MAX_BACKGROUND_TIMEOUT_S} in the background.`,
        ),
      run_in_background: z
        .boolean()
        .default(false)
        .describe('Run as a background task and return at once with its id.'),
      description: z
        .string()
        .default('')
        .describe('A short description of the command; required when run_in_background is true.'),
      sandbox: z
        .enum(['on', 'off'])
        .default('on')
        .describe(
          'Where the command runs: "on" (the default) in the sandbox; "off" asks the user to run it outside the sandbox (with network and full file access), for a command the sandbox blocks. Give a justification.',
        ),
      justification: z
        .string()
        .default('')
        .describe('With sandbox="off": why the command needs to run outside the sandbox, shown to the user.'),
    })
    .superRefine((value, issues) => {
      if (!value.run_in_background && value.timeout > MAX_FOREGROUND_TIMEOUT_S) {
        issues.addIssue({
          code: 'custom',
          path: ['timeout'],
          message: `A foreground command may run at most ${MAX_FOREGROUND_TIMEOUT_S} seconds. Use run_in_background=true for longer commands.`,
        });
      }
      if (value.sandbox === 'off' && value.justification.trim() === '') {
        issues.addIssue({
          code: 'custom',
          path: ['justification'],
          message: 'A justification is required when sandbox is "off": the user reads it before deciding.',
        });
      }
      if (value.run_in_background && value.description.trim() === '') {
        issues.addIssue({
          code: 'custom',
          path: ['description'],
          message: 'A description is required when run_in_background is true.',
        });
      }
    }),
);

/** Shell: runs a bash command in the work dir, in the foreground or as a background task. */
export const Shell = toolFactory(
  ['workDir', 'processEnv', 'backgroundTasks', 'role', 'descriptionVars', 'commandSandbox'],
  async (deps, kit) => {
    return kit.defineTool({
      name: 'Shell',
      description: await loadToolDescription(new URL('./shell.md', import.meta.url), {
        ...deps.descriptionVars,
        KIMI_WORK_DIR: deps.descriptionVars.KIMI_WORK_DIR ?? deps.workDir,
      }),
      params: shellParams,
      effect: 'runs-commands',
      effects: ({ command, run_in_background, sandbox, justification }) =>
        command.trim() === ''
          ? []
          : [
              {
                kind: 'exec',
                command,
                cwd: deps.workDir,
                background: run_in_background,
                // Only a sandbox that runs can be left; the policy asks a person before it is.
                leaveSandbox: sandbox === 'off' && deps.commandSandbox ? { justification } : undefined,
              },
            ],
      approval: ({ command, run_in_background }) => {
        if (command.trim() === '') return { autoApprove: 'an empty command is refused' };
        if (run_in_background && rootOnlyError(deps.role)) {
          return { autoApprove: 'a subagent cannot start background tasks' };
        }
        const display = [{ type: 'shell', language: 'bash', command }];
        return run_in_background
          ? {
              action: 'run background command',
              description: `Run background command \`${command}\``,
              display,
            }
          : { action: 'run command', description: `Run command \`${command}\``, display };
      },
      call: async ({ command, timeout, run_in_background, description, sandbox }, ctx) => {
        if (command.trim() === '') return toolError('Command cannot be empty.', 'Empty command');
        const bashPath = findBash(deps.processEnv, [deps.workDir]);
        if (bashPath === null) {
          return toolError('Command execution failed: no bash executable was found.', 'Execution failed');
        }
        const env = commandEnvironment(deps.processEnv, bashPath, [deps.workDir]);
        // Outside the sandbox only as asked for: the policy had a person approve exactly that.
        const commandSandbox = sandbox === 'off' ? undefined : deps.commandSandbox;
        // Approved as a read of secret files: it sees the workspace's secret files it names.
        const approvedRead = ctx.secretReadApproved ? command : undefined;
        if (run_in_background) {
          const sandboxLaunch = await commandSandbox?.launch(deps.workDir, approvedRead);
          return startInBackground(deps.backgroundTasks, deps.role, {
            command,
            description: description.trim(),
            timeoutS: timeout,
            cwd: deps.workDir,
            env,
            shellPath: bashPath,
            sandboxLaunch,
            // What the command left (a nested repository) is read before the next command; what the
            // sandbox cleaned out of git folders it made ends the task's output (its notification).
            onExited: async () => {
              await commandSandbox?.commandEnded({ command, cwd: deps.workDir });
              const notes = [commandSandbox?.takeNotes(), commandSandbox?.takeCopiesNote()].filter(Boolean);
              return notes.length > 0 ? notes.join('\n') : null;
            },
          });
        }
        const builder = new ToolResultBuilder();
        // The builder keeps the first 50,000 characters; the rest is only counted (and its end kept).
        const tailWindow = new OutputTailWindow();
        // bwrap spawned directly, not behind `/bin/sh` (an exec less per command).
        const sandboxLaunch = await commandSandbox?.launch(deps.workDir, approvedRead);
        let outcome: Awaited<ReturnType<typeof runCommand>>;
        try {
          outcome = await runCommand({
            bashPath,
            command,
            cwd: deps.workDir,
            env,
            sandboxLaunch,
            timeoutMs: timeout * 1000,
            killGraceMs: SHELL_KILL_GRACE_MS,
            signal: ctx.signal,
            onOutput: (text) => {
              builder.write(text);
              tailWindow.write(text);
              ctx.reportOutput?.(text);
            },
          });
        } finally {
          // What the command left (a nested repository) is read before the next command, and a git
          // folder it made is cleaned of hooks and program-running config (src/policy/new-git-dirs.ts).
          await commandSandbox?.commandEnded({ command, cwd: deps.workDir });
        }
        const gitNote = commandSandbox?.takeNotes() ?? null;
        // Which files the command saw as read-only copies with their tokens out (a write to one fails).
        const copiesNote = commandSandbox?.takeCopiesNote() ?? null;
        const dropped =
          omittedNote(tailWindow.totalChars, builder.nChars) +
          (gitNote ? `\n${gitNote}` : '') +
          (copiesNote ? `\n${copiesNote}` : '');
        const gitBrief = gitNote ? `\n${GIT_CLEANED_BRIEF}` : '';
        switch (outcome.kind) {
          case 'exited': {
            const leftRunning = outcome.leftRunning ? ` ${LEFT_RUNNING_NOTE}` : '';
            if (outcome.exitCode === 0) {
              return builder.ok(`Command executed successfully.${leftRunning}${dropped}`, gitBrief.trim());
            }
            const tail = tailWindow.tail(FAILURE_TAIL_LINES);
            return builder.error(
              `Command failed with exit code: ${outcome.exitCode}.${leftRunning}${dropped}`,
              `Failed with exit code: ${outcome.exitCode}${tail ? `\n${tail}` : ''}${gitBrief}`,
            );
          }
          case 'timed_out':
            return builder.error(
              `Command killed by timeout (${timeout}s).${dropped}`,
              `Killed by timeout (${timeout}s)${gitBrief}`,
            );
          case 'cancelled':
            // The process group is gone; the toolset turns this into its "cancelled" result.
            throw ctx.signal.reason ?? new Error('The command was cancelled.');
          case 'spawn_failed':
            return builder.error(`Command execution failed: ${outcome.error.message}`, 'Execution failed');
        }
      },
    });
  },
);

/** The person's line when the sandbox cleaned a git folder a command made (the model gets the details). */
const GIT_CLEANED_BRIEF =
  'The sandbox disabled hooks and program-running git config in a repository this command made (kept in its kimi-ts-quarantine-* folder).';

async function startInBackground(
  tasks: BackgroundTaskManager,
  role: AgentRole,
  request: Parameters<BackgroundTaskManager['startBash']>[0],
): Promise<ToolReturnValue> {
  const refusal = rootOnlyError(role);
  if (refusal) return refusal;
  let view: Awaited<ReturnType<BackgroundTaskManager['startBash']>>;
  try {
    view = await tasks.startBash(request);
  } catch (error) {
    if (error instanceof BackgroundTaskError) return toolError(error.message, 'Background start failed');
    throw error;
  }
  const id = view.spec.id;
  const output = [
    ...taskFieldLines(view),
    'automatic_notification: true',
    'next_step: You will be told automatically when this task finishes; carry on with other work meanwhile instead of waiting or polling.',
    `next_step: For its output so far, call TaskOutput(task_id="${id}"); add block=true only if you cannot go on without the result.`,
    `next_step: To end it early, call TaskStop(task_id="${id}").`,
    'human_shell_hint: The user can look at background tasks with the /task command.',
  ].join('\n');
  return {
    is_error: false,
    output,
    message: 'Background task started.',
    display: [{ type: 'brief', text: `Started ${id}` }, taskDisplayBlock(view)],
  };
}
