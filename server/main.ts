import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { EditionError } from './edition/loader';
import { loadFirstScreenRenderer } from './html/first-screen';

/** Starts the service from the environment and prints where it listens. */
export async function main(): Promise<void> {
  try {
    const config = loadConfig();
    const app = await buildApp(config);
    await app.listen({ port: config.port, host: config.host });
    void loadFirstScreenRenderer(config.distDir, config.edition);
    const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`Account service (${config.edition}) listening on http://${shownHost}:${config.port}`);
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => void app.close().then(() => process.exit(0)));
    }
  } catch (e) {
    if (e instanceof ConfigError || e instanceof EditionError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
