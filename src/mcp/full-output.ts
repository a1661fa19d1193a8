import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConvertedResult, MediaBlock } from './result-conversion.js';

/**
 * Lines of the saved output are wrapped at this width so every line can be read whole by ReadFile
 * (which shortens longer lines); a 300,000-character JSON answer on one line stays readable.
 */
export const SAVED_LINE_WIDTH = 1_000;

export interface SavedOutput {
  textFile: string;
  lines: number;
  /** Whether some line was longer than `SAVED_LINE_WIDTH` and got wrapped. */
  wrapped: boolean;
  /** The line of `textFile` where the visible text stops, when text was cut. */
  resumeLine: number | null;
  media: { path: string; mimeType: string }[];
}

export interface SaveTarget {
  dir: string;
  toolName: string;
  callId: string;
}

/**
 * Keeps everything a truncated result held: its text (every block, in order, media noted in
 * place) in one file, and each media block that did not fit in a file of its own.
 */
export async function saveFullOutput(converted: ConvertedResult, target: SaveTarget): Promise<SavedOutput> {
  await mkdir(target.dir, { recursive: true });
  const base = join(target.dir, `${safeName(target.toolName)}-${safeName(target.callId)}`);
  const media: SavedOutput['media'] = [];
  const mediaPaths = new Map<number, string>();
  for (const index of converted.droppedMedia) {
    const block = converted.blocks[index];
    if (block?.type !== 'media') continue;
    const path = `${base}-media-${index + 1}.${extensionOf(block.media.mimeType)}`;
    await writeFile(path, Buffer.from(block.media.base64, 'base64'));
    mediaPaths.set(index, path);
    media.push({ path, mimeType: block.media.mimeType });
  }

  const starts: number[] = [];
  let text = '';
  converted.blocks.forEach((block, index) => {
    if (index > 0) text += '\n';
    starts.push(text.length);
    text += block.type === 'text' ? block.text : describeMedia(block.media, mediaPaths.get(index));
  });
  const wrappedText = wrapLines(text);
  const textFile = `${base}.txt`;
  await writeFile(textFile, wrappedText);

  const cut = converted.firstCut;
  const resumeLine =
    cut === null ? null : countLines(wrapLines(text.slice(0, (starts[cut.block] ?? 0) + cut.offset)));
  return { textFile, lines: countLines(wrappedText), wrapped: wrappedText !== text, resumeLine, media };
}

/** The note appended to a truncated result: where the rest is and how to read it. */
export function truncationNotice(saved: SavedOutput | null, budget: number): string {
  if (saved === null) {
    return `[Output truncated: the result exceeded the ${budget}-character limit for MCP tool output. Ask the tool for less (pagination, a narrower query) to see the rest.]`;
  }
  const sentences = [
    `[Output truncated: the result exceeded the ${budget}-character limit for MCP tool output.`,
  ];
  if (saved.resumeLine !== null) {
    const wrapNote = saved.wrapped ? `; lines longer than ${SAVED_LINE_WIDTH} characters are wrapped` : '';
    sentences.push(
      `Nothing is lost: the complete output is saved in ${saved.textFile} (${saved.lines} lines${wrapNote}).`,
      `The text above stops in line ${saved.resumeLine} of that file. To read on, call ReadFile with path "${saved.textFile}", line_offset ${saved.resumeLine} and n_lines 1000, and continue with higher offsets.`,
    );
  }
  if (saved.media.length > 0) {
    const list = saved.media.map((item) => `${item.path} (${item.mimeType})`).join(', ');
    sentences.push(
      `${saved.media.length} media part(s) did not fit and were saved as files instead: ${list}. Open them with ReadMediaFile if you need them.`,
    );
  }
  return `${sentences.join(' ')}]`;
}

function describeMedia(media: MediaBlock, savedAs: string | undefined): string {
  const bytes = Buffer.byteLength(media.base64, 'base64');
  return `[${media.kind} ${media.mimeType}, ${bytes} bytes${savedAs ? `, saved as ${savedAs}` : ', shown in the result'}]`;
}

export function wrapLines(text: string, width = SAVED_LINE_WIDTH): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const chunks: string[] = [];
      for (let start = 0; start < line.length; start += width) chunks.push(line.slice(start, start + width));
      return chunks.join('\n');
    })
    .join('\n');
}

function countLines(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}

function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'output';
}

function extensionOf(mimeType: string): string {
  const subtype = mimeType.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  if (subtype === 'jpeg') return 'jpg';
  if (subtype === 'mpeg') return mimeType.startsWith('audio/') ? 'mp3' : 'mpeg';
  return subtype.replace(/[^A-Za-z0-9]/g, '') || 'bin';
}
