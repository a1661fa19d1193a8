import { wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';
import { contextStatusEvent } from './context-status.js';
import { type ProjectFileRead, runInit } from './init-command.js';
import { modelCommand } from './model-command.js';
import type { ModelSwitcher } from './model-switcher.js';
import { sideQuestionCommand } from './side-question.js';
import type {
  SlashCommandCallContextOf,
  SlashCommandInfo,
  SlashCommandLookup,
  SlashCommandOf,
} from './slash-command-types.js';
import type { Soul } from './soul.js';

export type { SlashCommandInfo };
export type SlashCommandCallContext = SlashCommandCallContextOf<Soul>;
export type SlashCommand = SlashCommandOf<Soul>;

/** Commands the soul runs itself, in any front end; a turn whose input is one runs it instead of the model. */
export class SlashCommandRegistry implements SlashCommandLookup<Soul> {
  private readonly byName = new Map<string, SlashCommand>();

  constructor(commands: readonly SlashCommand[] = []) {
    for (const command of commands) this.add(command);
  }

  add(command: SlashCommand): void {
    this.byName.set(command.name, command);
    for (const alias of command.aliases) this.byName.set(alias, command);
  }

  find(name: string): SlashCommand | undefined {
    return this.byName.get(name);
  }

  list(): SlashCommandInfo[] {
    const unique = new Set(this.byName.values());
    return [...unique].map(({ name, description, aliases }) => ({ name, description, aliases }));
  }
}

/** Shows text to the user as the command's answer. */
export function say(soul: { send(message: WireMessage): void }, text: string): void {
  soul.send(wireEvent('ContentPart', { type: 'text', text }));
}

/** What the built-in commands change outside the soul. */
export interface BuiltinCommandDeps {
  setYolo(enabled: boolean): void;
  isYolo(): boolean;
  setAfk(enabled: boolean): void;
  isAfk(): boolean;
  setTitle(title: string): Promise<void>;
  title(): string | null;
  setPlanMode?: ((enabled: boolean) => Promise<void>) | undefined;
  isPlanMode?: (() => boolean) | undefined;
  /** The current plan's text (`/plan view`); null when there is none yet. */
  readPlan?: (() => Promise<string | null>) | undefined;
  /** Deletes the current plan file (`/plan clear`). */
  clearPlan?: (() => Promise<void>) | undefined;
  /** The system prompt a cleared context starts with. */
  systemPrompt: string;
  /** Where `/init` writes AGENTS.md. */
  workDir: string;
  /** How `/init` reads the AGENTS.md written (by real path: no secret file, nothing outside the project). */
  readProjectFile: (path: string) => Promise<ProjectFileRead>;
  /** The config's models, for `/model`. */
  models?: ModelSwitcher | undefined;
}

export const TITLE_MAX_CHARS = 200;

export function builtinSlashCommands(deps: BuiltinCommandDeps): SlashCommand[] {
  const commands: SlashCommand[] = [
    {
      name: 'help',
      description: 'List the slash commands',
      aliases: ['h', '?'],
      async run({ soul }) {
        const lines = soul.options.slashCommands?.list() ?? [];
        say(
          soul,
          lines
            .map(
              (c) =>
                `/${c.name}${c.aliases.length ? ` (${c.aliases.map((a) => `/${a}`).join(', ')})` : ''}: ${c.description}`,
            )
            .join('\n'),
        );
      },
    },
    {
      name: 'clear',
      description: 'Clear the conversation context',
      aliases: ['reset'],
      async run({ soul }) {
        await soul.context.clear({ systemPrompt: soul.context.systemPrompt ?? deps.systemPrompt });
        say(soul, 'The context has been cleared.');
        soul.send(contextStatusEvent(soul.parts));
      },
    },
    {
      name: 'compact',
      description: 'Compact the context now, optionally with an instruction: /compact keep the test plan',
      aliases: [],
      async run({ soul, args, signal }) {
        if (soul.context.checkpointCount === 0 && soul.context.history.length === 0) {
          say(soul, 'The context is empty.');
          return;
        }
        const compacted = await soul.compact(signal, args);
        say(soul, compacted ? 'The context has been compacted.' : 'There is nothing to compact yet.');
        if (compacted) soul.send(contextStatusEvent(soul.parts));
      },
    },
    {
      name: 'yolo',
      description: 'Toggle auto-approval of every action',
      aliases: [],
      async run({ soul }) {
        deps.setYolo(!deps.isYolo());
        say(
          soul,
          deps.isYolo()
            ? 'YOLO mode on: every action is approved without asking.'
            : 'YOLO mode off: actions need approval again.',
        );
      },
    },
    {
      name: 'afk',
      description: 'Toggle away-from-keyboard mode (auto-approve, questions dismissed)',
      aliases: [],
      async run({ soul }) {
        deps.setAfk(!deps.isAfk());
        say(
          soul,
          deps.isAfk()
            ? 'AFK mode on: actions are approved and questions dismissed.'
            : 'AFK mode off: welcome back.',
        );
      },
    },
    {
      name: 'title',
      description: `Show or set the session title (at most ${TITLE_MAX_CHARS} characters)`,
      aliases: ['rename'],
      async run({ soul, args }) {
        const title = args.trim();
        if (!title) {
          say(soul, `Session title: ${deps.title() ?? 'Untitled'}`);
          return;
        }
        if ([...title].length > TITLE_MAX_CHARS) {
          say(soul, `The title is too long: at most ${TITLE_MAX_CHARS} characters.`);
          return;
        }
        await deps.setTitle(title);
        say(soul, `Session title set to: ${title}`);
      },
    },
    {
      name: 'init',
      description: 'Analyse the project and write an AGENTS.md for agents',
      aliases: [],
      async run({ soul, signal }) {
        const outcome = await runInit(soul, deps.workDir, signal, deps.readProjectFile);
        switch (outcome.kind) {
          case 'none':
            say(soul, 'No AGENTS.md was written.');
            return;
          case 'refused':
            say(soul, `AGENTS.md is not read into this session: ${outcome.reason}.`);
            return;
          case 'written':
            say(soul, 'AGENTS.md is written and now part of this session.');
            return;
        }
      },
    },
  ];
  if (deps.models) commands.push(modelCommand(deps.models));
  commands.push(sideQuestionCommand);
  if (deps.setPlanMode && deps.isPlanMode) {
    const setPlanMode = deps.setPlanMode;
    const isPlanMode = deps.isPlanMode;
    commands.push({
      name: 'plan',
      description: 'Plan mode: /plan on, /plan off, /plan to toggle, /plan view, /plan clear',
      aliases: [],
      async run({ soul, args }) {
        const arg = args.trim().toLowerCase();
        if (arg === 'view' || arg === 'clear') {
          if (!isPlanMode()) {
            say(soul, 'Plan mode is off: there is no current plan.');
          } else if (arg === 'view') {
            const plan = (await deps.readPlan?.()) ?? null;
            say(soul, plan?.trim() ? plan : 'There is no plan yet.');
          } else {
            await deps.clearPlan?.();
            say(soul, 'The plan was cleared; plan mode stays on.');
          }
          return;
        }
        if (arg !== '' && arg !== 'on' && arg !== 'off') {
          say(soul, 'Usage: /plan [on|off|view|clear]');
          return;
        }
        const enable = arg === 'on' ? true : arg === 'off' ? false : !isPlanMode();
        await setPlanMode(enable);
        say(soul, enable ? 'Plan mode on.' : 'Plan mode off.');
      },
    });
  }
  return commands;
}
