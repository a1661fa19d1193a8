import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolKit } from '../../toolset/loading/dependencies.js';
import { MAX_MEDIA_BYTES, ReadMediaFile } from './read-media-file.js';
import { briefOf, FileToolsHarness } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
afterEach(async () => {
  await h?.dispose();
});

async function setup(capabilities: string[]): Promise<FileToolsHarness> {
  h = await FileToolsHarness.create({
    specs: ['kimi-ts/tools/file/read-media-file:ReadMediaFile'],
    modelCapabilities: capabilities,
  });
  return h;
}

/** A PNG header (signature + IHDR) for a width x height image; enough for sniffing and sizing. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

describe('ReadMediaFile', () => {
  it('is skipped unless the model takes images or videos', async () => {
    const deps = { workDir: '/w', additionalDirs: [], descriptionVars: {}, uploadVideo: null };
    await expect(
      ReadMediaFile.create({ ...deps, modelCapabilities: new Set(['thinking']) }, toolKit),
    ).rejects.toThrow(/neither images nor videos/);
    h = await FileToolsHarness.create({
      specs: ['kimi-ts/tools/file/read-media-file:ReadMediaFile'],
    });
    expect(h.toolset.find('ReadMediaFile')).toBeUndefined();
    const tool = await ReadMediaFile.create({ ...deps, modelCapabilities: new Set(['video_in']) }, toolKit);
    expect(tool.description).toContain('videos only');
  });

  it('returns an image as a data URL between tags, with its type, size and pixel size', async () => {
    await setup(['image_in']);
    const data = pngHeader(640, 480);
    const path = join(h.workDir, 'shot.bin');
    await writeFile(path, data);
    const result = await h.call('ReadMediaFile', { path: 'shot.bin' });
    expect(result.is_error).toBe(false);
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${path}">` },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${data.toString('base64')}` } },
      { type: 'text', text: '</image>' },
    ]);
    expect(result.message).toMatch(
      new RegExp(
        `^Loaded image file \`shot.bin\` \\(image/png, ${data.length} bytes, original size 640x480px\\)\\. If you need to output coordinates`,
      ),
    );
  });

  it('returns a video when the model takes videos, and refuses it otherwise', async () => {
    await setup(['image_in']);
    const clip = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16)]);
    await writeFile(join(h.workDir, 'clip.mp4'), clip);
    const refused = await h.call('ReadMediaFile', { path: 'clip.mp4' });
    expect([refused.message, briefOf(refused)]).toEqual([
      'The current model does not support video input. Tell the user to use a model with video input capability.',
      'Unsupported media type',
    ]);
    await h.dispose();
    await setup(['video_in']);
    await writeFile(join(h.workDir, 'clip.mp4'), clip);
    const result = await h.call('ReadMediaFile', { path: 'clip.mp4' });
    expect(Array.isArray(result.output) && result.output[1]).toEqual({
      type: 'video_url',
      video_url: { url: `data:video/mp4;base64,${clip.toString('base64')}` },
    });
    expect(result.message).toMatch(/^Loaded video file `clip.mp4` \(video\/mp4, 28 bytes\)\./);
  });

  it("uploads a video where the model's API takes uploads, and says so when that fails", async () => {
    const uploads: { filename: string; mimeType: string; bytes: number }[] = [];
    let fail = false;
    h = await FileToolsHarness.create({
      specs: ['kimi-ts/tools/file/read-media-file:ReadMediaFile'],
      modelCapabilities: ['image_in', 'video_in'],
      uploadVideo: async (video) => {
        if (fail) throw new Error('quota exceeded');
        uploads.push({ filename: video.filename, mimeType: video.mimeType, bytes: video.data.length });
        return 'ms://file-123';
      },
    });
    const clip = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16)]);
    await writeFile(join(h.workDir, 'clip.mp4'), clip);
    const result = await h.call('ReadMediaFile', { path: 'clip.mp4' });
    expect(Array.isArray(result.output) && result.output[1]).toEqual({
      type: 'video_url',
      video_url: { url: 'ms://file-123' },
    });
    expect(uploads).toEqual([{ filename: 'clip.mp4', mimeType: 'video/mp4', bytes: 28 }]);
    // Images still go inline.
    await writeFile(join(h.workDir, 'shot.png'), pngHeader(2, 2));
    const image = await h.call('ReadMediaFile', { path: 'shot.png' });
    expect(JSON.stringify(image.output)).toContain('data:image/png;base64,');
    expect(uploads).toHaveLength(1);
    fail = true;
    const failed = await h.call('ReadMediaFile', { path: 'clip.mp4' });
    expect([failed.is_error, failed.message, briefOf(failed)]).toEqual([
      true,
      'Failed to upload the video `clip.mp4`: quota exceeded',
      'Upload failed',
    ]);
  });

  it('refuses text, unknown binaries, empty files, missing files and directories', async () => {
    await setup(['image_in', 'video_in']);
    await writeFile(join(h.workDir, 'a.txt'), 'text');
    const text = await h.call('ReadMediaFile', { path: 'a.txt' });
    expect(text.message).toBe('`a.txt` is a text file. Use ReadFile to read text files.');
    await writeFile(join(h.workDir, 'blob'), Buffer.from([1, 0, 2]));
    expect(briefOf(await h.call('ReadMediaFile', { path: 'blob' }))).toBe('File not readable');
    await writeFile(join(h.workDir, 'empty.png'), '');
    const empty = await h.call('ReadMediaFile', { path: 'empty.png' });
    expect([empty.message, briefOf(empty)]).toEqual(['`empty.png` is empty.', 'Empty file']);
    expect(briefOf(await h.call('ReadMediaFile', { path: 'none.png' }))).toBe('File not found');
    expect(briefOf(await h.call('ReadMediaFile', { path: '.' }))).toBe('Invalid path');
    expect(briefOf(await h.call('ReadMediaFile', { path: '../outside/x.png' }))).toBe('Invalid path');
  });

  it('reads a file of exactly 100 MB and refuses one byte more', async () => {
    await setup(['image_in']);
    const path = join(h.workDir, 'huge.png');
    const file = await open(path, 'w');
    await file.write(pngHeader(1, 1));
    await file.truncate(MAX_MEDIA_BYTES + 1);
    await file.close();
    const tooBig = await h.call('ReadMediaFile', { path: 'huge.png' });
    expect([tooBig.message, briefOf(tooBig)]).toEqual([
      `\`huge.png\` is ${MAX_MEDIA_BYTES + 1} bytes, which exceeds the maximum of 100 MB for media files.`,
      'File too large',
    ]);
    const handle = await open(path, 'r+');
    await handle.truncate(MAX_MEDIA_BYTES);
    await handle.close();
    const ok = await h.call('ReadMediaFile', { path: 'huge.png' });
    expect(ok.is_error).toBe(false);
    expect(ok.message).toContain(`(image/png, ${MAX_MEDIA_BYTES} bytes, original size 1x1px)`);
  });
});
