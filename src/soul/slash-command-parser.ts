/** A parsed `/name[:sub] args` input. */
export interface SlashCommandCall {
  name: string;
  args: string;
}

const SLASH = /^\/([A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*)(?:\s+([\s\S]*))?$/;

/** Parses user text as a slash command, or returns null when it is not one. */
export function parseSlashCommand(text: string): SlashCommandCall | null {
  const match = SLASH.exec(text.trim());
  if (!match) return null;
  return { name: match[1]!, args: (match[2] ?? '').trim() };
}
