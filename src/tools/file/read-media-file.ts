import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { type ContentPart, type ToolReturnValue, toolError, toolOk } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { SkipThisTool, toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import type { VideoUploader } from '../runtime.js';
import { fileEffects } from './file-effects.js';
import { detectFileType, type FileType, readFileHeader } from './file-type.js';
import { describeFsError, isMissingFileError } from './fs-errors.js';
import { imageSize } from './image-size.js';
import { emptyPathError, resolveToolPath, type Workspace } from './workspace-path.js';

export const MAX_MEDIA_MEGABYTES = 100;
export const MAX_MEDIA_BYTES = MAX_MEDIA_MEGABYTES * 1024 * 1024;

const readMediaParams = declareParameters('ReadMediaFile', () =>
  z.object({
    path: z
      .string()
      .describe(
        'The image or video file to read. Relative paths are resolved against the working directory; a file outside it needs an absolute path.',
      ),
  }),
);

type MediaKind = 'image' | 'video';

function mediaParts(kind: MediaKind, path: string, url: string): ContentPart[] {
  const media: ContentPart =
    kind === 'image' ? { type: 'image_url', image_url: { url } } : { type: 'video_url', video_url: { url } };
  return [
    { type: 'text', text: `<${kind} path="${path.replaceAll('"', '&quot;')}">` },
    media,
    { type: 'text', text: `</${kind}>` },
  ];
}

function unsupportedByModel(kind: MediaKind): ToolReturnValue {
  return toolError(
    `The current model does not support ${kind} input. Tell the user to use a model with ${kind} input capability.`,
    'Unsupported media type',
  );
}

async function loadMedia(
  input: string,
  path: string,
  type: FileType & { kind: MediaKind },
  uploadVideo: VideoUploader | null,
  signal: AbortSignal,
) {
  const { size } = await stat(path);
  if (size === 0) return toolError(`\`${input}\` is empty.`, 'Empty file');
  if (size > MAX_MEDIA_BYTES) {
    return toolError(
      `\`${input}\` is ${size} bytes, which exceeds the maximum of ${MAX_MEDIA_MEGABYTES} MB for media files.`,
      'File too large',
    );
  }
  const data = await readFile(path);
  let url = `data:${type.mimeType};base64,${data.toString('base64')}`;
  if (type.kind === 'video' && uploadVideo) {
    // Videos are large: where the model's API takes uploads, the message names the upload instead.
    try {
      url = await uploadVideo({ data, mimeType: type.mimeType, filename: basename(path) }, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return toolError(
        `Failed to upload the video \`${input}\`: ${error instanceof Error ? error.message : String(error)}`,
        'Upload failed',
      );
    }
  }
  const dimensions = type.kind === 'image' ? imageSize(data, type.mimeType) : null;
  const sizeHint = dimensions ? `, original size ${dimensions.width}x${dimensions.height}px` : '';
  return toolOk(
    mediaParts(type.kind, path, url),
    `Loaded ${type.kind} file \`${input}\` (${type.mimeType}, ${data.length} bytes${sizeHint}). ` +
      'If you need to output coordinates, give relative coordinates first and compute absolute ones from the original image size; ' +
      'if you create or change images or videos with commands or scripts, read the result back before you go on.',
  );
}

export function createReadMediaFileTool(
  workspace: Workspace,
  capabilities: ReadonlySet<string>,
  description: string,
  uploadVideo: VideoUploader | null = null,
) {
  return defineTool({
    name: 'ReadMediaFile',
    description,
    params: readMediaParams,
    effect: 'reads-files',
    effects: ({ path }) => fileEffects(path, workspace, 'read'),
    async call({ path: input }, { signal }) {
      if (!input) return emptyPathError();
      const resolved = resolveToolPath(input, workspace, 'read');
      if (!resolved.ok) return resolved.error;
      const path = resolved.path;
      try {
        let isFile: boolean;
        try {
          isFile = (await stat(path)).isFile();
        } catch (error) {
          if (isMissingFileError(error)) return toolError(`\`${input}\` does not exist.`, 'File not found');
          throw error;
        }
        if (!isFile) return toolError(`\`${input}\` is not a file.`, 'Invalid path');
        const type = detectFileType(path, await readFileHeader(path));
        if (type.kind === 'text') {
          return toolError(
            `\`${input}\` is a text file. Use ReadFile to read text files.`,
            'Unsupported file type',
          );
        }
        if (type.kind === 'unknown') {
          return toolError(
            `\`${input}\` seems not readable as an image or video file. You may need to read it with proper shell commands, Python tools or MCP tools if available. If you use Python with third-party packages, install them in a virtual environment (venv).`,
            'File not readable',
          );
        }
        if (!capabilities.has(`${type.kind}_in`)) return unsupportedByModel(type.kind);
        return await loadMedia(
          input,
          path,
          { kind: type.kind, mimeType: type.mimeType },
          uploadVideo,
          signal,
        );
      } catch (error) {
        if (signal.aborted) throw error;
        return toolError(`Failed to read ${input}. Error: ${describeFsError(error)}`, 'Failed to read file');
      }
    },
  });
}

function mediaSupport(capabilities: ReadonlySet<string>): string {
  const image = capabilities.has('image_in');
  const video = capabilities.has('video_in');
  if (image && video) return 'The current model can take both images and videos.';
  return image
    ? 'The current model can take images only: video files will be refused.'
    : 'The current model can take videos only: image files will be refused.';
}

/** Loaded only when the model can take images or videos. */
export const ReadMediaFile = toolFactory(
  ['workDir', 'additionalDirs', 'modelCapabilities', 'descriptionVars', 'uploadVideo'],
  async ({ workDir, additionalDirs, modelCapabilities, descriptionVars, uploadVideo }) => {
    if (!modelCapabilities.has('image_in') && !modelCapabilities.has('video_in')) {
      throw new SkipThisTool('the model takes neither images nor videos');
    }
    const description = await loadToolDescription(new URL('./read-media-file.md', import.meta.url), {
      ...descriptionVars,
      MAX_MEDIA_MEGABYTES: String(MAX_MEDIA_MEGABYTES),
      MEDIA_SUPPORT: mediaSupport(modelCapabilities),
    });
    return createReadMediaFileTool({ workDir, additionalDirs }, modelCapabilities, description, uploadVideo);
  },
);
