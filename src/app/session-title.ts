import { updateSessionState } from '../session/state.js';

/** Gives the session the user's title: not a generated one (the web page and `/title` alike). */
export async function renameSession(stateFile: string, title: string): Promise<void> {
  await updateSessionState(stateFile, (s) => ({ ...s, custom_title: title, title_generated: false }));
}

/** The session's title, kept in state.json: set by `/title`, or generated from the first prompt. */
export class SessionTitle {
  constructor(
    private readonly stateFile: string,
    private current: string | null,
  ) {}

  get value(): string | null {
    return this.current;
  }

  /** The user's title (`/title`). */
  async set(title: string): Promise<void> {
    this.current = title;
    await renameSession(this.stateFile, title);
  }

  /** A title made from the first prompt; a session that has one keeps it. */
  async generate(title: string): Promise<void> {
    if (this.current) return;
    this.current = title;
    await updateSessionState(this.stateFile, (s) =>
      s.custom_title ? s : { ...s, custom_title: title, title_generated: true },
    );
  }
}
