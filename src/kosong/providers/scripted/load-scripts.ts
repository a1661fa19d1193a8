import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { ChatProviderError } from '../../errors.js';

const scriptList = z.array(z.string());

/**
 * Splits the content of a scripts file into scripts. Two forms, as Kimi CLI accepts them: a JSON
 * array of script strings, or plain text whose scripts are separated by lines holding only `---`.
 * Blank scripts (say, after a trailing `---`) are dropped.
 */
export function splitScripts(content: string, origin = 'scripts'): string[] {
  if (content.trimStart().startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      throw new ChatProviderError(`Invalid ${origin}: not valid JSON (${(error as Error).message}).`);
    }
    const parsed = scriptList.safeParse(value);
    if (!parsed.success)
      throw new ChatProviderError(`Invalid ${origin}: expected a JSON array of script strings.`);
    return parsed.data;
  }
  return content.split(/^---[ \t]*\r?$/m).filter((script) => script.trim() !== '');
}

/**
 * Reads scripts from a file path, or from the text itself when the argument is not the path of an
 * existing file (text with a line break is never taken for a path).
 */
export async function loadScripts(pathOrText: string): Promise<string[]> {
  if (!pathOrText.includes('\n') && (await isFile(pathOrText))) {
    return splitScripts(await readFile(pathOrText, 'utf8'), `scripts file ${pathOrText}`);
  }
  return splitScripts(pathOrText);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
