import { stat } from 'node:fs/promises';
import { Hono } from 'hono';
import { loadConfig } from '../../../config/load-config.js';
import type { WebContext } from './web-context.js';

/**
 * `/api/config` (the config's models: names, provider type, capabilities, prices; never a key, a header or a
 * base URL) and `/api/work-dirs` (the work dirs kimi-ts has sessions for).
 */
export function configRoutes(ctx: WebContext): Hono {
  const app = new Hono();

  app.get('/config', async (c) => {
    const { config } = await loadConfig({
      env: ctx.env,
      home: ctx.home,
      configFile: ctx.configFile,
      inlineConfig: ctx.inlineConfig,
    });
    const models = Object.entries(config.models).map(([name, model]) => ({
      name,
      display_name: model.display_name ?? null,
      provider_type: config.providers[model.provider]?.type ?? null,
      model: model.model,
      max_context_size: model.max_context_size,
      capabilities: model.capabilities ?? [],
      // Dollars per million tokens: not a secret; the page shows the cost the terminal UI shows.
      price: model.price ?? null,
    }));
    return c.json({
      default_model: config.default_model || null,
      default_thinking: config.default_thinking,
      models,
    });
  });

  app.get('/work-dirs', async (c) => {
    const recorded = await ctx.directory.workDirs();
    const paths = recorded.includes(ctx.defaultWorkDir) ? recorded : [ctx.defaultWorkDir, ...recorded];
    const workDirs = await Promise.all(
      paths.map(async (path) => ({
        path,
        exists: await stat(path).then(
          (info) => info.isDirectory(),
          () => false,
        ),
      })),
    );
    return c.json({ default: ctx.defaultWorkDir, work_dirs: workDirs });
  });

  return app;
}
