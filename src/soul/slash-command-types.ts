import type { UserInput } from './steer-queue.js';

/**
 * The shape of slash commands, apart from the Soul they run in (`S`), so the soul can name the
 * commands it runs without the command modules and the soul importing each other.
 */

/** What a front end shows of a slash command. */
export interface SlashCommandInfo {
  name: string;
  description: string;
  aliases: string[];
}

export interface SlashCommandCallContextOf<S> {
  soul: S;
  args: string;
  signal: AbortSignal;
}

/**
 * A slash command: either it does something itself (`run`), or it turns into the prompt of an
 * ordinary model turn (`expand`, e.g. a skill's instructions with the user's words).
 */
export type SlashCommandOf<S> = SlashCommandInfo &
  (
    | { run(call: SlashCommandCallContextOf<S>): Promise<void> }
    | { expand(call: SlashCommandCallContextOf<S>): Promise<UserInput> }
  );

/** How the soul finds the command a turn's input names. */
export interface SlashCommandLookup<S> {
  find(name: string): SlashCommandOf<S> | undefined;
  list(): SlashCommandInfo[];
}
